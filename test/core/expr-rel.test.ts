import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { evaluate, makeEvalContext } from '../../src/core/expr/index.js';
import { indexWorld } from '../../src/core/world-index.js';
import { WEIGHT_NAMES } from '../../src/domain/world.js';
import { smallWorld } from './fixture.js';
import { diag } from '../../src/diagnostics/catalog.js';

/**
 * `rel(a, b).field` reads a weight without building the edge view (evaluate.ts relMember). It must
 * give what the call and then the member access give: the same value, or the same failure.
 */
const index = indexWorld(smallWorld());
const ctx = makeEvalContext(index, { actor: 'crassus', target: 'cicero', secret: 'sec_debts', thr: 'thr_grain' }, { episode: 3 });

const args = ['actor', 'target', 'secret', 'thr', "'crassus'", "'cicero'", "'clodius'", "'sulla'", "'nobody'", '3', 'true', 'nobody', "actor.id + ''"];
const fields = ['from', 'to', ...WEIGHT_NAMES, 'flags', 'nosuch', 'id'];

describe('rel(a, b).field (core/expr evaluate.ts)', () => {
  it('gives what rel(a, b) and then the field access give, failures included', () => {
    fc.assert(fc.property(fc.constantFrom(...args), fc.constantFrom(...args), fc.constantFrom(...fields), (a, b, f) => {
      const call = evaluate(`rel(${a}, ${b})`, ctx);
      const got = evaluate(`rel(${a}, ${b}).${f}`, ctx);
      if (!call.ok) {
        expect(got).toEqual(call);
        return;
      }
      const view = call.value as Record<string, unknown>;
      if (Object.hasOwn(view, f)) {
        expect(got).toEqual({ ok: true, value: view[f] });
      } else {
        const src = `rel(${a}, ${b}).${f}`;
        expect(got).toEqual({ ok: false, diagnostic: diag('AUR2004', { field: f, type: 'edge', known: Object.keys(view).join(', ') }, { line: 1, column: src.length - f.length + 1 }) });
      }
    }), { numRuns: 400 });
  });

  it('reads the stored weights, and zero for a missing edge', () => {
    const r = [...index.edgesFrom.values()][0]![0]!;
    for (const w of WEIGHT_NAMES) expect(evaluate(`rel('${r.from}', '${r.to}').${w}`, ctx)).toEqual({ ok: true, value: r.weights[w] ?? 0 });
    expect(evaluate("rel('clodius', 'sulla').trust", ctx)).toEqual({ ok: true, value: 0 });
  });
});
