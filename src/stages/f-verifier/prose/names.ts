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

/** Praenomina are shared by half the Senate: never a name on their own. */
const PRAENOMINA = new Set(['marcus', 'gaius', 'lucius', 'publius', 'quintus', 'gnaeus', 'titus', 'decimus', 'servius', 'aulus', 'sextus', 'tiberius', 'appius', 'manius', 'spurius', 'numerius', 'mamercus']);

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
  /** The forms that start with a letter, by the key of their first word (see nameMatcher). */
  groups: Map<string, FormGroup>;
  /** The few forms that do not start with a letter: one regex over the text, as every form once was. */
  otherRe: RegExp | null;
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
  for (const [f, ids] of owners) {
    const list = [...ids];
    const cast = list.filter((id) => byId.get(id)!.inCast);
    if (list.length === 1) forms.set(f, list[0]);
    else if (cast.length === 1) forms.set(f, cast[0]);
  }
  const { groups, otherRe } = nameMatcher(forms.keys());
  const titles = titleIndex(ctx);
  return { byId, forms, groups, otherRe, titles, titleRe: titleRegex(titles) };
}

/** Forms sharing a first word, longest first; `ascii[i]`: forms[i] is ASCII (compared without a regex). */
interface FormGroup {
  forms: string[];
  ascii: boolean[];
}

/**
 * Matching every name form of the world at once. It was one regex alternation of every form, longest
 * first, between letter boundaries; V8 tries the alternatives one by one at each position, so a scene
 * cost grew with the world: at 10,000 characters (~60,000 forms) stage F was ~100 s of an episode's
 * ~120 s (issue 18, seventeenth pass). The same matches, found by looking up: a form that starts with
 * a letter can only match where a word of the text starts (nothing alphabetic before it), and its
 * first word is then that whole word of the text (a form's words are separated by non-letters, which
 * match only themselves). So each word of the text looks up the forms whose first word it is, under
 * a key coarser than the regex's case-insensitivity (wordKey), and its forms are tried there longest
 * first, each as the whole regex's alternative would have matched (formAt).
 */
function nameMatcher(all: Iterable<string>): { groups: Map<string, FormGroup>; otherRe: RegExp | null } {
  const groups = new Map<string, FormGroup>();
  const other: string[] = [];
  for (const f of all) {
    const first = /^\p{L}+/u.exec(f);
    if (!first) {
      other.push(f);
      continue;
    }
    const k = wordKey(first[0]);
    const g = groups.get(k);
    if (g) g.forms.push(f);
    else groups.set(k, { forms: [f], ascii: [] });
  }
  for (const g of groups.values()) {
    g.forms.sort((a, b) => b.length - a.length);
    g.ascii = g.forms.map((f) => ASCII.test(f));
  }
  const keys = other.sort((a, b) => b.length - a.length).map(escape);
  return { groups, otherRe: keys.length ? new RegExp(`(?<![\\p{L}])(${keys.join('|')})(?![\\p{L}])`, 'giu') : null };
}

const ASCII = /^[\x00-\x7f]*$/;

/**
 * A word's look-up key: lower case, compatibility-decomposed, without marks (so the long s, the Kelvin
 * sign or a dotted capital I still find the forms the case-insensitive regex would match them with);
 * the group's regex then decides exactly.
 */
function wordKey(w: string): string {
  if (ASCII.test(w)) return w.toLowerCase();
  return w.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/ς/g, 'σ');
}

/**
 * findMentions' answers per name index and exact text: a scene's index is made once per
 * verification, and its reader, its forbidden facts' bounds (each sentence again) and their
 * signatures scan the same texts (about half of a starter episode's scans were repeats; issue 18,
 * eleventh pass). Frozen, as every caller shares one answer; kept as long as the index is.
 */
const mentionMemo = new WeakMap<PersonIndex, Map<string, readonly Mention[]>>();

/** Name mentions in a piece of text, in order; a lower-case word is only a name when capitalised in the text. */
export function findMentions(text: string, idx: PersonIndex): readonly Mention[] {
  let memo = mentionMemo.get(idx);
  if (!memo) mentionMemo.set(idx, (memo = new Map()));
  let hit = memo.get(text);
  if (!hit) memo.set(text, (hit = Object.freeze(scanMentions(text, idx))));
  return hit;
}

