import type { EpisodeContext } from '../../domain/episode-context.js';
import type { AgentProposals, CharacterProposals, ProposedMove } from '../../domain/proposals.js';
import type { Character, World } from '../../domain/world.js';
import { isBadModelAnswer, type Llm } from '../../ports/llm.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { diag } from '../../diagnostics/catalog.js';
import '../../diagnostics/codes/planning.js';
import { stripModelAnswer } from '../../diagnostics/model-text.js';
import { Rng } from '../../core/rng.js';
import { indexWorld, type WorldIndex } from '../../core/world-index.js';
import { checkPrereqs, operatorRoleKinds } from '../../core/expr/index.js';
import { resolveEffects } from '../../core/deltas/index.js';
import { bdiScore, bindingKey, canAct, mainTarget, priorityOf, roleKind, roleOrder } from './bdi.js';
import { poolOf } from './pool.js';
import { actingPrincipals } from './known.js';
import { characterAnswerSchema, validateCharacterAnswer } from '../../schemas/character-answer.js';
import { compareText } from '../../core/text-order.js';

/** How many candidate moves each principal keeps (spec §5.2 B: 2-3). */
export const MOVES = { min: 2, max: 3 } as const;

/**
 * The best valid move of each operator for one principal on the snapshot, best first; the first
 * `limit` of them (stage B keeps at most MOVES.max: building a move resolves its effects and writes its
 * rationale, and the ~40 operators' moves past the third were built to be dropped).
 */
export function rankMoves(world: World, index: WorldIndex, actor: Character, seed: string, episode: number, limit = Infinity): ProposedMove[] {
  const rng = new Rng(seed).fork(`proposals/${actor.id}`);
  const scored = poolOf(world, episode, index, actor.id)
    .filter((e) => e.valid)
    .map((e) => ({ e, tie: rng.next() * 0.05 }));
  scored.sort((a, b) => b.e.score + b.tie - (a.e.score + a.tie) || (a.e.key < b.e.key ? -1 : 1));
  const seen = new Set<string>();
  const out: ProposedMove[] = [];
  for (const { e } of scored) {
    if (out.length >= limit) break;
    if (seen.has(e.op.id)) continue;
    const op = e.op;
    const r = resolveEffects(op.effects, e.bindings, index, { episode, roleKinds: operatorRoleKinds(op) });
    if (!r.ok) continue;
    seen.add(op.id);
    // The rest of the score (desire, intentions, stakes) for the rationale: the same score as e.score.
    const s = bdiScore(world, actor, op, e.bindings, e.threads);
    const risk = [...op.side_effect_risks].sort((a, b) => b.prob - a.prob)[0];
    const why = s.topDesire ? `${actor.name} wants to ${s.topDesire.text.charAt(0).toLowerCase()}${s.topDesire.text.slice(1)} (${s.topDesire.kind} ${s.topDesire.weight})` : `${actor.name} sees an opening`;
    const extra = [s.intentions.length ? `intends ${s.intentions.join(', ')}` : '', s.stakes.length ? `has a stake in ${s.stakes.join(', ')}` : ''].filter(Boolean).join('; ');
    const target = mainTarget(op, e.bindings);
    const tName = target ? (index.characters.get(target)?.name ?? target) : '';
    out.push({
      operator_id: op.id,
      target,
      bindings: { ...e.bindings },
      rationale: `${why}; ${op.name}${tName ? ` against ${tName}` : ''} serves it${extra ? ` (${extra})` : ''}.`,
      expected_deltas: r.deltas,
      risk: risk ? `${risk.text} (${Math.round(risk.prob * 100)}%)` : 'none',
      priority: priorityOf(s.score),
    });
  }
  return out;
}

/** Keep the best binding of each operator, then the best 2-3 operators. */
export function pickMoves(ranked: ProposedMove[]): ProposedMove[] {
  const seen = new Set<string>();
  const out: ProposedMove[] = [];
  for (const m of ranked) {
    if (seen.has(m.operator_id)) continue;
    seen.add(m.operator_id);
    out.push(m);
    if (out.length === MOVES.max) break;
  }
  // A weak third move (under half the best priority) is left out: 2 strong moves beat 3 padded ones.
  if (out.length === 3 && out[2]!.priority < out[0]!.priority / 2) out.pop();
  return out;
}

/**
 * Stage B, symbolic: the 2-3 moves of each of the episode's acting principals (all who can act,
 * or at most ACTING_CAP of them in a big world: known.ts actingPrincipals). Pure.
 */
export function proposeSymbolic(world: World, context: EpisodeContext): AgentProposals {
  const index = indexWorld(world);
  const proposals: CharacterProposals[] = [];
  const skipped: AgentProposals['skipped'] = [];
  const acting = new Set(actingPrincipals(world, context.episode).map((c) => c.id));
  // Only the principals listed (those who cannot act, and the acting ones) are put in order: sorting
  // that part of the list gives its order in the sorted whole (a stable sort), without sorting every
  // principal of a big world (6,667 of the synthetic 10,000 world's characters, for 10 of them).
  const listed = world.characters.characters.filter((x) => x.principal && (!canAct(x) || acting.has(x.id)));
  for (const c of listed.sort((a, b) => compareText(a.id, b.id))) {
    if (!canAct(c)) { skipped.push({ character_id: c.id, status: c.status }); continue; }
    if (!acting.has(c.id)) continue;
    proposals.push({ character_id: c.id, moves: pickMoves(rankMoves(world, index, c, context.seed, context.episode, MOVES.max)), source: 'symbolic', dropped: [] });
  }
  return { format: 1, episode_id: context.episode_id, state_hash: context.state_hash, proposals, skipped };
}

