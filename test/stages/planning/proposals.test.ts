import { describe, expect, it } from 'vitest';
import { indexWorld } from '../../../src/core/world-index.js';
import { checkPrereqs } from '../../../src/core/expr/index.js';
import { proposeSymbolic, rankMoves } from '../../../src/stages/b-proposals/index.js';
import { bdiScore } from '../../../src/stages/b-proposals/bdi.js';
import { buildEpisodeContext } from '../../../src/stages/a-snapshot/index.js';
import { episodeRef } from '../../../src/domain/context.js';
import { loadScenario, scenarios } from './helpers.js';

describe.each(scenarios())('stage B proposals on $name', (s) => {
  it('every acting principal proposes 2-3 distinct moves whose prereqs hold in the snapshot', async () => {
    const { world, cliff } = await loadScenario(s);
    const { context } = buildEpisodeContext({ world, ref: episodeRef(1, s.episode), seed: 'b', previousCliffhanger: cliff });
    const p = proposeSymbolic(world, context);
    const idx = indexWorld(world);
    expect(p.proposals.map((x) => x.character_id).sort()).toEqual(context.acting_principals);
    for (const c of p.proposals) {
      expect(c.moves.length, c.character_id).toBeGreaterThanOrEqual(2);
      expect(c.moves.length).toBeLessThanOrEqual(3);
      expect(new Set(c.moves.map((m) => m.operator_id)).size).toBe(c.moves.length);
      for (const m of c.moves) {
        const op = world.operators.operators.find((o) => o.id === m.operator_id)!;
        expect(m.bindings.actor).toBe(c.character_id);
        expect(checkPrereqs(op, m.bindings, idx, { episode: s.episode }).holds).toBe(true);
        expect(m.priority).toBeGreaterThanOrEqual(0);
        expect(m.priority).toBeLessThanOrEqual(1);
        expect(m.rationale.length).toBeGreaterThan(10);
      }
      // Best first.
      const pr = c.moves.map((m) => m.priority);
      for (let i = 1; i < pr.length; i++) expect(pr[i]! - 0.05).toBeLessThanOrEqual(pr[i - 1]!);
    }
  });
});

describe('BDI-lite scoring', () => {
  it('desires matching an operator\'s serves, aimed at the bound target, weigh more', async () => {
    const { world } = await loadScenario(scenarios().find((s) => s.name === 'planning-base')!);
    const clodius = world.characters.characters.find((c) => c.id === 'clodius')!;
    const op = world.operators.operators.find((o) => o.id === 'op_public_snub')!; // serves reputation, revenge, power
    const atCicero = bdiScore(world, clodius, op, { actor: 'clodius', target: 'cicero' }).score;
    const atCaelius = bdiScore(world, clodius, op, { actor: 'clodius', target: 'caelius' }).score;
    expect(atCicero).toBeGreaterThan(atCaelius); // "Humiliate Cicero" (revenge, target cicero)
    const grain = world.operators.operators.find((o) => o.id === 'op_grain_hoard')!;
    const crassus = world.characters.characters.find((c) => c.id === 'crassus')!;
    const s = bdiScore(world, crassus, grain, { actor: 'crassus', target: 'decimus' });
    expect(s.intentions).toContain('CORNER_GRAIN');
    expect(s.topDesire?.kind).toBe('wealth');
  });

  it('a limited ranking is the first moves of the full one (stage B builds only the moves it keeps)', async () => {
    const { world } = await loadScenario(scenarios().find((s) => s.name === 'planning-base')!);
    const idx = indexWorld(world);
    let cut = 0;
    for (const c of world.characters.characters.filter((x) => x.principal)) {
      const all = rankMoves(world, idx, c, 'x', 1);
      const three = rankMoves(world, idx, c, 'x', 1, 3);
      expect(three).toEqual(all.slice(0, 3));
      if (all.length > 3) { expect(three).toHaveLength(3); cut++; }
    }
    expect(cut).toBeGreaterThan(0);
  });

  it('a character whose strongest desire changes proposes different moves', async () => {
    const { world } = await loadScenario(scenarios().find((s) => s.name === 'planning-base')!);
    const idx = indexWorld(world);
    const terentia = world.characters.characters.find((c) => c.id === 'terentia')!;
    const before = rankMoves(world, idx, terentia, 'x', 1).map((m) => m.operator_id);
    const w2 = structuredClone(world);
    const t2 = w2.characters.characters.find((c) => c.id === 'terentia')!;
    t2.bdi.desires = [{ kind: 'revenge', text: 'Ruin Fulvia', weight: 1, target: 'fulvia' }];
    const after = rankMoves(w2, indexWorld(w2), t2, 'x', 1);
    expect(after.map((m) => m.operator_id)).not.toEqual(before);
    expect(w2.operators.operators.find((o) => o.id === after[0]!.operator_id)!.serves).toContain('revenge');
    expect(after[0]!.target).toBe('fulvia');
  });
});
