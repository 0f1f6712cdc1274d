import type { VerifyContext } from '../context.js';
import { titleIndex, titleRegex } from './titles.js';
import { BoundedMemo } from '../../../core/bounded-memo.js';

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

/**
 * Praenomina are shared by half the Senate: never a name on their own; nor their abbreviations of
 * three letters ("Ser." of Ser. Vibius Macer is not the one Servius of the cast; shorter ones are
 * too short to be forms).
 */
const PRAENOMINA = new Set(['marcus', 'gaius', 'lucius', 'publius', 'quintus', 'gnaeus', 'titus', 'decimus', 'servius', 'aulus', 'sextus', 'tiberius', 'appius', 'manius', 'spurius', 'numerius', 'mamercus', 'ser', 'sex', 'app', 'mam', 'num']);

/** English forms of Latin name parts, as English prose names these men. */
const ENGLISH: Record<string, string[]> = {
  catilina: ['catiline'],
  pompeius: ['pompey'],
  antonius: ['antony', 'mark antony', 'marc antony'],
  octavius: ['octavian'],
  octavianus: ['octavian'],
  vergilius: ['virgil'],
  horatius: ['horace'],
  livius: ['livy'],
  ovidius: ['ovid'],
  terentius: ['terence'],
  sulla: ['sylla'],
};

export interface PersonIndex {
  byId: Map<string, Person>;
  /** Lower-case name form → person id; forms shared by two people who are not resolved by the cast are dropped. */
  forms: Map<string, string>;
  /**
   * Forms of two words or more that name several people none of whom the cast singles out ("Sergius
   * Scaurus" when two men bear that name): no mention of anyone, but the regex matches them, so the
   * part one of them shares with a cast member ("Sergius" of Sergius Murena) is not read inside them.
   */
  shared: Map<string, readonly string[]>;
  /** The single regex over every form and shared form, longest first. */
  re: RegExp | null;
  /** Titles ("consul") that name exactly one character of the packet (titles.ts), and their regex. */
  titles: Map<string, string>;
  titleRe: RegExp | null;
}

function collect(ctx: VerifyContext): Map<string, Person> {
  const byId = new Map<string, Person>();
  const p = ctx.packet;
  const add = (id: string, name: string, o: Partial<Person>) => {
    const prior = byId.get(id);
    byId.set(id, {
      id,
      name,
      dead: (o.dead ?? false) || (prior?.dead ?? false),
      inCast: (o.inCast ?? false) || (prior?.inCast ?? false),
      faction: o.faction ?? prior?.faction,
      location: prior?.location ?? o.location,
    });
  };
  for (const c of ctx.characters ?? []) add(c.id, c.name, { dead: c.status === 'dead', location: c.location });
  for (const c of p.retrieved_subgraph.characters) add(c.id, c.name, { dead: c.status === 'dead', faction: c.faction, location: c.location });
  for (const d of p.dead) add(d.id, d.name, { dead: true });
  for (const c of p.cast) add(c.id, c.name, { inCast: true, dead: c.status === 'dead' });
  return byId;
}

/** formsOf's answers by name and cue: every scene's index names the world's people again (issue 18, twelfth pass). Frozen: shared. */
const formMemo = new BoundedMemo<string, readonly string[]>(20000);

/** Every form a person is named by: full name, nomen+cognomen, each non-praenomen part, English forms, the cue. */
function formsOf(name: string, cue?: string): readonly string[] {
  return formMemo.get(JSON.stringify([name, cue ?? '']), () => Object.freeze(formsUncached(name, cue)));
}

function formsUncached(name: string, cue?: string): string[] {
  const parts = name.toLowerCase().replace(/\./g, '').split(/\s+/).filter(Boolean);
  const out = new Set<string>([parts.join(' ')]);
  const named = parts.filter((x) => x.length >= 3 && !PRAENOMINA.has(x) && x.length > 1);
  for (let i = 0; i < parts.length; i++) for (let j = i + 2; j <= parts.length; j++) out.add(parts.slice(i, j).join(' '));
  // Praenomen with the nomen or cognomen, as Romans were addressed ("Lucius Catilina", "Marcus Cato").
  if (PRAENOMINA.has(parts[0])) for (const x of parts.slice(2)) if (x.length >= 3) out.add(`${parts[0]} ${x}`);
  for (const x of named) {
    out.add(x);
    for (const e of ENGLISH[x] ?? []) out.add(e);
  }
  if (cue) out.add(cue.toLowerCase());
  return [...out].filter((f) => f.length >= 3 && !PRAENOMINA.has(f));
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Builds the name index; the cast wins a form it shares with someone off stage. */
export function personIndex(ctx: VerifyContext): PersonIndex {
  const byId = collect(ctx);
  const cues = new Map<string, string>();
  for (const c of [...ctx.packet.cast, ...ctx.packet.dead, ...(ctx.characters ?? [])]) if (!cues.has(c.id)) cues.set(c.id, c.cue);
  const owners = new Map<string, Set<string>>();
  for (const p of byId.values()) for (const f of formsOf(p.name, cues.get(p.id))) (owners.get(f) ?? owners.set(f, new Set()).get(f)!).add(p.id);
  const forms = new Map<string, string>();
  const shared = new Map<string, readonly string[]>();
  for (const [f, ids] of owners) {
    const list = [...ids];
    const cast = list.filter((id) => byId.get(id)!.inCast);
    if (list.length === 1) forms.set(f, list[0]);
    else if (cast.length === 1) forms.set(f, cast[0]);
    else if (f.includes(' ')) shared.set(f, Object.freeze(list.sort()));
  }
  const keys = [...forms.keys(), ...shared.keys()].sort((a, b) => b.length - a.length).map(escape);
  const re = keys.length ? new RegExp(`(?<![\\p{L}])(${keys.join('|')})(?![\\p{L}])`, 'giu') : null;
  const titles = titleIndex(ctx);
  return { byId, forms, shared, re, titles, titleRe: titleRegex(titles) };
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
  for (const m of idx.re ? text.matchAll(idx.re) : []) {
    const t = m[0];
    if (!/^\p{Lu}/u.test(t)) continue;
    const id = idx.forms.get(t.toLowerCase());
    if (id) out.push({ id, start: m.index!, end: m.index! + t.length, text: t });
    const ids = idx.shared.get(t.toLowerCase());
    if (ids) shared.push(Object.freeze({ ids, start: m.index!, end: m.index! + t.length }));
  }
  // "the consul" when the packet makes the title unambiguous; a name already found there wins.
  for (const m of idx.titleRe ? text.matchAll(idx.titleRe) : []) {
    const id = idx.titles.get(m[1].toLowerCase().replace(/\s+/g, ' '));
    const start = m.index!;
    const end = start + m[0].length;
    if (id && ![...out, ...shared].some((o) => o.start < end && start < o.end)) out.push({ id, start, end, text: m[0] });
  }
  return { mentions: Object.freeze(out.sort((a, b) => a.start - b.start)), shared: Object.freeze(shared) };
}
