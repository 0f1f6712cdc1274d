import { playKind, realizeActor } from './play.js';
import { Rng } from '../../core/rng.js';
import type { PacketCastMember, ScenePacket } from '../../domain/packet.js';
import type { Claim, SceneEvent } from '../../domain/scene.js';
import type { LlmRequest } from '../../ports/llm.js';
import { type WriterPayload } from '../../stages/e-writer/types.js';
import { vocativesFit } from '../../core/forms-of-address.js';
import * as P from './writer-phrases.js';
import { lowerLead } from './writer-phrases.js';
import type { OfflineRealizer } from './index.js';
import { DefectKind, chaosRateFor, plantDefect, safeParse } from './writer-defects.js';
import { Draft, SceneState, cap, sentence, serialize } from './writer-draft.js';
import { depict, eventFor, inventClaims } from './writer-events.js';
import { address, addressable, cueOf, fill, heading, names, prose, shortName, shortNames } from './writer-names.js';

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
function timeFits(pk: ScenePacket): (o: string) => boolean {
  const night = pk.setting.time_of_day === 'dusk' || pk.setting.time_of_day === 'night';
  return (o) => !(night ? o.startsWith('D|') : o.startsWith('N|'));
}
const untimed = (o: string) => o.replace(/^[ND]\|/, '');

function compose(p: WriterPayload, rng: Rng, seed: string): Draft {
  const pk = p.packet;
  const formal = P.FORMAL_SETTINGS.includes(pk.setting.kind);
  const n = names(pk);
  const { nameOf } = n;
  const castById = new Map(pk.cast.map((c) => [c.id, c]));
  const simplified = p.mode === 'simplified';
  const sequence = pk.director_instructions.sequence;
  const lines: string[] = [];
  lines.push(heading(pk), '', `**Cast:** ${pk.cast.map((c) => c.name).join(', ')}`, '');
  const opening = untimed(cycled(P.OPENINGS[pk.setting.kind] ?? P.OPENINGS.street, `open/${pk.setting.kind}`, seed, pk, 0, timeFits(pk)));
  lines.push(fill(opening, { atmo: sentence(pk.setting.atmosphere) }).trim(), '');

  const speaker = (preferred: string | undefined, avoid?: string): PacketCastMember | undefined => {
    const c = preferred ? castById.get(preferred) : undefined;
    if (c) return c;
    const others = pk.cast.filter((x) => x.id !== avoid);
    return others.length ? rng.pick(others) : pk.cast[0];
  };
  const say = (c: PacketCastMember, text: string) => lines.push(`> ${cueOf(c)}: ${text}`);
  const registerLine = (c: PacketCastMember, target: string | undefined, k: number) => {
    // Now and then a character borrows their own sample line, for voice.
    // Only lines whose forms of address fit: Servilia's "Gaius" is for Caesar, Caesar's "Mother" for nobody on the page.
    const addressee = target ? pk.cast.find((x) => shortName(x) === target)?.name : undefined;
    const own = c.sample_lines.filter((l) => vocativesFit(l, addressee));
    if (own.length && rng.next() < 0.3) return rng.pick(own);
    const pool = P.REGISTER_LINES[c.register] ?? P.REGISTER_LINES.patrician;
    // With nobody in the room to speak to, a line is said to the air, not to "you".
    const fits = addressable(target) ? () => true : (l: string) => !/\b(you|your|yours)\b/i.test(l);
    // Keyed by register, not speaker: two merchants in one episode do not share a line.
    return address(cycled(pool, `register/${c.register}`, seed, pk, 3 * k, fits), target);
  };
  const beat = (k: number) => cycled(formal ? P.FORMAL_BEATS : P.THRILLER_BEATS, `beat/${formal ? 'formal' : 'thriller'}`, seed, pk, 5 * k);

  let rhetoricUsed = false;
  const shown = new Set<string>();
  const state: SceneState = { quoted: false, seed };
  const events: SceneEvent[] = [];
  let lastMover: PacketCastMember | undefined;
  let lastTarget = '';
  const steps = simplified ? sequence.filter((s) => pk.constraints.required_deltas.some((d) => d.application_id === s.application_id)) : sequence;

  steps.forEach((ins, idx) => {
    const actor = speaker(ins.bindings.actor);
    const targetId = ins.bindings.target;
    const other = targetId && castById.has(targetId) ? castById.get(targetId)! : speaker(undefined, actor?.id);
    lines.push(sentence(prose(ins.narrative_directive, n)));
    if (!simplified && ins.visual_cues.length) lines.push(sentence(rng.pick(ins.visual_cues)));
    if (actor) {
      // Only someone in the room is addressed by name.
      let speech = registerLine(actor, other && other.id !== actor.id ? shortName(other) : undefined, idx);
      if (formal && !rhetoricUsed && !simplified) {
        // One speech, not two cues in a row from the same mouth.
        const device = rng.pick(['anaphora', 'tricolon', 'sententia'] as const);
        speech = `${speech} ${cycled(P.RHETORIC[device], `rhetoric/${device}`, seed, pk)}`;
        rhetoricUsed = true;
      }
      say(actor, speech);
    }
    // One beat of atmosphere per scene, after the first move: more reads as padding.
    if (!simplified && idx === 0) lines.push(beat(idx));
    const deltas = pk.constraints.required_deltas.filter((d) => d.application_id === ins.application_id);
    for (const d of deltas) {
      // One line per thread and no line twice: bookkeeping deltas ride along with their thread.
      const isThread = d.path.startsWith('threads.');
      if (isThread && shown.has(d.path.split('.').slice(0, 2).join('.'))) continue;
      const line = depict(d, pk, rng, state);
      // A stat moved twice in one scene (the move and its risk) is shown once.
      const key = isThread ? d.path.split('.').slice(0, 2).join('.') : /^characters\.[^.]+\.stats\./.test(d.path) ? d.path : line;
      if (shown.has(key)) continue;
      shown.add(key);
      lines.push(line);
    }
    if (other && actor && other.id !== actor.id) say(other, cycled(P.REACTIONS[ins.outcome], `reaction/${ins.outcome}`, seed, pk, 4 * idx));
    if (!simplified && ins.triggered_risks.length) {
      const lead = rng.pick(P.RISK_LEADS);
      const risk = sentence(shortNames(prose(ins.triggered_risks[0]!, n), n));
      lines.push(lead ? `${lead}${lead.endsWith(': ') ? lowerLead(risk) : risk}` : risk);
    }
    lines.push('');
    events.push(eventFor(ins, idx, deltas));
    lastMover = actor;
    lastTarget = other && actor && other.id !== actor.id ? shortName(other) : '';
  });

  if (!steps.length) {
    // A connective scene: the cast talk; nothing changes.
    const [a, b] = pk.cast;
    if (a) {
      let speech = registerLine(a, b ? shortName(b) : undefined, 0);
      if (formal && !simplified) speech = `${speech} ${cycled(P.RHETORIC[rng.pick(['anaphora', 'tricolon', 'sententia'] as const)], 'rhetoric/connective', seed, pk)}`;
      say(a, speech);
    }
    if (b) say(b, registerLine(b, a ? shortName(a) : undefined, 1));
    lines.push('');
    lastMover = a;
    lastTarget = b ? shortName(b) : '';
  }

  const claims: Claim[] = simplified ? [] : inventClaims(p, rng, lines, seed);
  if (lines[lines.length - 1] !== '') lines.push('');
  const mover = lastMover ?? pk.cast[0];
  const isCliff = sequence.some((s) => s.tag === 'cliffhanger');
  lines.push(hookLine(isCliff ? P.CLIFFHANGER_HOOKS : P.HOOKS, pk, seed, mover, lastTarget));
  return { lines, claims, events, hookIndex: lines.length - 1 };
}