function scanMentions(text: string, idx: PersonIndex): Mention[] {
  const out: Mention[] = [];
  for (const [start, t] of nameMatches(text, idx)) {
    if (!/^\p{Lu}/u.test(t)) continue;
    const id = idx.forms.get(t.toLowerCase());
    if (id) out.push({ id, start, end: start + t.length, text: t });
  }
  // "the consul" when the packet makes the title unambiguous; a name already found there wins.
  for (const m of idx.titleRe ? text.matchAll(idx.titleRe) : []) {
    const id = idx.titles.get(m[1].toLowerCase().replace(/\s+/g, ' '));
    const start = m.index!;
    const end = start + m[0].length;
    if (id && !out.some((o) => o.start < end && start < o.end)) out.push({ id, start, end, text: m[0] });
  }
  return out.sort((a, b) => a.start - b.start);
}

/**
 * Every match of a form in the text, left to right, none overlapping an earlier one (as a global regex
 * gives them): at each word not inside an earlier match, its group's forms, longest first. Forms that
 * do not start with a letter (none in a world of Roman names) are matched apart and merged in.
 */
function nameMatches(text: string, idx: PersonIndex): [number, string][] {
  const found: [number, string][] = [];
  const t = new TextView(text);
  let end = 0;
  for (const w of text.matchAll(/\p{L}+/gu)) {
    const at = w.index!;
    if (at < end) continue;
    const g = idx.groups.get(wordKey(w[0]));
    if (!g) continue;
    const m = g.forms.findIndex((f, i) => formAt(t, f, g.ascii[i]!, at));
    if (m < 0) continue;
    const len = g.ascii[m] ? g.forms[m]!.length : formLength(text, g.forms[m]!, at);
    found.push([at, text.slice(at, at + len)]);
    end = at + len;
  }
  if (!idx.otherRe) return found;
  const all = [...found, ...[...text.matchAll(idx.otherRe)].map((m): [number, string] => [m.index!, m[0]])].sort((a, b) => a[0] - b[0]);
  const kept: [number, string][] = [];
  for (const m of all) if (!kept.length || m[0] >= kept.at(-1)![0] + kept.at(-1)![1].length) kept.push(m);
  return kept;
}

/** A text, with its ASCII letters in lower case (same length) and where its non-ASCII characters are. */
class TextView {
  readonly lower: string;
  private readonly nonAscii: Int32Array | null;
  constructor(readonly text: string) {
    this.lower = text.replace(/[A-Z]+/g, (x) => x.toLowerCase());
    // Prefix counts of non-ASCII code units: a slice is ASCII when the count does not change across it.
    let n = 0;
    let counts: Int32Array | null = null;
    for (let i = 0; i < text.length; i++) {
      if (text.charCodeAt(i) > 0x7f) {
        counts ??= new Int32Array(text.length + 1);
        n++;
      }
      if (counts) counts[i + 1] = n;
    }
    this.nonAscii = counts;
  }
  asciiSlice(from: number, to: number): boolean {
    return !this.nonAscii || this.nonAscii[Math.min(to, this.text.length)] === this.nonAscii[from];
  }
}

const LETTER_AT = /\p{L}/uy;

/**
 * Whether `form` matches at `at` as its alternative in `(?<![\p{L}])(…|form|…)(?![\p{L}])` under the
 * flags `iu` would: case-insensitively, with no letter after it. An ASCII form against an ASCII slice
 * is ASCII case (what `iu` does there); anything else asks the regex itself.
 */
function formAt(t: TextView, form: string, ascii: boolean, at: number): boolean {
  if (ascii && t.asciiSlice(at, at + form.length)) {
    if (!t.lower.startsWith(form, at)) return false;
    LETTER_AT.lastIndex = at + form.length;
    return !LETTER_AT.test(t.text);
  }
  return formLength(t.text, form, at) > 0;
}

/** formAt by the regex: the length of the match of `form` at `at` (case folding may change it), or 0. */
function formLength(text: string, form: string, at: number): number {
  const re = formRegex.get(form, () => new RegExp(`${escape(form)}(?![\\p{L}])`, 'iuy'));
  re.lastIndex = at;
  return re.exec(text)?.[0].length ?? 0;
}

/** One sticky regex per non-ASCII form (or form against non-ASCII text): few, and the same all season. */
const formRegex = new BoundedMemo<string, RegExp>(20000);
