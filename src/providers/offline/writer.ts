import { Rng } from '../../core/rng.js';
import type { ResolvedDelta } from '../../domain/delta.js';
import type { PacketCastMember, PacketInstruction, ScenePacket } from '../../domain/packet.js';
import type { Claim, SceneEvent } from '../../domain/scene.js';
import type { LlmRequest } from '../../ports/llm.js';
import { SECTION, type LexiconEntry, type WriterPayload } from '../../stages/e-writer/types.js';
import { findAnachronisms } from '../../style/lexicon.js';
import * as P from './writer-phrases.js';
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
  if (p.mode === 'punch_up' && p.keep_text !== undefined) draft = punchUp(p, rng);
  else draft = compose(p, rng);
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

function names(pk: ScenePacket) {
  const byId = new Map<string, string>();
  for (const c of pk.retrieved_subgraph.characters) byId.set(c.id, shortName(c));
  for (const d of pk.dead) byId.set(d.id, shortName(d));
  for (const c of pk.cast) byId.set(c.id, shortName(c));
  const secrets = new Map(pk.retrieved_subgraph.secrets.map((s) => [s.id, s]));
  const threads = new Map(pk.retrieved_subgraph.threads.map((t) => [t.id, t]));
  // An id the packet does not name (an institution's account, say) reads as "the annona fund".
  const nameOf = (id: string | undefined) => (id ? byId.get(id) ?? `the ${humanize(id)}` : 'someone');
  return { nameOf, secrets, threads };
}

function humanize(id: string): string {
  return id.replace(/^(sec|thr|loc|fac)_/, '').replace(/_/g, ' ');
}

function fill(t: string, v: Record<string, string>): string {
  return t.replace(/\{(\w+)\}/g, (m, k: string) => v[k] ?? m);
}

function cueOf(c: PacketCastMember): string {
  return c.cue.toUpperCase();
}

function heading(pk: ScenePacket): string {
  const ext = P.THRILLER_SETTINGS.includes(pk.setting.kind) ? 'EXT.' : 'INT.';
  const time = P.TIME_WORDS[pk.setting.time_of_day] ?? pk.setting.time_of_day.toUpperCase();
  return `## ${pk.scene_id} — ${ext} ${pk.setting.location_name.toUpperCase()} - ${time}`;
}