/** Why a model's move is invalid on the snapshot, or null when it is valid. */
export function invalidMove(world: World, index: WorldIndex, characterId: string, m: ProposedMove, episode: number): string | null {
  const op = index.operators.get(m.operator_id);
  if (!op) return `operator ${m.operator_id} does not exist`;
  if (m.bindings.actor !== characterId) return `the actor must be ${characterId}, not ${m.bindings.actor}`;
  for (const r of roleOrder(op)) {
    const id = m.bindings[r];
    const kind = roleKind(op, r);
    if (!id) return `role ${r} of ${op.id} is not bound`;
    const ok = kind === 'character' ? canAct(index.characters.get(id)) : kind === 'secret' ? index.secrets.has(id) : kind === 'thread' ? index.threads.has(id) : kind === 'location' ? index.locations.has(id) : index.factions.has(id);
    if (!ok) return `role ${r} is bound to ${id}, which is not a ${kind} that can take part`;
  }
  for (const r of Object.keys(m.bindings)) if (!op.roles[r] && r !== 'actor') return `${op.id} has no role ${r}`;
  const pre = checkPrereqs(op, m.bindings, index, { episode });
  if (!pre.holds) return `prerequisite ${pre.results.find((x) => !x.holds)?.expr} does not hold`;
  return null;
}

/**
 * Stage B through the LLM port (role `proposals`). The symbolic moves are computed first and sent
 * as the payload; the offline realizer returns them. A model's moves are validated and invalid
 * ones replaced by unused symbolic moves, recorded in `dropped`.
 */
export async function proposeWithLlm(world: World, context: EpisodeContext, llm: Llm): Promise<{ proposals: AgentProposals; diagnostics: Diagnostic[] }> {
  const symbolic = proposeSymbolic(world, context);
  const index = indexWorld(world);
  // The principals' calls are independent: issue them together (the router's limiter bounds the
  // calls in flight) and assemble the answers in principal order, so the result never depends on
  // which call finished first.
  const answers = await Promise.all(symbolic.proposals.map(async (p): Promise<{ entry: CharacterProposals; diagnostics: Diagnostic[] }> => {
    const character = index.characters.get(p.character_id)!;
    // Nothing applies to this character: there is nothing a model could validly propose either.
    if (p.moves.length === 0) return { entry: p, diagnostics: [] };
    const diagnostics: Diagnostic[] = [];
    let res: Awaited<ReturnType<Llm['complete']>>;
    try {
      res = await llm.complete({
        role: 'proposals',
        system: 'You voice one principal of a late-Republic political thriller. Output JSON only: {"character_id","moves":[{operator_id,target,bindings,rationale,expected_deltas,risk,priority}]} with 2-3 moves consistent with the character\'s beliefs, desires and intentions. Use only the operators and bindings offered; their prerequisites must hold.',
        messages: [{ role: 'user', content: JSON.stringify({ character, candidate_moves: p.moves }) }],
        json_schema: characterAnswerSchema(),
        schema_name: 'agent_proposals#/$defs/character_answer',
        payload: { character, moves: p.moves },
        meta: { episode: context.episode_id, scene: p.character_id },
      });
    } catch (e) {
      // A model that keeps answering badly (after repair and re-asks) costs this principal its
      // model moves, never the episode; any other failure (abort, replay miss, outage) ends the run.
      if (!isBadModelAnswer(e)) throw e;
      const reason = `the model's answer stayed invalid: ${e instanceof Error ? e.message : String(e)}`;
      diagnostics.push(diag('AUR3005', { character: p.character_id, reason: `*: ${reason}` }));
      return { entry: { ...p, dropped: [{ operator_id: '*', reason }] }, diagnostics };
    }
    // A kept move's rationale and risk are committed (agent_proposals.json): no control or bidi characters.
    const clean = stripModelAnswer(res.json ?? safeParse(res.text), `proposals (${p.character_id})`);
    diagnostics.push(...clean.warnings);
    const answer = clean.value;
    const schemaErr = validateCharacterAnswer(answer);
    const dropped: CharacterProposals['dropped'] = [];
    const kept: ProposedMove[] = [];
    if (schemaErr) {
      dropped.push({ operator_id: '*', reason: `answer does not match the schema: ${schemaErr}` });
    } else {
      const a = answer as { character_id: string; moves: ProposedMove[] };
      for (const m of a.moves) {
        const why = a.character_id !== p.character_id ? `answer is for ${a.character_id}` : invalidMove(world, index, p.character_id, m, context.episode);
        if (why) dropped.push({ operator_id: m.operator_id, reason: why });
        else if (!kept.some((k) => k.operator_id === m.operator_id)) kept.push({ ...m, target: m.target ?? null });
      }
    }
    for (const s of p.moves) if (kept.length < MOVES.min && !kept.some((k) => k.operator_id === s.operator_id)) kept.push(s);
    for (const d of dropped) diagnostics.push(diag('AUR3005', { character: p.character_id, reason: `${d.operator_id}: ${d.reason}` }));
    const entry: CharacterProposals = { character_id: p.character_id, moves: kept.slice(0, MOVES.max), source: kept.every((k) => p.moves.some((s) => bindingKey(s.operator_id, s.bindings) === bindingKey(k.operator_id, k.bindings))) ? 'symbolic' : 'llm', dropped };
    return { entry, diagnostics };
  }));
  return { proposals: { ...symbolic, proposals: answers.map((a) => a.entry) }, diagnostics: answers.flatMap((a) => a.diagnostics) };
}

function safeParse(text: string): unknown {
  try { return JSON.parse(text); } catch { return undefined; }
}
