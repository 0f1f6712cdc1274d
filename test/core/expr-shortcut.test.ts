import { describe, expect, it } from 'vitest';
import type { RoleKind, World } from '../../src/domain/world.js';
import { evaluateAst, makeEvalContext, parseExpression, type Ast } from '../../src/core/expr/index.js';
import { conjunctShortcut } from '../../src/core/expr/shortcut.js';
import { indexWorld } from '../../src/core/world-index.js';
import { smallWorld } from './fixture.js';

/**
 * The planning pool reads `holds(a, b)` / `!holds(a, b)` from the index instead of evaluating it
 * (core/expr/shortcut.ts), and `a.id == b.id` / `a.id != b.id` / `secret.subject == a.id` likewise. It must say exactly what the interpreter says (true only when the
 * expression evaluates to true) for every binding: ids of every kind, ids that exist in another
 * kind's collection, missing ids, unbound roles, a secret without holders, a holder that is not a
 * character.
 */
function world(): World {
  const w = smallWorld();
  w.secrets.secrets.push(
    { ...w.secrets.secrets[0]!, id: 'sec_none', holders: undefined as unknown as string[], subject: undefined as unknown as string },
    // A secret whose id is a character's, held by a thread id and a missing id.
    { ...w.secrets.secrets[0]!, id: 'cicero', holders: ['thr_grain', 'ghost', 'crassus'] },
  );
  return w;
}

const KINDS: RoleKind[] = ['character', 'secret', 'thread', 'location', 'faction'];
const parse = (src: string): Ast => {
  const p = parseExpression(src);
  if (!p.ok) throw new Error(src);
  return p.ast;
};

describe('conjunctShortcut (core/expr/shortcut.ts)', () => {
  const w = world();
  const index = indexWorld(w);
  const ids = [
    ...w.characters.characters.map((c) => c.id),
    ...w.secrets.secrets.map((s) => s.id),
    ...w.threads.threads.map((t) => t.id),
    ...w.world.locations.map((l) => l.id),
    'ghost',
  ];

  it('agrees with evaluateAst on every binding of every pair of kinds', () => {
    let checked = 0;
    const seen = new Set<boolean>();
    for (const src of ['holds(x, y)', '!holds(x, y)', 'holds(y, x)', '!holds(y, y)', 'x.id != y.id', 'x.id == y.id', 'y.id == x.id', 'x.id != x.id', 'y.subject == x.id', 'x.id != y.subject', 'y.subject == y.subject']) {
      const ast = parse(src);
      for (const kx of KINDS) {
        for (const ky of KINDS) {
          const kinds = { actor: 'character', x: kx, y: ky } as Record<string, RoleKind>;
          const fast = conjunctShortcut(ast, kinds, index);
          // `subject` is read directly only from a role declared a secret.
          if (src.includes('subject') && ky !== 'secret') { expect(fast, src).toBeNull(); continue; }
          expect(fast, src).not.toBeNull();
          const bindings: Record<string, string>[] = [{}];
          for (const a of ids) {
            bindings.push({ x: a }, { y: a });
            for (const b of ids) bindings.push({ actor: 'cicero', x: a, y: b });
          }
          for (const b of bindings) {
            const r = evaluateAst(ast, makeEvalContext(index, b, { episode: 1, roleKinds: kinds }));
            const want = r.ok && r.value === true;
            expect(fast!(b), `${src} ${kx}/${ky} ${JSON.stringify(b)}`).toBe(want);
            seen.add(want);
            checked++;
          }
        }
      }
    }
    expect(seen).toEqual(new Set([true, false]));
    expect(checked).toBeGreaterThan(10_000);
  });

  it('leaves every other conjunct, `world` and undeclared kinds to the interpreter', () => {
    const kinds = { actor: 'character', x: 'character', y: 'secret' } as Record<string, RoleKind>;
    for (const src of ['holds(x, z)', 'holds(world, y)', 'holds(x, y) && true', '!!holds(x, y)', "holds(x, 'sec_debts')", 'rel(x, y).trust > 0', 'x.id != z.id', 'x.name == y.name', "x.id == 'cicero'", 'x.id < y.id', 'world.id == x.id', 'x.subject == y.id', 'y.text == x.id']) {
      expect(conjunctShortcut(parse(src), kinds, index), src).toBeNull();
    }
  });
});