function compose(p: WriterPayload, rng: Rng): Draft {
  const pk = p.packet;
  const formal = P.FORMAL_SETTINGS.includes(pk.setting.kind);
  const { nameOf } = names(pk);
  const castById = new Map(pk.cast.map((c) => [c.id, c]));
  const simplified = p.mode === 'simplified';
  const sequence = pk.director_instructions.sequence;
  const lines: string[] = [];
  lines.push(heading(pk), '', `**Cast:** ${pk.cast.map((c) => c.name).join(', ')}`, '');
  lines.push(fill(pickOpening(pk, rng), { atmo: sentence(pk.setting.atmosphere) }).trim(), '');

  const speaker = (preferred: string | undefined, avoid?: string): PacketCastMember | undefined => {
    const c = preferred ? castById.get(preferred) : undefined;
    if (c) return c;
    const others = pk.cast.filter((x) => x.id !== avoid);
    return others.length ? rng.pick(others) : pk.cast[0];
  };
  const say = (c: PacketCastMember, text: string) => lines.push(`> ${cueOf(c)}: ${text}`);
  const registerLine = (c: PacketCastMember, target: string) => {
    // Now and then a character borrows their own sample line, for voice.
    if (c.sample_lines.length && rng.next() < 0.3) return rng.pick(c.sample_lines);
    return fill(rng.pick(P.REGISTER_LINES[c.register] ?? P.REGISTER_LINES.patrician), { target });
  };

  let rhetoricUsed = false;
  const shown = new Set<string>();
  const events: SceneEvent[] = [];
  let lastMover: PacketCastMember | undefined;
  let lastTarget = '';
  const steps = simplified ? sequence.filter((s) => pk.constraints.required_deltas.some((d) => d.application_id === s.application_id)) : sequence;

  steps.forEach((ins, idx) => {
    const actor = speaker(ins.bindings.actor);
    const targetId = ins.bindings.target;
    const targetName = nameOf(targetId);
    const other = targetId && castById.has(targetId) ? castById.get(targetId)! : speaker(undefined, actor?.id);
    lines.push(sentence(ins.narrative_directive));
    if (!simplified && ins.visual_cues.length) lines.push(sentence(rng.pick(ins.visual_cues)));
    if (actor) {
      say(actor, registerLine(actor, other && other.id !== actor.id ? shortName(other) : targetName));
      if (formal && !rhetoricUsed && !simplified) {
        const device = rng.pick(['anaphora', 'tricolon', 'sententia'] as const);
        say(actor, rng.pick(P.RHETORIC[device]));
        rhetoricUsed = true;
      }
    }
    if (!simplified) lines.push(rng.pick(formal ? P.FORMAL_BEATS : P.THRILLER_BEATS));
    const deltas = pk.constraints.required_deltas.filter((d) => d.application_id === ins.application_id);
    for (const d of deltas) {
      // One line per thread and no line twice: bookkeeping deltas ride along with their thread.
      const isThread = d.path.startsWith('threads.');
      if (isThread && shown.has(d.path.split('.').slice(0, 2).join('.'))) continue;
      const line = depict(d, pk, rng);
      const key = isThread ? d.path.split('.').slice(0, 2).join('.') : line;
      if (shown.has(key)) continue;
      shown.add(key);
      lines.push(line);
    }
    if (other && actor && other.id !== actor.id) say(other, rng.pick(P.REACTIONS[ins.outcome]));
    if (!simplified && ins.triggered_risks.length) lines.push(sentence(`And then the risk comes due: ${lowerFirst(ins.triggered_risks[0])}`));
    lines.push('');
    events.push(eventFor(ins, idx, deltas));
    lastMover = actor;
    lastTarget = targetName;
  });

  if (!steps.length) {
    // A connective scene: the cast talk; nothing changes.
    const [a, b] = pk.cast;
    if (a) say(a, registerLine(a, b ? shortName(b) : 'friend'));
    if (b) say(b, registerLine(b, shortName(a)));
    if (a && formal && !simplified) say(a, rng.pick(P.RHETORIC[rng.pick(['anaphora', 'tricolon', 'sententia'] as const)]));
    lines.push('');
    lastMover = a;
    lastTarget = b ? shortName(b) : 'the room';
  }

  const claims: Claim[] = simplified ? [] : inventClaims(p, rng, lines);
  if (lines[lines.length - 1] !== '') lines.push('');
  const mover = lastMover ?? pk.cast[0];
  const isCliff = sequence.some((s) => s.tag === 'cliffhanger');
  const hookPool = isCliff ? P.CLIFFHANGER_HOOKS : P.HOOKS;
  const hook = fill(pickTimed(hookPool, pk, rng), { name: mover ? shortName(mover) : 'Someone', CUE: mover ? cueOf(mover) : 'CROWD', target: lastTarget || 'the room' });
  lines.push(hook);
  return { lines, claims, events, hookIndex: lines.length - 1 };
}

/** A phrase that fits the hour: `N|` lines only at dusk or night, `D|` lines only by daylight. */
function pickTimed(pool: readonly string[], pk: ScenePacket, rng: Rng): string {
  const night = pk.setting.time_of_day === 'dusk' || pk.setting.time_of_day === 'night';
  return rng.pick(pool.filter((o) => !(night ? o.startsWith('D|') : o.startsWith('N|')))).replace(/^[ND]\|/, '');
}

