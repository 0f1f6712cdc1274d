import { beforeAll, describe, expect, it } from 'vitest';
import { buildPackets, bindRoleNames, estimateTokens } from '../../../src/stages/d-packets/index.js';
import { packetJson, packetTokens } from '../../../src/stages/d-packets/wire.js';
import { prunePacket } from '../../../src/stages/d-packets/prune.js';
import { projectPlan } from '../../../src/stages/c-director/checks.js';
import { planScenario, scenario, hasStarter, STARTER, schemaErrors } from './helpers.js';

describe('scene packets (GraphRAG-lite)', () => {
  let a: Awaited<ReturnType<typeof planScenario>>;
  beforeAll(async () => {
    a = await planScenario(scenario('planning-base'));
  });

  it('a 2-hop walk reaches at least what a 1-hop walk does, and only from the cast outward', () => {
    const k1 = buildPackets(a.plan, a.world, a.context, { k: 1 });
    const k2 = buildPackets(a.plan, a.world, a.context, { k: 2 });
    let grew = false;
    const { before } = projectPlan(a.plan, a.world, a.context);
    k1.forEach((p, i) => {
      const one = new Set(p.retrieved_subgraph.characters.map((c) => c.id));
      const two = new Set(k2[i]!.retrieved_subgraph.characters.map((c) => c.id));
      for (const id of one) expect(two.has(id)).toBe(true);
      if (two.size > one.size) grew = true;
      expect(p.retrieved_subgraph.k).toBe(1);
      // 1 hop: every character is in the cast or shares an edge with a cast member (edges as they stand before the scene).
      const cast = new Set(p.cast.map((c) => c.id));
      for (const id of one) {
        if (cast.has(id)) continue;
        expect(before[i]!.relationships.relationships.some((r) => (r.from === id && cast.has(r.to)) || (r.to === id && cast.has(r.from)))).toBe(true);
      }
    });
    expect(grew).toBe(true);
    expect(() => buildPackets(a.plan, a.world, a.context, { k: 3 as 1 })).toThrow(/1 or 2/);
  });

  it('never retrieves an inert secret', () => {
    // sec_old_scandal is inert in the fixture; Crassus (its subject) is in many scenes.
    for (const p of a.packets) expect(p.retrieved_subgraph.secrets.map((s) => s.id)).not.toContain('sec_old_scandal');
    expect(a.packets.some((p) => p.cast.some((c) => c.id === 'crassus'))).toBe(true);
  });

  it('enforces the token budget by pruning the least relevant edges first, and records what it pruned', () => {
    const full = buildPackets(a.plan, a.world, a.context, { tokenBudget: 100000 });
    const tight = buildPackets(a.plan, a.world, a.context, { tokenBudget: 1500 });
    let prunedSome = false;
    tight.forEach((p, i) => {
      const f = full[i]!;
      expect(f.pruned).toEqual([]);
      if (p.pruned.length === 0) return;
      prunedSome = true;
      // Measured on what the model reads: compact JSON without the pruned list.
      expect(p.token_estimate).toBe(packetTokens(p));
      expect(packetJson(p)).not.toContain('"pruned"');
      const cast = new Set(p.cast.map((c) => c.id));
      const own = (e: { from: string; to: string }) => cast.has(e.from) && cast.has(e.to);
      if (p.token_estimate > 1500) {
        // Over budget only when nothing prunable is left: the cast and its own edges stay.
        expect(p.retrieved_subgraph.edges.every(own)).toBe(true);
      }
      // The cast's own nodes and edges are never pruned.
      for (const c of p.cast) expect(p.pruned.some((x) => x.kind === 'character' && x.id === c.id)).toBe(false);
      for (const e of f.retrieved_subgraph.edges.filter(own)) expect(p.retrieved_subgraph.edges).toContainEqual(e);
      const edges = p.pruned.filter((x) => x.kind === 'edge');
      const kept = p.retrieved_subgraph.edges.filter((e) => !own(e));
      // Every pruned edge was no more relevant than every edge kept.
      for (const e of edges) for (const k of kept) expect(e.relevance).toBeLessThanOrEqual(k.relevance);
      // Edges go before anything else.
      const firstOther = p.pruned.findIndex((x) => x.kind !== 'edge');
      if (firstOther >= 0) expect(p.pruned.slice(firstOther).every((x) => x.kind !== 'edge')).toBe(true);
      expect(schemaErrors('scene_packet', p)).toBeNull();
    });
    expect(prunedSome).toBe(true);
  });

  // The cast's accounts and those a planned transfer moves are the scene's own facts: pruned for room,
  // the verifier read the missing balance as 0 and failed a DPRR world's second episode on a false overspend.
  it('never prunes the cast\'s accounts nor those a required delta moves, however tight the budget', () => {
    const full = buildPackets(a.plan, a.world, a.context, { tokenBudget: 100000 });
    const tiny = buildPackets(a.plan, a.world, a.context, { tokenBudget: 1 });
    let moved = 0;
    tiny.forEach((p, i) => {
      expect(p.pruned.length, p.scene_id).toBeGreaterThan(0);
      expect(p.retrieved_subgraph.accounts, p.scene_id).toEqual(full[i]!.retrieved_subgraph.accounts);
      const ids = new Set(p.retrieved_subgraph.accounts.map((x) => x.id));
      for (const c of p.cast) if (a.world.assets.cash_ledger.some((x) => x.owner === c.id)) expect(p.retrieved_subgraph.accounts.some((x) => x.owner === c.id), `${p.scene_id} ${c.id}`).toBe(true);
      for (const d of p.constraints.required_deltas.filter((x) => x.op === 'transfer')) {
        expect(ids.has(d.from!) && ids.has(d.to!), `${p.scene_id} ${d.from}>${d.to}`).toBe(true);
        if (!p.cast.some((c) => c.id === d.to)) moved++;
      }
    });
    // A payee outside the cast (the treasury) is kept too.
    expect(moved).toBeGreaterThan(0);
    // An account that is not the scene's own still goes.
    const p = structuredClone(full.find((x) => x.constraints.required_deltas.some((d) => d.op === 'transfer'))!);
    p.retrieved_subgraph.accounts.push({ id: 'stranger_purse', owner: 'stranger', denarii: 7 });
    prunePacket(p, 1, new Map(), new Map());
    expect(p.pruned).toContainEqual({ id: 'stranger_purse', kind: 'account', relevance: 0 });
    expect(p.retrieved_subgraph.accounts.map((x) => x.id).sort()).toEqual(full.find((x) => x.scene_id === p.scene_id)!.retrieved_subgraph.accounts.map((x) => x.id).sort());
  });

  it('writes directives with character names instead of role names', () => {
    expect(bindRoleNames("actor's men close on target.", new Map([['actor', 'Clodius'], ['target', 'Cicero']]))).toBe("Clodius's men close on Cicero.");
    for (const p of a.packets) for (const s of p.director_instructions.sequence) {
      expect(s.narrative_directive).not.toMatch(/\b(actor|target)\b/);
      const actorName = p.retrieved_subgraph.characters.find((c) => c.id === s.bindings.actor)?.name ?? a.world.characters.characters.find((c) => c.id === s.bindings.actor)!.name;
      const op = a.world.operators.operators.find((o) => o.id === s.operator_id)!;
      const guidance = s.outcome === 'success' ? op.writer_guidance.success_beat : op.writer_guidance.fail_beat;
      if (/\bactor\b/.test(guidance)) expect(s.narrative_directive).toContain(actorName);
    }
  });

  it('gives each cast member a mood, an objective and where they came from', () => {
    for (const p of a.packets) for (const c of p.cast) {
      expect(c.mood.length).toBeGreaterThan(0);
      expect(c.objective.length).toBeGreaterThan(0);
      expect(a.world.world.locations.map((l) => l.id)).toContain(c.previous_location);
    }
    const actorObjective = a.packets[0]!.cast.find((c) => c.id === a.plan.beats[0]!.applications[0]!.bindings.actor)!.objective;
    expect(actorObjective).toContain(a.world.operators.operators.find((o) => o.id === a.plan.beats[0]!.applications[0]!.operator_id)!.name);
  });

  it('ends the last scene on the cliffhanger and the others on a button line', () => {
    const last = a.packets[a.packets.length - 1]!;
    expect(last.constraints.hook_requirement).toMatch(/^End on the cliffhanger/);
    for (const p of a.packets.slice(0, -1)) expect(p.constraints.hook_requirement).toMatch(/^End on a button line/);
    for (const p of a.packets) expect(p.constraints.allowed_inventions).toEqual({ max: 2, kinds: ['minor_character', 'object', 'place_detail'] });
  });

  it.runIf(hasStarter)('starter world packets validate and stay within budget or record pruning', async () => {
    const s = await planScenario(STARTER);
    for (const p of s.packets) {
      expect(schemaErrors('scene_packet', p)).toBeNull();
      expect(p.token_estimate <= p.token_budget || p.pruned.length > 0).toBe(true);
    }
  });
});
