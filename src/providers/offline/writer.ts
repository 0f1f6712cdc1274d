import { playKind, realizeActor } from './play.js';
import { Rng } from '../../core/rng.js';
import type { ResolvedDelta } from '../../domain/delta.js';
import type { PacketCastMember, PacketInstruction, ScenePacket } from '../../domain/packet.js';
import type { Claim, SceneEvent } from '../../domain/scene.js';
import type { LlmRequest } from '../../ports/llm.js';
import { SECTION, type LexiconEntry, type WriterPayload } from '../../stages/e-writer/types.js';
import { findAnachronisms } from '../../style/lexicon.js';
import * as P from './writer-phrases.js';
import { lowerLead } from './writer-phrases.js';
import type { OfflineRealizer } from './index.js';

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

export type DefectKind =
  | 'dead_speaks'
  | 'anachronism'
  | 'missing_delta'
  | 'teleport'
  | 'overspend'
  | 'malformed_claims'
  | 'missing_section'
  | 'no_hook';

export const DEFECT_KINDS: readonly DefectKind[] = ['dead_speaks', 'anachronism', 'missing_delta', 'teleport', 'overspend', 'malformed_claims', 'missing_section', 'no_hook'];

/** Finding codes each defect trips; a repair prompt prohibiting a code stops that defect. */
export const DEFECT_CODES: Record<DefectKind, string[]> = {
  dead_speaks: ['AUR5010'],
  anachronism: ['AUR5050'],
  missing_delta: ['AUR5031'],
  teleport: ['AUR5012', 'AUR5014'],
  overspend: ['AUR5020', 'AUR5032'],
  malformed_claims: ['AUR5002'],
  missing_section: ['AUR5001'],
  no_hook: ['AUR5060', 'AUR5061'],
};

/**
 * Chaos rate per attempt: the full rate on the first draft, a third of it on the first
 * regeneration, none after that (escalated and simplified rewrites come out clean), so the
 * repair loop converges within its budget.
 */
export function chaosRateFor(attempt: number, chaos: number): number {
  if (attempt <= 1) return chaos;
  if (attempt === 2) return chaos / 3;
  return 0;
}

/** The offline realizer for the `writer` role. */
export function offlineWrite(request: LlmRequest, ctx: OfflineWriterContext = {}): { text: string } {
  const payload = request.payload as WriterPayload | undefined;
  if (!payload || payload.task !== 'write_scene') throw new Error('offline writer: request has no write_scene payload');
  return { text: renderScene(payload, ctx) };
}

