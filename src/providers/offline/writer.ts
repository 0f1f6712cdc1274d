import { playKind, realizeActor } from './play.js';
import { Rng } from '../../core/rng.js';
import type { ScenePacket } from '../../domain/packet.js';
import type { Claim, SceneEvent } from '../../domain/scene.js';
import type { LlmRequest } from '../../ports/llm.js';
import { type WriterPayload } from '../../stages/e-writer/types.js';
import * as P from './writer-phrases.js';
import type { OfflineRealizer } from './index.js';
import { DefectKind, chaosRateFor, plantDefect, safeParse } from './writer-defects.js';
import { Draft, serialize } from './writer-draft.js';
import { REACTION_POOLS, compose, hookLine } from './writer-compose.js';
import { sceneBlock } from './writer-lines.js';
import { cueOf, names } from './writer-names.js';

export { DEFECT_CODES, DEFECT_KINDS, chaosRateFor, type DefectKind } from './writer-defects.js';
export { threadNoun } from './writer-names.js';
export { scrubPlain } from './writer-draft.js';
export { depict } from './writer-events.js';

/**
 * The offline writer: a deterministic, seeded screenplay renderer working from the scene packet
 * (the request payload), in exactly the spec §6.3 output format. With chaos > 0 it plants the
 * defects real models make, so the verify/repair loop can be watched working.
 */
export interface OfflineWriterContext {
  /** Used when the payload carries no seed. */
  seed?: string;
  /** Probability in [0,1] of a planted defect on a first attempt. */
  chaos?: number;
  /** Plant exactly this defect (tests, demos), regardless of chaos. */
  defect?: DefectKind;
}

/** The offline realizer for the `writer` role. */
export function offlineWrite(request: LlmRequest, ctx: OfflineWriterContext = {}): { text: string } {
  const payload = request.payload as WriterPayload | undefined;
  if (!payload || payload.task !== 'write_scene') throw new Error('offline writer: request has no write_scene payload');
  return { text: renderScene(payload, ctx) };
}

export function renderScene(p: WriterPayload, ctx: OfflineWriterContext = {}): string {
  const seed = p.seed || ctx.seed || 'aureus';
  const pk = p.packet;
  const rng = new Rng(seed).fork(`writer/${pk.scene_id}/${p.attempt}`);
  let draft: Draft;
  if (p.mode === 'punch_up' && p.keep_text !== undefined) draft = punchUp(p, rng, seed);
  else draft = compose(p, rng, seed);
  if (p.mode !== 'simplified') {
    const rate = chaosRateFor(p.attempt, ctx.chaos ?? 0);
    const crng = new Rng(seed).fork(`chaos/${pk.scene_id}/${p.attempt}`);
    if (ctx.defect) plantDefect(draft, p, crng, ctx.defect);
    else if (rate > 0 && crng.next() < rate) plantDefect(draft, p, crng);
  }
  return serialize(draft, p.lexicon);
}

// ---------------------------------------------------------------------------------------------
// Composition

/**
 * A phrase from a pool the whole episode walks in one seeded order, indexed by scene number, so
 * scenes written independently (and concurrently) rarely share a stock line. `fits` skips
 * entries that do not suit this scene (the hour, a missing addressee).
 */
export function cycled(pool: readonly string[], key: string, seed: string, pk: ScenePacket, offset = 0, fits: (s: string) => boolean = () => true): string {
  const order = new Rng(seed).fork(`cycle/${key}`).shuffle(pool);
  const usable = order.filter(fits);
  const list = usable.length ? usable : order;
  return list[(((pk.number - 1 + offset) % list.length) + list.length) % list.length]!;
}

/** `N|` lines only at dusk or night, `D|` lines only by daylight. */
export function timeFits(pk: ScenePacket): (o: string) => boolean {
  const night = pk.setting.time_of_day === 'dusk' || pk.setting.time_of_day === 'night';
  return (o) => !(night ? o.startsWith('D|') : o.startsWith('N|'));
}
export const untimed = (o: string) => o.replace(/^[ND]\|/, '');

function punchUp(p: WriterPayload, rng: Rng, seed: string): Draft {
  const pk = p.packet;
  const lines = (p.keep_text ?? '').split('\n');
  while (lines.length && !lines[lines.length - 1].trim()) lines.pop();
  const actor = pk.cast.find((c) => c.id === pk.director_instructions.sequence.at(-1)?.bindings.actor) ?? pk.cast[0];
  const lastTarget = pk.director_instructions.sequence.at(-1)?.bindings.target;
  const targetName = lastTarget && pk.cast.some((c) => c.id === lastTarget) ? names(pk).nameOf(lastTarget) : '';
  const formal = P.FORMAL_SETTINGS.includes(pk.setting.kind);
  lines.push('', rng.pick(formal ? P.FORMAL_BEATS : P.THRILLER_BEATS));
  // This scene's own reply, unless the kept text already has it (then the beat alone, not the line in a second mouth).
  const reply = sceneBlock(REACTION_POOLS.success, 'reaction/success', seed, pk, 1)[0];
  if (actor && reply && !lines.some((l) => l.endsWith(`: ${reply}`))) lines.push(`> ${cueOf(actor)}: ${reply}`);
  lines.push('');
  const pool = pk.director_instructions.sequence.some((s) => s.tag === 'cliffhanger') ? P.CLIFFHANGER_HOOKS : P.HOOKS;
  // A spoken hook here could be another scene's: the punch-up ends on a narrated one.
  lines.push(hookLine(pool, pk, seed, actor, targetName));
  return {
    lines,
    claims: safeParse(p.keep_claims_json) as Claim[],
    events: safeParse(p.keep_events_json) as SceneEvent[],
    hookIndex: lines.length - 1,
  };
}

/** Registry entry point (offline/index.ts loads `realize` from ./writer.js). */
// Play mode's Actor shares the writer role (writer-role model); its payload says which task it is.
export const realize: OfflineRealizer = (req, ctx) =>
  playKind(req.payload) === 'play_actor' ? realizeActor(req, ctx) : offlineWrite(req, { seed: ctx.seed, chaos: ctx.chaos });