function pickOpening(pk: ScenePacket, rng: Rng): string {
  return pickTimed(P.OPENINGS[pk.setting.kind] ?? P.OPENINGS.street, pk, rng);
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
function inventClaims(p: WriterPayload, rng: Rng, lines: string[]): Claim[] {
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
      const name = rng.shuffle(P.EXTRA_NAMES).find((x) => !taken.has(x.toUpperCase()));
      if (!name) continue;
      const role = rng.pick(P.EXTRA_ROLES[pk.setting.kind] ?? P.EXTRA_ROLES.street);
      claims.push({ id, kind, text: `${name}, a ${role} at ${pk.setting.location_name}` });
      lines.splice(lines.length - 1, 0, `${name}, the ${role}, slips in.`, `> ${name.toUpperCase()}: ${rng.pick(P.EXTRA_LINES)}`, '');
    } else if (kind === 'object') {
      const obj = rng.pick(P.OBJECTS);
      claims.push({ id, kind, text: `At ${pk.setting.location_name} there is ${obj}.` });
      lines.splice(lines.length - 1, 0, `On the table: ${obj}.`, '');
    } else {
      const det = rng.pick(P.PLACE_DETAILS[pk.setting.kind] ?? P.PLACE_DETAILS.street);
      claims.push({ id, kind, text: `${pk.setting.location_name} has ${det}.` });
      lines.splice(lines.length - 1, 0, `${cap(det)}.`, '');
    }
  }
  return claims;
}

/** Shows one required delta on screen, as action. */
export function depict(d: ResolvedDelta, pk: ScenePacket, rng: Rng): string {
  const { nameOf, secrets, threads } = names(pk);
  const seg = d.path.split('.');
  const up = d.op === 'add' || (d.op === 'multiply' && Number(d.value) >= 1) || (d.op === 'set' && Number(d.value) > 0);
  if (seg[0] === 'assets' && d.op === 'transfer') {
    return `${nameOf(d.from)} pays ${nameOf(d.to)} ${fmt(d.amount)} denarii. The coins are counted twice.`;
  }
  if (seg[0] === 'assets' && seg[2]) {
    return up ? `${nameOf(seg[2])}'s strongbox grows heavier by ${fmt(d.value)} denarii.` : `${nameOf(seg[2])}'s strongbox lightens by ${fmt(d.value)} denarii.`;
  }
  if (seg[0] === 'characters') {
    const who = nameOf(seg[1]);
    if (seg[2] === 'stats') {
      const w = P.STAT_WORDS[seg[3]];
      return w ? fill(up ? w[0] : w[1], { name: who }) : `${who} is changed by this.`;
    }
    if (seg[2] === 'status') {
      const v = String(d.value);
      if (v === 'dead') return `${who} falls, and does not rise.`;
      if (v === 'exiled') return `${who} is ordered out of the city before dawn.`;
      if (v === 'imprisoned') return `Lictors close around ${who} and lead them away.`;
      return `${who} is free again.`;
    }
    if (seg[2] === 'location') return `${who} sets out for ${humanize(String(d.value))}.`;
    if (seg[2] === 'bdi') {
      const item = String(d.value);
      const known = item.startsWith('KNOWS:') ? secrets.get(item.slice(6)) : undefined;
      const what = known ? known.text : item.startsWith('KNOWS:') ? `the truth about the ${humanize(item.slice(6))}` : humanize(item).toLowerCase();
      if (seg[3] === 'beliefs') return d.op === 'subtract' ? `${who} no longer believes it: ${trimDot(what)}.` : `${who} understands now: ${trimDot(what)}.`;
      return d.op === 'subtract' ? `${who} abandons the plan to ${what}.` : `${who} resolves to ${what}.`;
    }
  }
  if (seg[0] === 'relationships') {
    const from = nameOf(seg[1]);
    const to = nameOf(seg[2]);
    if (seg[3] === 'flags') return d.op === 'subtract' ? `Between ${from} and ${to}: no longer ${humanize(String(d.value))}.` : `Between ${from} and ${to}: ${humanize(String(d.value))}, now.`;
    const w = P.WEIGHT_WORDS[seg[3]];
    return w ? fill(up ? w[0] : w[1], { from, to }) : `Something shifts between ${from} and ${to}.`;
  }
  if (seg[0] === 'secrets') {
    const s = secrets.get(seg[1]);
    const text = trimDot(s?.text ?? `the business of the ${humanize(seg[1])}`);
    if (seg[2] === 'status') {
      if (d.value === 'revealed') return `It is out in the open: ${lowerFirst(text)}.`;
      if (d.value === 'rumored') return `A whisper starts to travel: ${lowerFirst(text)}.`;
      return `The matter of ${humanize(seg[1])} goes quiet.`;
    }
    if (seg[2] === 'holders') return d.op === 'subtract' ? `${nameOf(String(d.value))} is cut out of the secret.` : `${nameOf(String(d.value))} learns it: ${lowerFirst(text)}.`;
    return up ? `The evidence about ${humanize(seg[1])} hardens.` : `The evidence about ${humanize(seg[1])} weakens.`;
  }
  if (seg[0] === 'threads') {
    const t = threads.get(seg[1]);
    if (!t) {
      // The packet pruned the thread: speak of the matter, not of a question we cannot quote.
      const m = humanize(seg[1]);
      if (seg[2] === 'status') return d.value === 'resolved' ? `The matter of the ${m} is settled.` : `The matter of the ${m} is set aside.`;
      return rng.pick([`The matter of the ${m} moves a step.`, `Everyone here feels the ${m} shift.`, `One more turn of the screw in the ${m}.`]);
    }
    const q = trimDot(t.question).replace(/\?$/, '');
    if (seg[2] === 'status') return d.value === 'resolved' ? `The question is settled: ${lowerFirst(q)}.` : `The question of ${lowerFirst(q)} is set aside.`;
    return rng.next() < 0.5 ? `One step nearer to an answer: ${lowerFirst(q)}?` : `Everyone feels it: ${lowerFirst(q)}? Closer now.`;
  }
  if (seg[0] === 'world') {
    const metric = P.METRIC_WORDS[seg[2] ?? ''] ?? humanize(seg[2] ?? 'mood');
    const t = up
      ? rng.pick(['Beyond the walls, the {m} rises.', 'Across the city, the {m} climbs.', 'You can feel it from here: the {m} grows.', 'By nightfall the {m} will be worse.'])
      : rng.pick(['Beyond the walls, the {m} eases.', 'Across the city, the {m} falls back.', 'For a moment, the {m} slackens.']);
    return t.replace('{m}', metric);
  }
  return `Something changes, and everyone present feels it.`;
}