interface Draft {
  lines: string[];
  claims: Claim[];
  events: SceneEvent[];
  hookIndex: number;
  claimsText?: string;
  dropEvents?: boolean;
  /** A planted anachronism line, exempt from the lexicon scrub. */
  planted?: string;
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

/** Short names read better on the page: the cue for the cast and the dead, the last name otherwise. */
function shortName(c: { name: string; cue?: string }): string {
  if (c.cue) return c.cue.toLowerCase().replace(/(^|[\s'-])\p{L}/gu, (m) => m.toUpperCase());
  return c.name.split(/\s+/).pop()!;
}

interface Names {
  nameOf: (id: string | undefined) => string;
  secrets: Map<string, ScenePacket['retrieved_subgraph']['secrets'][number]>;
  threads: Map<string, ScenePacket['retrieved_subgraph']['threads'][number]>;
  /** Lower-cased words of every name the packet knows, so ids in words keep their capitals ("indict Catiline"). */
  nameWords: Set<string>;
  /** [full name, short name] of every multi-word name, for shortening repeats. */
  fullNames: [string, string][];
}

function names(pk: ScenePacket): Names {
  const byId = new Map<string, string>();
  const nameWords = new Set<string>();
  const fullNames = new Map<string, string>();
  const note = (c: { id: string; name: string; cue?: string }) => {
    const short = shortName(c);
    byId.set(c.id, short);
    for (const w of [...c.name.split(/\s+/), short]) nameWords.add(w.toLowerCase());
    if (/\s/.test(c.name) && c.name !== short) fullNames.set(c.name, short);
  };
  for (const c of pk.retrieved_subgraph.characters) note(c);
  for (const d of pk.dead) note(d);
  for (const c of pk.cast) note(c);
  const secrets = new Map(pk.retrieved_subgraph.secrets.map((s) => [s.id, s]));
  const threads = new Map(pk.retrieved_subgraph.threads.map((t) => [t.id, t]));
  // An id the packet does not name (an institution's account, say) reads as "the annona fund".
  const nameOf = (id: string | undefined) => (id ? byId.get(id) ?? `the ${humanize(id)}` : 'someone');
  return { nameOf, secrets, threads, nameWords, fullNames: [...fullNames.entries()].sort((a, b) => b[0].length - a[0].length) };
}

function humanize(id: string): string {
  return id.replace(/^(sec|thr|loc|fac)_/, '').replace(/_/g, ' ');
}

/** An id or intention in words, keeping the capitals of the names in it ("INDICT_CATILINE" → "indict Catiline"). */
function inWords(id: string, nameWords: Set<string>): string {
  return humanize(id).toLowerCase().split(' ').map((w) => (nameWords.has(w) ? cap(w) : w)).join(' ');
}

/** A place id in words: a proper name, so title-cased ("loc_porta_capena" → "Porta Capena"). */
function placeWords(id: string): string {
  return humanize(id).split(' ').map((w, i) => (i > 0 && /^(of|the|on|at|in|by)$/.test(w) ? w : cap(w))).join(' ');
}

/**
 * A thread by a short name for when its question was already quoted in the scene: "Murena's
 * trial", "the grain shortage", "the business of Servilia and Caesar". A word of the id is a name
 * when the question or the packet spells it with a capital.
 */
export function threadNoun(id: string, question: string, nameWords: Set<string> = new Set()): string {
  const words = humanize(id).toLowerCase().split(' ').filter(Boolean);
  const isName = (w: string) => nameWords.has(w) || new RegExp(`\\b${cap(w)}\\b`).test(question);
  const named = words.map((w) => (isName(w) ? cap(w) : w));
  if (words.length > 1 && words.every(isName)) return `the business of ${named.slice(0, -1).join(', ')} and ${named.at(-1)}`;
  if (words.length > 1 && isName(words[0]!)) return `${named[0]}'s ${named.slice(1).join(' ')}`;
  return `the ${named.join(' ')}`;
}

function fill(t: string, v: Record<string, string>): string {
  return t.replace(/\{(\w+)\}/g, (m, k: string) => v[k] ?? m);
}

/** A name fit to address someone by; "someone" or "the annona fund" is not. */
function addressable(name: string | undefined): name is string {
  return !!name && name !== 'someone' && !/^the\s/.test(name);
}

/** Fills {target}; with nobody to address, the vocative goes ("Say it plainly, {target}." → "Say it plainly."). */
function address(t: string, target: string | undefined): string {
  if (addressable(target)) return fill(t, { target });
  return t
    .replace(/,\s*\{target\},(?=\s+(and|but|or)\b)/g, ',')
    .replace(/,\s*\{target\},?/g, '')
    .replace(/\{target\},?\s*/g, '');
}

/**
 * Directive text as prose. Operator beats offer alternatives to a model ("X refuses, or agrees
 * too easily"); on the page the first one happens. Notes to the writer after the first sentence
 * go. Full names after their first use shorten.
 */
function prose(text: string, n: Names): string {
  let out = text
    .replace(/, or [^,;.]*(?=[;.]|$)/g, '')
    // Notes to the writer ("Show the exact price …", "Violence has weight: …") are not on-screen action.
    .split(/(?<=\.)\s+/)
    .filter((sentence, i) => i === 0 || !/^(Show|Leave|End|Make|Keep|Let the scene|Violence has weight)\b/.test(sentence))
    .join(' ');
  for (const [full, short] of n.fullNames) {
    const at = out.indexOf(full);
    if (at < 0) continue;
    const head = out.slice(0, at + full.length);
    out = head + out.slice(at + full.length).split(full).join(short);
  }
  return out;
}

/** Every full name to its short form (for lines after the directive has introduced everyone). */
function shortNames(text: string, n: Names): string {
  let out = text;
  for (const [full, short] of n.fullNames) out = out.split(full).join(short);
  return out;
}

function cueOf(c: PacketCastMember): string {
  return c.cue.toUpperCase();
}

function heading(pk: ScenePacket): string {
  // The packet says whether the place is outdoors (the Forum is, though its register is the court's).
  const ext = (pk.setting.exterior ?? P.THRILLER_SETTINGS.includes(pk.setting.kind)) ? 'EXT.' : 'INT.';
  const time = P.TIME_WORDS[pk.setting.time_of_day] ?? pk.setting.time_of_day.toUpperCase();
  return `## ${pk.scene_id} — ${ext} ${pk.setting.location_name.toUpperCase()} - ${time}`;
}

/**
 * A phrase from a pool the whole episode walks in one seeded order, indexed by scene number, so
 * scenes written independently (and concurrently) rarely share a stock line. `fits` skips
 * entries that do not suit this scene (the hour, a missing addressee).
 */
function cycled(pool: readonly string[], key: string, seed: string, pk: ScenePacket, offset = 0, fits: (s: string) => boolean = () => true): string {
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

interface SceneState {
  /** A thread question has been quoted in full in this scene. */
  quoted: boolean;
  /** The episode seed, for stock lines cycled across the episode's scenes. */
  seed?: string;
  /** Next variant index per phrase pool used in this scene. */
  used?: Map<readonly string[], number>;
}

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
    if (c.sample_lines.length && rng.next() < 0.3) return rng.pick(c.sample_lines);
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

function eventFor(ins: PacketInstruction, idx: number, deltas: (ResolvedDelta & { application_id: string })[]): SceneEvent {
  const e: SceneEvent = {
    id: `e${idx + 1}`,
    type: 'operator',
    application_id: ins.application_id,
    operator_id: ins.operator_id,
    deltas: deltas.map(({ application_id: _a, ...d }) => d),
    text: ins.narrative_directive,
  };
  if (ins.bindings.actor) e.actor = ins.bindings.actor;
  if (ins.bindings.target) e.target = ins.bindings.target;
  return e;
}

/** Invents 0..allowed.max claims of the allowed canon kinds, and puts them on screen. */
function inventClaims(p: WriterPayload, rng: Rng, lines: string[], seed: string): Claim[] {
  const pk = p.packet;
  const { max, kinds } = pk.constraints.allowed_inventions;
  const usable = kinds.filter((k) => k === 'minor_character' || k === 'object' || k === 'place_detail');
  const n = Math.min(max, usable.length ? rng.int(3) : 0);
  const claims: Claim[] = [];
  const taken = new Set<string>();
  for (const c of pk.cast) for (const part of [c.cue, ...c.name.split(/\s+/)]) taken.add(part.toUpperCase());
  for (const c of [...pk.dead, ...pk.retrieved_subgraph.characters]) for (const part of c.name.split(/\s+/)) taken.add(part.toUpperCase());
  for (let i = 0; i < n; i++) {
    const kind = rng.pick(usable);
    if (claims.some((c) => c.kind === kind)) continue; // at most one invention of each kind
    const id = `c${claims.length + 1}`;
    if (kind === 'minor_character') {
      // The same few regulars at each place, in a seeded order: an extra keeps one name and one trade.
      const pool = (P.EXTRAS[pk.setting.kind] ?? P.EXTRAS.street).filter((x) => !taken.has(x.name.toUpperCase()));
      if (!pool.length) continue;
      const order = new Rng(seed).fork(`extras/${pk.setting.location}`).shuffle(pool);
      const { name, role } = order[rng.int(Math.min(2, order.length))]!;
      claims.push({ id, kind, text: `${name}, a ${role} at ${pk.setting.location_name}` });
      const outdoors = P.THRILLER_SETTINGS.includes(pk.setting.kind);
      const entrance = fill(cycled(outdoors ? P.ENTRANCES_OUTDOORS : P.ENTRANCES, 'entrance', seed, pk), { who: `${name}, the ${role},` });
      lines.splice(lines.length - 1, 0, entrance, `> ${name.toUpperCase()}: ${cycled(P.EXTRA_LINES, 'extra-line', seed, pk)}`, '');
    } else if (kind === 'object') {
      const obj = cycled(P.OBJECTS, 'object', seed, pk);
      claims.push({ id, kind, text: `At ${pk.setting.location_name} there is ${obj}.` });
      lines.splice(lines.length - 1, 0, `${cap(rng.pick(P.OBJECT_LEADS))}${obj}.`, '');
    } else {
      const det = rng.pick(P.PLACE_DETAILS[pk.setting.kind] ?? P.PLACE_DETAILS.street);
      claims.push({ id, kind, text: `${pk.setting.location_name} has ${det}.` });
      lines.splice(lines.length - 1, 0, `${cap(det)}.`, '');
    }
  }
  return claims;
}

/** Shows one required delta on screen, as action. */
export function depict(d: ResolvedDelta, pk: ScenePacket, rng: Rng, state: SceneState = { quoted: false }): string {
  return cap(depictRaw(d, pk, rng, state));
}

function depictRaw(d: ResolvedDelta, pk: ScenePacket, rng: Rng, state: SceneState): string {
  const n = names(pk);
  const { nameOf, secrets, threads, nameWords } = n;
  const seg = d.path.split('.');
  const up = d.op === 'add' || (d.op === 'multiply' && Number(d.value) >= 1) || (d.op === 'set' && Number(d.value) > 0);
  // Variants of one pool rotate within the scene, so two people do not "warm despite everything" in a row.
  const pick2 = (w: [string[], string[]]) => {
    const pool = up ? w[0] : w[1];
    const used = state.used ?? (state.used = new Map<readonly string[], number>());
    const k = used.get(pool) ?? rng.int(pool.length);
    used.set(pool, k + 1);
    return pool[k % pool.length]!;
  };
  // Transfers and the city's mood recur in most scenes: walk their pools across the episode.
  const stock = (pool: readonly string[], key: string) => (state.seed ? cycled(pool, key, state.seed, pk) : rng.pick(pool));
  if (seg[0] === 'assets' && d.op === 'transfer') {
    const from = nameOf(d.from);
    const to = nameOf(d.to);
    const account = !addressable(from) || !addressable(to);
    return cap(fill(stock(account ? P.TRANSFER_LINES_ACCOUNT : P.TRANSFER_LINES, account ? 'transfer-account' : 'transfer'), { from, to, amount: fmt(d.amount) }));
  }
  if (seg[0] === 'assets' && seg[2]) {
    return up ? `${nameOf(seg[2])}'s strongbox grows heavier by ${fmt(d.value)} denarii.` : `${nameOf(seg[2])}'s strongbox lightens by ${fmt(d.value)} denarii.`;
  }
  if (seg[0] === 'characters') {
    const who = nameOf(seg[1]);
    if (seg[2] === 'stats') {
      const w = P.STAT_WORDS[seg[3]];
      return w ? fill(pick2(w), { name: who }) : `${who} is changed by this.`;
    }
    if (seg[2] === 'status') {
      const v = String(d.value);
      if (v === 'dead') return `${who} falls, and does not rise.`;
      if (v === 'exiled') return `${who} is ordered out of the city before dawn.`;
      if (v === 'imprisoned') return `Lictors close around ${who} and lead them away.`;
      return `${who} is free again.`;
    }
    if (seg[2] === 'location') return `${who} sets out for ${placeWords(String(d.value))}.`;
    if (seg[2] === 'bdi') {
      const item = String(d.value);
      const known = item.startsWith('KNOWS:') ? secrets.get(item.slice(6)) : undefined;
      const what = known ? lowerLead(known.text) : item.startsWith('KNOWS:') ? `the truth about ${threadNoun(item.slice(6), '', nameWords).replace(/^the /, 'the ')}` : P.INTENTION_PHRASES[item] ?? inWords(item, nameWords);
      if (seg[3] === 'beliefs') return d.op === 'subtract' ? `${who} no longer believes it: ${trimDot(what)}.` : `${who} understands now: ${trimDot(what)}.`;
      return d.op === 'subtract' ? `${who} abandons the plan to ${trimDot(what)}.` : `${who} resolves to ${trimDot(what)}.`;
    }
  }
  if (seg[0] === 'relationships') {
    const from = nameOf(seg[1]);
    const to = nameOf(seg[2]);
    if (seg[3] === 'flags') return d.op === 'subtract' ? `Between ${from} and ${to}: no longer ${humanize(String(d.value)).toLowerCase()}.` : `Between ${from} and ${to}: ${humanize(String(d.value)).toLowerCase()}, now.`;
    const w = P.WEIGHT_WORDS[seg[3]];
    return w ? fill(pick2(w), { from, to }) : `Something shifts between ${from} and ${to}.`;
  }
  if (seg[0] === 'secrets') {
    const s = secrets.get(seg[1]);
    const matter = threadNoun(seg[1], s?.text ?? '', nameWords);
    const text = trimDot(s?.text ?? `the business of ${matter.replace(/^the /, '')}`);
    if (seg[2] === 'status') {
      if (d.value === 'revealed') return `It is out in the open: ${lowerLead(text)}.`;
      if (d.value === 'rumored') return `A whisper starts to travel: ${lowerLead(text)}.`;
      return `The matter of ${matter.replace(/^the /, '')} goes quiet.`;
    }
    if (seg[2] === 'holders') return d.op === 'subtract' ? `${nameOf(String(d.value))} is cut out of the secret.` : `${nameOf(String(d.value))} learns it: ${lowerLead(text)}.`;
    return up ? `The evidence about ${matter.replace(/^the /, '')} hardens.` : `The evidence about ${matter.replace(/^the /, '')} weakens.`;
  }
  if (seg[0] === 'threads') {
    const t = threads.get(seg[1]);
    const noun = threadNoun(seg[1], t?.question ?? '', nameWords);
    if (!t) {
      // The packet pruned the thread: speak of the matter, not of a question we cannot quote.
      if (seg[2] === 'status') return d.value === 'resolved' ? `${cap(noun)} is settled.` : `${cap(noun)} is set aside.`;
      return fill(rng.pick(P.THREAD_SHORT_LINES), { t: noun, T: cap(noun) });
    }
    const q = trimDot(t.question).replace(/\?$/, '');
    if (seg[2] === 'status') return d.value === 'resolved' ? `The question is settled: ${q}?` : `${cap(noun)} is set aside, for now.`;
    if (state.quoted) return fill(rng.pick(P.THREAD_SHORT_LINES), { t: noun, T: cap(noun) });
    state.quoted = true;
    return fill(rng.pick(P.THREAD_QUESTION_LINES), { q });
  }
  if (seg[0] === 'world') {
    const lines = P.METRIC_LINES[seg[2] ?? ''];
    if (lines) return stock(up ? lines[0] : lines[1], `metric/${seg[2]}/${up ? 'up' : 'down'}`);
    return pick2(P.METRIC_FALLBACK).replace('{m}', humanize(seg[2] ?? 'mood'));
  }
  return `Something changes, and everyone present feels it.`;
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

function safeParse(s: string | undefined): unknown[] {
  try {
    const v = JSON.parse(s ?? '[]');
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

// ---------------------------------------------------------------------------------------------
// Chaos: defects planted the way a model makes them.

function feasible(kind: DefectKind, p: WriterPayload, d: Draft): boolean {
  const pk = p.packet;
  switch (kind) {
    case 'dead_speaks':
      return pk.dead.length > 0;
    case 'anachronism':
      return p.lexicon.length > 0;
    case 'missing_delta':
      return d.events.some((e) => e.deltas.length > 0);
    case 'teleport':
      return teleportCandidates(pk).length > 0;
    case 'overspend':
      return pk.retrieved_subgraph.accounts.some((a) => pk.cast.some((c) => c.id === a.owner || c.id === a.id)) && pk.cast.length > 1;
    default:
      return true;
  }
}

function teleportCandidates(pk: ScenePacket) {
  const cast = new Set(pk.cast.map((c) => c.id));
  const castCues = new Set(pk.cast.flatMap((c) => [c.cue.toUpperCase(), ...c.name.toUpperCase().split(/\s+/)]));
  return pk.retrieved_subgraph.characters.filter(
    (c) => !cast.has(c.id) && c.status === 'alive' && c.location !== pk.setting.location && !castCues.has(c.name.split(/\s+/).pop()!.toUpperCase()),
  );
}

function plantDefect(d: Draft, p: WriterPayload, rng: Rng, forced?: DefectKind): void {
  const prohibited = new Set(p.prohibited_codes);
  const kinds = DEFECT_KINDS.filter((k) => feasible(k, p, d) && !DEFECT_CODES[k].some((c) => prohibited.has(c)));
  if (forced && !feasible(forced, p, d)) return;
  if (!forced && !kinds.length) return;
  const kind = forced ?? rng.pick(kinds);
  const pk = p.packet;
  // Somewhere after the opening paragraph (heading, blank, cast, blank, opening, blank) and before the hook.
  const mid = Math.min(d.hookIndex - 1, 6 + rng.int(Math.max(1, d.hookIndex - 7)));
  switch (kind) {
    case 'dead_speaks': {
      const ghost = rng.pick(pk.dead);
      d.lines.splice(mid, 0, `> ${ghost.cue.toUpperCase()}: You thought you were rid of me?`);
      break;
    }
    case 'anachronism': {
      const e = rng.pick(p.lexicon);
      const who = rng.pick(pk.cast);
      const t = rng.pick([`> ${cueOf(who)}: ${cap(e.forbidden)}. That is all I will say.`, `${who.name} thinks of the ${e.forbidden}, and says nothing.`, `> ${cueOf(who)}: No more talk of ${e.forbidden}, not tonight.`]);
      d.lines.splice(mid, 0, t);
      d.planted = t;
      break;
    }
    case 'missing_delta': {
      const ev = rng.pick(d.events.filter((e) => e.deltas.length > 0));
      ev.deltas.splice(rng.int(ev.deltas.length), 1);
      break;
    }
    case 'teleport': {
      const c = rng.pick(teleportCandidates(pk));
      const cue = c.name.split(/\s+/).pop()!.toUpperCase();
      d.lines.splice(mid, 0, `${c.name} steps out from behind a column.`, `> ${cue}: I came as soon as I heard.`);
      break;
    }
    case 'overspend': {
      const acct = rng.pick(pk.retrieved_subgraph.accounts.filter((a) => pk.cast.some((c) => c.id === a.owner || c.id === a.id)));
      const payer = pk.cast.find((c) => c.id === acct.owner || c.id === acct.id)!;
      const payee = pk.cast.find((c) => c.id !== payer.id)!;
      const amount = acct.denarii + 1000 * (1 + rng.int(5));
      d.lines.splice(mid, 0, `${payer.name} presses a fat purse into ${payee.name}'s hand: ${fmt(amount)} denarii, to keep things quiet.`);
      d.events.push({
        id: `e${d.events.length + 1}`,
        type: 'transfer',
        actor: payer.id,
        target: payee.id,
        deltas: [{ path: 'assets.cash_ledger', op: 'transfer', from: acct.id, to: payee.id, amount }],
        text: `${payer.name} bribes ${payee.name}.`,
      });
      break;
    }
    case 'malformed_claims': {
      const items = d.claims.length ? d.claims : [{ id: 'c1', kind: 'place_detail', text: `${pk.setting.location_name} is busier than usual.` }];
      d.claims = [];
      d.claimsText = items.map((c) => `- ${c.id} (${c.kind}): ${c.text}`).join('\n');
      break;
    }
    case 'missing_section':
      d.dropEvents = true;
      break;
    case 'no_hook': {
      const names = pk.cast.map((c) => c.name).join(' and ');
      d.lines[d.hookIndex] = `In the end ${names} go their separate ways, each of them thinking about what was said and what was not said, and the ${pk.setting.location_name} slowly empties as the day wears on into evening and the lamps are lit one by one by the household slaves`;
      break;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Output

function serialize(d: Draft, lexicon: LexiconEntry[]): string {
  const text = scrub(d.lines.join('\n').replace(/\n{3,}/g, '\n\n').trim(), lexicon, d);
  const claims = d.claimsText ?? jsonArray(d.claims.map((c) => ({ ...c, text: scrubPlain(c.text, lexicon) })));
  let out = `${SECTION.text}\n${text}\n\n${SECTION.claims}\n${claims}\n`;
  if (!d.dropEvents) out += `\n${SECTION.events}\n${jsonArray(d.events)}\n`;
  return out;
}

function jsonArray(items: unknown[]): string {
  if (!items.length) return '[]';
  return `[\n${items.map((i) => `  ${JSON.stringify(i)}`).join(',\n')}\n]`;
}

/** Replaces lexicon words with their Roman replacements, except a planted anachronism. */
function scrub(text: string, lexicon: LexiconEntry[], d: Draft): string {
  const planted = d.planted;
  if (!planted) return scrubPlain(text, lexicon);
  return text
    .split('\n')
    .map((l) => (l === planted ? l : scrubPlain(l, lexicon)))
    .join('\n');
}

/**
 * Replaces every lexicon hit (the verifier's own matcher) with the first Roman alternative,
 * keeping an initial capital. Repeated in case a replacement itself contains a forbidden word.
 */
export function scrubPlain(text: string, lexicon: readonly LexiconEntry[]): string {
  let out = text;
  for (let pass = 0; pass < 3; pass++) {
    const hits = findAnachronisms(out, lexicon);
    if (!hits.length) return out;
    for (const h of [...hits].reverse()) {
      const alt = (h.replacement.split(';')[0] ?? '').trim().replace(/\s*\([^)]*\)/g, '') || 'that';
      const rep = /^\p{Lu}/u.test(h.word) ? cap(alt) : alt;
      out = out.slice(0, h.index) + rep + out.slice(h.index + h.word.length);
    }
  }
  return out;
}

function sentence(s: string): string {
  const t = s.trim();
  if (!t) return '';
  return /[.!?…"”]$/.test(t) ? cap(t) : `${cap(t)}.`;
}
function cap(s: string): string {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}
function trimDot(s: string): string {
  return s.trim().replace(/[.]+$/, '');
}
function fmt(n: unknown): string {
  const v = Number(n);
  return Number.isFinite(v) ? v.toLocaleString('en-US') : String(n);
}

/** Registry entry point (offline/index.ts loads `realize` from ./writer.js). */
// Play mode's Actor shares the writer role (writer-role model); its payload says which task it is.
export const realize: OfflineRealizer = (req, ctx) =>
  playKind(req.payload) === 'play_actor' ? realizeActor(req, ctx) : offlineWrite(req, { seed: ctx.seed, chaos: ctx.chaos });
