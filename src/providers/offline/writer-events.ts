import { Rng } from '../../core/rng.js';
import type { ResolvedDelta } from '../../domain/delta.js';
import type { PacketInstruction, ScenePacket } from '../../domain/packet.js';
import type { Claim, SceneEvent } from '../../domain/scene.js';
import { type WriterPayload } from '../../stages/e-writer/types.js';
import * as P from './writer-phrases.js';
import { lowerLead } from './writer-phrases.js';
import { cycled } from './writer.js';
import { SceneState, cap, fmt, trimDot } from './writer-draft.js';
import { addressable, fill, humanize, inWords, names, placeWords, secretRef, threadNoun, type Names } from './writer-names.js';
import { listSeats, packetSeats, type LineBook } from './writer-lines.js';

/** What the offline writer depicts of each delta, and the EVENTS and CLAIMS it reports. */

export function eventFor(ins: PacketInstruction, idx: number, deltas: (ResolvedDelta & { application_id: string })[]): SceneEvent {
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

/** Every place's regulars, by name: the voices extra lines are shared out among. */
const EXTRA_SEATS = listSeats([...new Set(Object.values(P.EXTRAS).flatMap((xs) => xs.map((x) => x.name)))].sort());

/** Invents 0..allowed.max claims of the allowed canon kinds, and puts them on screen. */
export function inventClaims(p: WriterPayload, rng: Rng, lines: string[], seed: string, book?: LineBook): Claim[] {
  const pk = p.packet;
  const seated = !!packetSeats(pk);
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
      // The scene's own extra line: two extras never say the same thing in one episode.
      // The extra's own line: an extra line has one owner among all the places' regulars, so two
      // extras never say the same thing, in an episode or a season; with none left the extra only enters.
      const said = book ? book.take(P.EXTRA_LINES, 'extra-line', 1, seated ? name : undefined, undefined, seated ? EXTRA_SEATS : undefined) : cycled(P.EXTRA_LINES, 'extra-line', seed, pk);
      lines.splice(lines.length - 1, 0, entrance, ...(said ? [`> ${name.toUpperCase()}: ${said}`] : []), '');
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

export function depictRaw(d: ResolvedDelta, pk: ScenePacket, rng: Rng, state: SceneState): string {
  const n = names(pk);
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
  const t: Telling = { d, pk, rng, state, n, seg, up, pick2, stock };
  switch (seg[0]) {
    case 'assets': return assetLine(t);
    case 'characters': return characterLine(t);
    case 'relationships': return relationshipLine(t);
    case 'secrets': return secretLine(t);
    case 'threads': return threadLine(t);
    case 'world': {
      const lines = P.METRIC_LINES[seg[2] ?? ''];
      if (lines) return stock(up ? lines[0] : lines[1], `metric/${seg[2]}/${up ? 'up' : 'down'}`);
      return pick2(P.METRIC_FALLBACK).replace('{m}', humanize(seg[2] ?? 'mood'));
    }
  }
  return `Something changes, and everyone present feels it.`;
}

/** One delta being told, and the helpers its lines share. */
interface Telling {
  d: ResolvedDelta;
  pk: ScenePacket;
  rng: Rng;
  state: SceneState;
  n: Names;
  seg: string[];
  up: boolean;
  pick2: (w: [string[], string[]]) => string;
  stock: (pool: readonly string[], key: string) => string;
}

function assetLine({ d, n, seg, up, stock }: Telling): string {
  if (d.op === 'transfer') {
    const from = n.nameOf(d.from);
    const to = n.nameOf(d.to);
    const account = !addressable(from) || !addressable(to);
    return cap(fill(stock(account ? P.TRANSFER_LINES_ACCOUNT : P.TRANSFER_LINES, account ? 'transfer-account' : 'transfer'), { from, to, amount: fmt(d.amount) }));
  }
  if (!seg[2]) return `Something changes, and everyone present feels it.`;
  return up ? `${n.nameOf(seg[2])}'s strongbox grows heavier by ${fmt(d.value)} denarii.` : `${n.nameOf(seg[2])}'s strongbox lightens by ${fmt(d.value)} denarii.`;
}

function characterLine({ d, n, seg, pick2, state }: Telling): string {
  const who = n.nameOf(seg[1]);
  if (seg[2] === 'stats') {
    const w = P.STAT_WORDS[seg[3]!];
    return w ? fill(pick2(w), { name: who }) : `${who} is changed by this.`;
  }
  if (seg[2] === 'status') {
    const v = String(d.value);
    if (v === 'dead') return `${who} falls, and does not rise.`;
    if (v === 'exiled') return `${who} is ordered out of the city before dawn.`;
    // The prisoner is one person: "her" or "him" as the world says, never "them".
    if (v === 'imprisoned') return `Lictors close around ${who} and lead ${n.pron(seg[1], 'him')} away.`;
    return `${who} is free again.`;
  }
  if (seg[2] === 'location') return `${who} sets out for ${placeWords(String(d.value))}.`;
  if (seg[2] !== 'bdi') return `${who} is changed by this.`;
  const item = String(d.value);
  const secret = item.startsWith('KNOWS:') ? n.secrets.get(item.slice(6)) : undefined;
  const what = secret ? secretWords(secret, n, state) : item.startsWith('KNOWS:') ? `the truth about ${threadNoun(item.slice(6), '', n.nameWords).replace(/^the /, '')}` : P.INTENTION_PHRASES[item] ?? inWords(item, n.nameWords);
  // A secret already quoted is named, not introduced: "Cato knows the secret about Murena now."
  if (seg[3] === 'beliefs' && d.op !== 'subtract' && what.startsWith('the secret ')) return `${who} knows ${what} now.`;
  if (seg[3] === 'beliefs') return d.op === 'subtract' ? `${who} no longer believes it: ${trimDot(what)}.` : `${who} understands now: ${trimDot(what)}.`;
  return d.op === 'subtract' ? `${who} abandons the plan to ${trimDot(what)}.` : `${who} resolves to ${trimDot(what)}.`;
}

/** A secret's own words the first time they are said in the episode, "the secret about Murena" after. */
function secretWords(s: { id: string; text: string; subject: string; told?: boolean }, n: Names, state: SceneState): string {
  if (s.told || state.secrets?.has(s.id)) return secretRef(s, n);
  state.secrets?.add(s.id);
  return lowerLead(trimDot(s.text));
}

function relationshipLine({ d, n, seg, pick2 }: Telling): string {
  const from = n.nameOf(seg[1]);
  const to = n.nameOf(seg[2]);
  if (seg[3] === 'flags') return d.op === 'subtract' ? `Between ${from} and ${to}: no longer ${humanize(String(d.value)).toLowerCase()}.` : `Between ${from} and ${to}: ${humanize(String(d.value)).toLowerCase()}, now.`;
  const w = P.WEIGHT_WORDS[seg[3]!];
  return w ? fill(pick2(w), { from, to }) : `Something shifts between ${from} and ${to}.`;
}

function secretLine({ d, n, seg, up, state }: Telling): string {
  const s = n.secrets.get(seg[1]!);
  const matter = threadNoun(seg[1]!, s?.text ?? '', n.nameWords).replace(/^the /, '');
  const text = () => (s ? secretWords(s, n, state) : `the business of ${matter}`);
  if (seg[2] === 'status') {
    if (d.value === 'revealed') return `It is out in the open: ${text()}.`;
    if (d.value === 'rumored') return `A whisper starts to travel: ${text()}.`;
    return `The matter of ${matter} goes quiet.`;
  }
  if (seg[2] === 'holders') {
    const who = n.nameOf(String(d.value));
    if (d.op === 'subtract') return `${who} is cut out of the secret.`;
    const t = text();
    return t.startsWith('the secret ') ? `${who} learns ${t}.` : `${who} learns it: ${t}.`;
  }
  return up ? `The evidence about ${matter} hardens.` : `The evidence about ${matter} weakens.`;
}

function threadLine({ d, n, seg, rng, state }: Telling): string {
  const t = n.threads.get(seg[1]!);
  const noun = threadNoun(seg[1]!, t?.question ?? '', n.nameWords);
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