function punchUp(p: WriterPayload, rng: Rng): Draft {
  const pk = p.packet;
  const lines = (p.keep_text ?? '').split('\n');
  while (lines.length && !lines[lines.length - 1].trim()) lines.pop();
  const actor = pk.cast.find((c) => c.id === pk.director_instructions.sequence.at(-1)?.bindings.actor) ?? pk.cast[0];
  const lastTarget = pk.director_instructions.sequence.at(-1)?.bindings.target;
  const targetName = names(pk).nameOf(lastTarget);
  const formal = P.FORMAL_SETTINGS.includes(pk.setting.kind);
  lines.push('', rng.pick(formal ? P.FORMAL_BEATS : P.THRILLER_BEATS));
  if (actor) lines.push(`> ${cueOf(actor)}: ${rng.pick(P.REACTIONS.success)}`);
  lines.push('');
  const pool = pk.director_instructions.sequence.some((s) => s.tag === 'cliffhanger') ? P.CLIFFHANGER_HOOKS : P.HOOKS;
  lines.push(fill(pickTimed(pool, pk, rng), { name: actor ? shortName(actor) : 'Someone', CUE: actor ? cueOf(actor) : 'CROWD', target: targetName }));
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
/** Secret and thread texts often start with a name, so their case is kept as authored. */
function lowerFirst(s: string): string {
  return s;
}
function trimDot(s: string): string {
  return s.trim().replace(/[.]+$/, '');
}
function fmt(n: unknown): string {
  const v = Number(n);
  return Number.isFinite(v) ? v.toLocaleString('en-US') : String(n);
}

/** Registry entry point (offline/index.ts loads `realize` from ./writer.js). */
export const realize: OfflineRealizer = (req, ctx) => offlineWrite(req, { seed: ctx.seed, chaos: ctx.chaos });
