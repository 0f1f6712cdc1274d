import type { KnownCharacter, VerifyContext } from '../context.js';
import { titleIndex, titleRegex } from './titles.js';
import { firstWordKey, formGroup, formsOf, nameMatches, type FormGroup, type FormSource } from './name-forms.js';
import { escapeRegExp } from '../../../core/regex.js';

/** One person the prose may name: what the packet and world know about them. */
export interface Person {
  id: string;
  name: string;
  dead: boolean;
  inCast: boolean;
  faction?: string;
  location?: string;
}

/**
 * A name form found in the text, resolved to a person. Read-only: findMentions' answers are memoised
 * and shared by every caller (the arrays are frozen; the fields are typed so).
 */
export interface Mention {
  readonly id: string;
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

export interface PersonIndex {
  byId: { get(id: string): Person | undefined };
  /** Lower-case name form → person id; forms shared by two people who are not resolved by the cast name no one. */
  forms: { get(form: string): string | undefined; has(form: string): boolean; keys(): Iterable<string> };
  /**
   * Forms of two words or more that name several people none of whom the cast singles out ("Sergius
   * Scaurus" when two men bear that name): no mention of anyone, but they are read as names, so the
   * part one of them shares with a cast member ("Sergius" of Sergius Murena) is not read inside them.
   */
  shared: { get(form: string): readonly string[] | undefined; keys(): Iterable<string> };
  /** The factions of the packet's people, in the order the index met them. */
  factions: readonly string[];
  /** The lower-case words of the names of everyone the index knows (split at spaces and dots). */
  nameWords: { has(word: string): boolean };
  source: FormSource;
  /** Titles ("consul") that name exactly one character of the packet (titles.ts), and their regex. */
  titles: Map<string, string>;
  titleRe: RegExp | null;
  /** Each person's relatives by kin word (VerifyContext.relatives): "Cicero's wife" and "the consul's wife" are mentions of her. */
  relatives: ReadonlyMap<string, ReadonlyMap<string, string>>;
}

/**
 * The world's part of every scene's name index, made once per list of the world's characters (the
 * episode's verify context; a worker's too). Why (issue 18, seventeenth pass): each scene's index
 * named every character of the world again (their forms, who owns each, the groups), ~15 ms a
 * scene and most of stage F's garbage at 10,000 characters; a scene now adds only its packet's people.
 */
interface WorldNames {
  persons: Map<string, Person>;
  /** A character's place in the world's list: the order the index meets people in. */
  order: Map<string, number>;
  cues: Map<string, string>;
  /** Each character's forms (by the world's name and cue), and each form's owners. */
  formsOf: Map<string, readonly string[]>;
  owners: Map<string, string[]>;
  /** Forms with one owner: what they name in a scene none of whose people has them; and the shared ones (several, with a space). */
  resolved: Map<string, string>;
  shared: Map<string, readonly string[]>;
  groups: Map<string, FormGroup>;
  other: string[];
  nameWords: Set<string>;
}

const NO_CHARACTERS: KnownCharacter[] = [];
const worlds = new WeakMap<readonly KnownCharacter[], WorldNames>();

function mergeInto(byId: Map<string, Person>, prior: Person | undefined, id: string, name: string, o: Partial<Person>): void {
  byId.set(id, {
    id,
    name,
    dead: (o.dead ?? false) || (prior?.dead ?? false),
    inCast: (o.inCast ?? false) || (prior?.inCast ?? false),
    faction: o.faction ?? prior?.faction,
    location: prior?.location ?? o.location,
  });
}

function worldNames(characters: readonly KnownCharacter[]): WorldNames {
  let w = worlds.get(characters);
  if (w) return w;
  const persons = new Map<string, Person>();
  const cues = new Map<string, string>();
  const order = new Map<string, number>();
  for (const c of characters) {
    mergeInto(persons, persons.get(c.id), c.id, c.name, { dead: c.status === 'dead', location: c.location });
    if (!cues.has(c.id)) cues.set(c.id, c.cue);
    if (!order.has(c.id)) order.set(c.id, order.size);
  }
  const formsOfId = new Map<string, readonly string[]>();
  const owners = new Map<string, string[]>();
  for (const p of persons.values()) {
    const forms = formsOf(p.name, cues.get(p.id));
    formsOfId.set(p.id, forms);
    for (const f of forms) (owners.get(f) ?? owners.set(f, []).get(f)!).push(p.id);
  }
  const resolved = new Map<string, string>();
  const shared = new Map<string, readonly string[]>();
  const byKey = new Map<string, string[]>();
  const other: string[] = [];
  for (const [f, ids] of owners) {
    if (ids.length === 1) resolved.set(f, ids[0]!);
    else if (f.includes(' ')) shared.set(f, Object.freeze([...ids].sort()));
    const k = firstWordKey(f);
    if (k === null) other.push(f);
    else (byKey.get(k) ?? byKey.set(k, []).get(k)!).push(f);
  }
  const groups = new Map<string, FormGroup>();
  for (const [k, forms] of byKey) groups.set(k, formGroup(forms));
  w = { persons, order, cues, formsOf: formsOfId, owners, resolved, shared, groups, other, nameWords: wordsOfNames(persons.values()) };
  worlds.set(characters, w);
  return w;
}

function wordsOfNames(persons: Iterable<Person>): Set<string> {
  const out = new Set<string>();
  for (const p of persons) for (const w of p.name.toLowerCase().split(/[\s.]+/)) out.add(w);
  return out;
}

/** Builds the name index: the world's, with the packet's people over it; the cast wins a form it shares with someone off stage. */
export function personIndex(ctx: VerifyContext): PersonIndex {
  const world = worldNames(ctx.characters ?? NO_CHARACTERS);
  const p = ctx.packet;
  // The packet's people, merged over what the world says of them (subgraph, then dead, then cast).
  const scene = new Map<string, Person>();
  const add = (id: string, name: string, o: Partial<Person>) => mergeInto(scene, scene.get(id) ?? world.persons.get(id), id, name, o);
  for (const c of p.retrieved_subgraph.characters) add(c.id, c.name, { dead: c.status === 'dead', faction: c.faction, location: c.location });
  for (const d of p.dead) add(d.id, d.name, { dead: true });
  for (const c of p.cast) add(c.id, c.name, { inCast: true, dead: c.status === 'dead' });
  const cues = new Map<string, string>();
  for (const c of [...p.cast, ...p.dead]) if (!cues.has(c.id)) cues.set(c.id, c.cue);
  // Who owns the forms the packet's people have or had in the world: resolved again for this scene.
  const sceneForms = new Map<string, readonly string[]>();
  const touched = new Set<string>();
  for (const person of scene.values()) {
    const forms = formsOf(person.name, cues.get(person.id) ?? world.cues.get(person.id));
    sceneForms.set(person.id, forms);
    for (const f of forms) touched.add(f);
    for (const f of world.formsOf.get(person.id) ?? []) touched.add(f);
  }
  const owners = new Map<string, string[]>();
  for (const f of touched) owners.set(f, (world.owners.get(f) ?? []).filter((id) => !scene.has(id)));
  for (const [id, forms] of sceneForms) for (const f of forms) owners.get(f)!.push(id);
  const resolved = new Map<string, string | undefined>();
  const sharedHere = new Map<string, readonly string[] | undefined>();
  for (const [f, ids] of owners) {
    const cast = ids.filter((id) => scene.get(id)?.inCast);
    resolved.set(f, ids.length === 1 ? ids[0] : cast.length === 1 ? cast[0] : undefined);
    sharedHere.set(f, ids.length > 1 && cast.length !== 1 && f.includes(' ') ? Object.freeze([...ids].sort()) : undefined);
  }
  const resolve = (f: string): string | undefined => (resolved.has(f) ? resolved.get(f) : world.resolved.get(f));
  const sharedOf = (f: string): readonly string[] | undefined => (sharedHere.has(f) ? sharedHere.get(f) : world.shared.get(f));
  const read = (f: string) => resolve(f) !== undefined || sharedOf(f) !== undefined;
  const source = sceneSource(world, [...touched].filter((f) => !world.owners.has(f)), read);
  const byId = { get: (id: string) => scene.get(id) ?? world.persons.get(id) };
  const every = function* (keep: (f: string) => boolean) {
    for (const f of world.owners.keys()) if (keep(f)) yield f;
    for (const f of touched) if (!world.owners.has(f) && keep(f)) yield f;
  };
  const forms = { get: resolve, has: (f: string) => resolve(f) !== undefined, keys: () => every((f) => resolve(f) !== undefined) };
  const shared = { get: sharedOf, keys: () => every((f) => sharedOf(f) !== undefined) };
  const sceneWords = wordsOfNames(scene.values());
  const nameWords = { has: (w: string) => sceneWords.has(w) || world.nameWords.has(w) };
  const met = [...scene.keys()].sort((a, b) => (world.order.get(a) ?? Infinity) - (world.order.get(b) ?? Infinity));
  const titles = titleIndex(ctx);
  return { byId, forms, shared, factions: met.map((id) => scene.get(id)!.faction ?? ''), nameWords, source, titles, titleRe: titleRegex(titles), relatives: ctx.relatives ?? NO_RELATIVES };
}

/** The world's groups with the scene's own new forms added to theirs; `read` says which forms are read as names here. */
function sceneSource(world: WorldNames, added: string[], read: (f: string) => boolean): FormSource {
  const byKey = new Map<string, string[]>();
  const other: string[] = [];
  for (const f of added) {
    const k = firstWordKey(f);
    if (k === null) other.push(f);
    else (byKey.get(k) ?? byKey.set(k, []).get(k)!).push(f);
  }
  const groups = new Map<string, FormGroup>();
  for (const [k, forms] of byKey) groups.set(k, formGroup([...(world.groups.get(k)?.forms ?? []), ...forms]));
  const others = [...world.other, ...other].filter(read).sort((a, b) => b.length - a.length).map(escapeRegExp);
  return {
    group: (k) => groups.get(k) ?? world.groups.get(k),
    resolves: read,
    otherRe: others.length ? new RegExp(`(?<![\\p{L}])(${others.join('|')})(?![\\p{L}])`, 'giu') : null,
  };
}

/**
 * findMentions' answers per name index and exact text: a scene's index is made once per
 * verification, and its reader, its forbidden facts' bounds (each sentence again) and their
 * signatures scan the same texts (about half of a starter episode's scans were repeats; issue 18,
 * eleventh pass). Frozen, as every caller shares one answer; kept as long as the index is.
 */
const mentionMemo = new WeakMap<PersonIndex, Map<string, Names>>();

/** A shared form found in the text (PersonIndex.shared): the people it may name. */
export interface SharedName {
  readonly ids: readonly string[];
  readonly start: number;
  readonly end: number;
}

interface Names {
  mentions: readonly Mention[];
  shared: readonly SharedName[];
}

function namesIn(text: string, idx: PersonIndex): Names {
  let memo = mentionMemo.get(idx);
  if (!memo) mentionMemo.set(idx, (memo = new Map()));
  let hit = memo.get(text);
  if (!hit) memo.set(text, (hit = scanMentions(text, idx)));
  return hit;
}

/** Name mentions in a piece of text, in order; a lower-case word is only a name when capitalised in the text. */
export function findMentions(text: string, idx: PersonIndex): readonly Mention[] {
  return namesIn(text, idx).mentions;
}

/** Shared forms in a piece of text, in order: names that may be any of several people (PersonIndex.shared). */
export function findSharedNames(text: string, idx: PersonIndex): readonly SharedName[] {
  return namesIn(text, idx).shared;
}

function scanMentions(text: string, idx: PersonIndex): Names {
  const out: Mention[] = [];
  const shared: SharedName[] = [];
  for (const [start, t] of nameMatches(text, idx.source)) {
    if (!/^\p{Lu}/u.test(t)) continue;
    const id = idx.forms.get(t.toLowerCase());
    if (id) out.push({ id, start, end: start + t.length, text: t });
    const ids = idx.shared.get(t.toLowerCase());
    if (ids) shared.push(Object.freeze({ ids, start, end: start + t.length }));
  }
  // "the consul" when the packet makes the title unambiguous; a name already found there wins.
  for (const m of idx.titleRe ? text.matchAll(idx.titleRe) : []) {
    const id = idx.titles.get(m[1].toLowerCase().replace(/\s+/g, ' '));
    const start = m.index!;
    const end = start + m[0].length;
    if (id && ![...out, ...shared].some((o) => o.start < end && start < o.end)) out.push({ id, start, end, text: m[0] });
  }
  out.push(...kinMentions(text, out, idx));
  return { mentions: Object.freeze(out.sort((a, b) => a.start - b.start)), shared: Object.freeze(shared) };
}

const NO_RELATIVES: ReadonlyMap<string, ReadonlyMap<string, string>> = new Map();
/** A possessive and a kin word after a name or a title ("Cicero's wife", "the consul's husband", "Servilia's half-brother"). */
const KIN = /^['’]s?\s+(wife|husband|brother|sister|half-brother|half-sister)\b/i;

/**
 * "Cicero's wife comes in" names Terentia (held-out corpora 8, t15, and 9, s15): a mention of the
 * relative over the whole phrase, beside the possessive's own (which is no subject). Only for a
 * relative the word names beyond doubt (world-context.ts relativesOf).
 */
function kinMentions(text: string, found: readonly Mention[], idx: PersonIndex): Mention[] {
  const out: Mention[] = [];
  for (const m of found) {
    const words = idx.relatives.get(m.id);
    const w = words ? KIN.exec(text.slice(m.end)) : null;
    const who = w ? words!.get(w[1]!.toLowerCase()) : undefined;
    if (who && w) out.push({ id: who, start: m.start, end: m.end + w[0].length, text: text.slice(m.start, m.end + w[0].length) });
  }
  return out;
}

/**
 * Whether the text right after a name makes it a possessive ("Cicero's wife", "Manlius' camp"): the
 * name is someone else's thing, not a person acting or speaking.
 */
export const possessiveAfter = (after: string): boolean => /^['’](?:s\b|\s)/.test(after);