/** The button line: walks the episode's hook order; a hook about "{target}" needs someone to be about. */
function hookLine(pool: readonly string[], pk: ScenePacket, seed: string, mover: PacketCastMember | undefined, target: string): string {
  const time = timeFits(pk);
  const fits = (o: string) => time(o) && (addressable(target) || !o.includes('{target}')) && (!!mover || !/\{(name|CUE)\}/.test(o));
  const hook = untimed(cycled(pool, pool === P.HOOKS ? 'hook' : 'cliff', seed, pk, 0, fits));
  return cap(fill(hook, { name: mover ? shortName(mover) : 'Someone', CUE: mover ? cueOf(mover) : 'CROWD', target }));
}

function punchUp(p: WriterPayload, rng: Rng, seed: string): Draft {
  const pk = p.packet;
  const lines = (p.keep_text ?? '').split('\n');
  while (lines.length && !lines[lines.length - 1].trim()) lines.pop();
  const actor = pk.cast.find((c) => c.id === pk.director_instructions.sequence.at(-1)?.bindings.actor) ?? pk.cast[0];
  const lastTarget = pk.director_instructions.sequence.at(-1)?.bindings.target;
  const targetName = lastTarget && pk.cast.some((c) => c.id === lastTarget) ? names(pk).nameOf(lastTarget) : '';
  const formal = P.FORMAL_SETTINGS.includes(pk.setting.kind);
  lines.push('', rng.pick(formal ? P.FORMAL_BEATS : P.THRILLER_BEATS));
  if (actor) lines.push(`> ${cueOf(actor)}: ${rng.pick(P.REACTIONS.success)}`);
  lines.push('');
  const pool = pk.director_instructions.sequence.some((s) => s.tag === 'cliffhanger') ? P.CLIFFHANGER_HOOKS : P.HOOKS;
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
