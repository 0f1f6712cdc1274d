import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Operator, RoleKind } from '../../../src/domain/world.js';
import { checkPrereqs } from '../../../src/core/expr/index.js';
import { indexWorld } from '../../../src/core/world-index.js';
import { bdiScore, bindingKey, enumerateBindings } from '../../../src/stages/b-proposals/bdi.js';
import { candidatePool, VALID_PER_FAMILY } from '../../../src/stages/b-proposals/pool.js';
import { actingPrincipals } from '../../../src/stages/b-proposals/known.js';
import { loadScenario, scenarios } from './helpers.js';

/**
 * The pool checks prerequisites conjunct by conjunct as roles are bound, and one conjunct written
 * the same way in several operators shares its results (pool.ts conjunctTable). On a world small
 * enough to be known in full, each family's valid entries must be exactly the best VALID_PER_FAMILY
 * of every binding whose prerequisites hold (checkPrereqs), by score and key. Operators here draw
 * their prerequisites from one set of conjuncts, over roles of varying kinds, so the same text
 * recurs over a character in one operator and a secret or thread in another.
 */
const base = await loadScenario(scenarios().find((s) => s.name === 'planning-base')!);

const CONJUNCTS = [
  'target.id != actor.id',
  "target.status == 'alive'",
  "target.status != 'inert'",
  "target.status == 'open'",
  'rel(actor, target).trust >= 0.2',
  'rel(actor, target).rivalry >= 0.3 || rel(target, actor).fear >= 0.1',
  'holds(actor, target)',
  '!holds(target, other)',
  'actor.wealth >= 40',
  'world.global.unrest >= 3',
  'other.id != target.id',
  "other.faction == actor.faction",
  "nobody.id == 'x'",
  'target.progress < 0.9',
];
const KINDS: RoleKind[] = ['character', 'secret', 'thread'];

const opShape = fc.record({
  target: fc.constantFrom(...KINDS),
  other: fc.option(fc.constantFrom(...KINDS), { nil: undefined }),
  prereqs: fc.array(fc.array(fc.nat(CONJUNCTS.length - 1), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }),
});

describe('the pool\'s conjunct-by-conjunct prerequisite checks (b-proposals/pool.ts)', () => {
  it('keeps exactly the best bindings whose prerequisites hold, conjuncts shared across operators', () => {
    fc.assert(fc.property(fc.array(opShape, { minLength: 2, maxLength: 4 }), (shapes) => {
      const world = structuredClone(base.world);
      const template = world.operators.operators[0]!;
      world.operators.operators = shapes.map((s, i): Operator => ({
        ...structuredClone(template),
        id: `op_t${i}`,
        roles: { actor: { kind: 'character' }, target: { kind: s.target }, ...(s.other ? { other: { kind: s.other } } : {}) } as Operator['roles'],
        prereqs: s.prereqs.map((p) => ({ expr: p.map((k) => CONJUNCTS[k]).join(' && ') })),
        effects: [],
      }));
      const index = indexWorld(world);
      const pool = candidatePool(world, 1, index);
      for (const actor of actingPrincipals(world, 1)) {
        for (const op of world.operators.operators) {
          const want = enumerateBindings(world, op, actor.id)
            .filter((b) => checkPrereqs(op, b, index, { episode: 1 }).holds)
            .map((b) => ({ score: bdiScore(world, actor, op, b).score, key: bindingKey(op.id, b) }))
            .sort((x, y) => y.score - x.score || (x.key < y.key ? -1 : 1))
            .slice(0, VALID_PER_FAMILY)
            .map((x) => x.key);
          const got = pool.filter((e) => e.valid && e.actor.id === actor.id && e.op.id === op.id).map((e) => e.key);
          expect(got, `${actor.id} ${op.id} ${JSON.stringify(op.prereqs)}`).toEqual(want);
        }
      }
    }), { numRuns: 60 });
  });
});
