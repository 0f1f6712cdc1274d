import type { PacketCastMember, ScenePacket } from '../../domain/packet.js';
import * as P from './writer-phrases.js';
import { cap, sentence } from './writer-draft.js';
import { formOfAddress, genderOf, pronoun, type PronounForm } from '../../core/forms-of-address.js';
import type { Gender } from '../../domain/world.js';

/** Names, address and the words for ids (places, threads) in the offline writer. */

/** Short names read better on the page: the cue for the cast and the dead, the last name otherwise. */
export function shortName(c: { name: string; cue?: string }): string {
  if (c.cue) return c.cue.toLowerCase().replace(/(^|[\s'-])\p{L}/gu, (m) => m.toUpperCase());
  return c.name.split(/\s+/).pop()!;
}

export interface Names {
  nameOf: (id: string | undefined) => string;
  secrets: Map<string, ScenePacket['retrieved_subgraph']['secrets'][number]>;
  threads: Map<string, ScenePacket['retrieved_subgraph']['threads'][number]>;
  /** Lower-cased words of every name the packet knows, so ids in words keep their capitals ("indict Catiline"). */
  nameWords: Set<string>;
  /** [full name, short name] of every multi-word name, for shortening repeats. */
  fullNames: [string, string][];
  /** A pronoun for the character with this id, or their short name when the world gives no gender. */
  pron: (id: string | undefined, form: PronounForm) => string;
  /** Relationship flags from one character to another, as the packet's edges carry them. */
  flags: (from: string, to: string) => string[];
  /** What `from` calls `to` to their face: a praenomen between intimates, the short name otherwise. */
  addressOf: (from: string, to: PacketCastMember) => string;
}

export function names(pk: ScenePacket): Names {
  const byId = new Map<string, string>();
  const nameWords = new Set<string>();
  const fullNames = new Map<string, string>();
  const note = (c: { id: string; name: string; cue?: string }) => {
    const short = shortName(c);
    byId.set(c.id, short);
    for (const w of [...c.name.split(/\s+/), short]) nameWords.add(w.toLowerCase());
    if (/\s/.test(c.name) && c.name !== short) fullNames.set(c.name, short);
  };
  const genders = new Map<string, Gender | undefined>();
  for (const c of pk.retrieved_subgraph.characters) {
    note(c);
    genders.set(c.id, genderOf(c));
  }
  for (const d of pk.dead) note(d);
  for (const c of pk.cast) {
    note(c);
    genders.set(c.id, genderOf(c));
  }
  const edges = new Map(pk.retrieved_subgraph.edges.map((e) => [`${e.from}>${e.to}`, e.flags]));
  const flags = (from: string, to: string) => edges.get(`${from}>${to}`) ?? [];
  const secrets = new Map(pk.retrieved_subgraph.secrets.map((s) => [s.id, s]));
  const threads = new Map(pk.retrieved_subgraph.threads.map((t) => [t.id, t]));
  // An id the packet does not name (an institution's account, say) reads as "the annona fund".
  const nameOf = (id: string | undefined) => (id ? byId.get(id) ?? `the ${humanize(id)}` : 'someone');
  const pron = (id: string | undefined, form: PronounForm) => pronoun(id ? genders.get(id) : undefined, form) ?? (form === 'his' ? `${nameOf(id)}'s` : nameOf(id));
  const addressOf = (from: string, to: PacketCastMember) => formOfAddress(to, shortName(to), flags(from, to.id));
  return { nameOf, secrets, threads, nameWords, fullNames: [...fullNames.entries()].sort((a, b) => b[0].length - a[0].length), pron, flags, addressOf };
}

export function humanize(id: string): string {
  return id.replace(/^(sec|thr|loc|fac)_/, '').replace(/_/g, ' ');
}

/** An id or intention in words, keeping the capitals of the names in it ("INDICT_CATILINE" → "indict Catiline"). */
export function inWords(id: string, nameWords: Set<string>): string {
  return humanize(id).toLowerCase().split(' ').map((w) => (nameWords.has(w) ? cap(w) : w)).join(' ');
}

/** A place id in words: a proper name, so title-cased ("loc_porta_capena" → "Porta Capena"). */
export function placeWords(id: string): string {
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

export function fill(t: string, v: Record<string, string>): string {
  return t.replace(/\{(\w+)\}/g, (m, k: string) => v[k] ?? m);
}

/** A name fit to address someone by; "someone" or "the annona fund" is not. */
export function addressable(name: string | undefined): name is string {
  return !!name && name !== 'someone' && !/^the\s/.test(name);
}

/** Fills {target}; with nobody to address, the vocative goes ("Say it plainly, {target}." → "Say it plainly."). */
export function address(t: string, target: string | undefined): string {
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
export function prose(text: string, n: Names, quoted?: Set<string>): string {
  let out = quoteSecretsOnce(text, n, quoted);
  out = out
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

/**
 * A secret is quoted once, then referred to: a directive's `the secret ("…")` keeps its quote the
 * first time in the episode (noted in `quoted`) and becomes "the secret about Murena" after that.
 */
function quoteSecretsOnce(text: string, n: Names, quoted?: Set<string>): string {
  let out = text;
  for (const s of n.secrets.values()) {
    const label = `the secret ("${s.text.replace(/\.$/, '')}")`;
    if (!out.includes(label)) continue;
    if (s.told || quoted?.has(s.id)) out = out.split(label).join(secretRef(s, n));
    else quoted?.add(s.id);
  }
  return out;
}

/** A secret by what it is about, once its words have been said: "the secret about Murena". */
export function secretRef(s: { id: string; subject: string }, n: Names): string {
  const about = n.nameOf(s.subject);
  return addressable(about) ? `the secret about ${about}` : `the secret of ${threadNoun(s.id, '', n.nameWords).replace(/^the /, '')}`;
}

/** Every full name to its short form (for lines after the directive has introduced everyone). */
export function shortNames(text: string, n: Names): string {
  let out = text;
  for (const [full, short] of n.fullNames) out = out.split(full).join(short);
  return out;
}

export function cueOf(c: PacketCastMember): string {
  return c.cue.toUpperCase();
}

export function heading(pk: ScenePacket): string {
  // The packet says whether the place is outdoors (the Forum is, though its register is the court's).
  const ext = (pk.setting.exterior ?? P.THRILLER_SETTINGS.includes(pk.setting.kind)) ? 'EXT.' : 'INT.';
  const time = P.TIME_WORDS[pk.setting.time_of_day] ?? pk.setting.time_of_day.toUpperCase();
  return `## ${pk.scene_id} — ${ext} ${pk.setting.location_name.toUpperCase()} - ${time}`;
}
