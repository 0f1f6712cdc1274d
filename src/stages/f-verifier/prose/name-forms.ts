import { BoundedMemo } from '../../../core/bounded-memo.js';
import { escapeRegExp } from '../../../core/regex.js';

/**
 * The forms a person is named by in prose, and finding them in a text. Matching was one regex
 * alternation of every form of every character, longest first, between letter boundaries; V8 tries
 * the alternatives one by one at each position, so a scene's cost grew with the world: at 10,000
 * characters (~60,000 forms) stage F was ~100 s of an offline episode's ~120 s (issue 18,
 * seventeenth pass). The same matches are now found by looking up: a form that starts with a letter
 * can only match where a word of the text starts (nothing alphabetic before it), and its first word
 * is then that whole word of the text (a form's words are separated by non-letters, which match only
 * themselves). So each word of the text looks up the forms whose first word it is, under a key
 * coarser than the regex's case-insensitivity (wordKey), and tries them there longest first, each as
 * the whole regex's alternative would have matched (formAt).
 */

/**
 * Praenomina are shared by half the Senate: never a name on their own; nor their abbreviations of
 * three letters ("Ser." of Ser. Vibius Macer is not the one Servius of the cast; shorter ones are
 * too short to be forms).
 */
const PRAENOMINA = new Set(['marcus', 'gaius', 'lucius', 'publius', 'quintus', 'gnaeus', 'titus', 'decimus', 'servius', 'aulus', 'sextus', 'tiberius', 'appius', 'manius', 'spurius', 'numerius', 'mamercus', 'ser', 'sex', 'app', 'mam', 'num']);

/**
 * English forms of Latin name parts, as English prose names these men: "Tully" is Cicero in English letters from
 * Chaucer to the nineteenth century (session 41's audit: "Tully walks in" was nobody), "Sallust" the historian.
 */
const ENGLISH: Record<string, string[]> = {
  catilina: ['catiline'],
  tullius: ['tully'],
  sallustius: ['sallust'],
  plinius: ['pliny'],
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

/** formsOf's answers by name and cue: every scene's index names the world's people again (issue 18, twelfth pass). Frozen: shared. */
const formMemo = new BoundedMemo<string, readonly string[]>(20000);

/** Every form a person is named by: full name, nomen+cognomen, each non-praenomen part, English forms, the cue. */
export function formsOf(name: string, cue?: string): readonly string[] {
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
    // DPRR spells a consonantal I as I ("C. Iulius Caesar", "Iunius"); English prose writes J ("Julius", "Junius").
    if (/^i[aeiou]/.test(x)) out.add(`j${x.slice(1)}`);
  }
  if (cue) out.add(cue.toLowerCase());
  return [...out].filter((f) => f.length >= 3 && !PRAENOMINA.has(f));
}

const ASCII = /^[\x00-\x7f]*$/;

/**
 * A word's look-up key: lower case, compatibility-decomposed, without marks (so the long s, the Kelvin
 * sign or a dotted capital I still find the forms the case-insensitive regex would match them with);
 * formAt then decides exactly.
 */
export function wordKey(w: string): string {
  if (ASCII.test(w)) return w.toLowerCase();
  return w.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/ς/g, 'σ');
}

/** The key of a form's first word, or null for a form that does not start with a letter. */
export function firstWordKey(form: string): string | null {
  const first = /^\p{L}+/u.exec(form);
  return first ? wordKey(first[0]) : null;
}

/** Forms sharing a first word, longest first (ties in the order given); `ascii[i]`: forms[i] is ASCII. */
export interface FormGroup {
  readonly forms: readonly string[];
  readonly ascii: readonly boolean[];
}

export function formGroup(forms: string[]): FormGroup {
  const sorted = forms.sort((a, b) => b.length - a.length);
  return { forms: sorted, ascii: sorted.map((f) => ASCII.test(f)) };
}

/** Which form (resolved to a person) a text names where. */
export interface FormSource {
  /** The group of forms whose first word has this key (resolved or not). */
  group(key: string): FormGroup | undefined;
  /** Whether the form is read as a name here: it names someone, or it is a shared name (names.ts). */
  resolves(form: string): boolean;
  /** Forms that do not start with a letter (none in a world of Roman names), as one regex, or null. */
  otherRe: RegExp | null;
}

/**
 * Every match of a resolving form in the text, left to right, none overlapping an earlier one (as a
 * global regex of those forms, longest first, gives them): at each word not inside an earlier match,
 * its group's resolving forms, longest first. Forms that do not start with a letter are merged in.
 */
export function nameMatches(text: string, src: FormSource): [number, string][] {
  const found: [number, string][] = [];
  const t = new TextView(text);
  let end = 0;
  for (const w of text.matchAll(/\p{L}+/gu)) {
    const at = w.index!;
    if (at < end) continue;
    const g = src.group(wordKey(w[0]));
    if (!g) continue;
    let len = 0;
    // Matched first, then asked whether it names someone here: most forms of a common first word do not match.
    for (let i = 0; i < g.forms.length && !len; i++) {
      const n = formAt(t, g.forms[i]!, g.ascii[i]!, at);
      if (n && src.resolves(g.forms[i]!)) len = n;
    }
    if (!len) continue;
    found.push([at, text.slice(at, at + len)]);
    end = at + len;
  }
  if (!src.otherRe) return found;
  const all = [...found, ...[...text.matchAll(src.otherRe)].map((m): [number, string] => [m.index!, m[0]])].sort((a, b) => a[0] - b[0]);
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
 * The length of the match of `form` at `at` as its alternative in `(?<![\p{L}])(…|form|…)(?![\p{L}])`
 * under the flags `iu` would match (case-insensitively, no letter after it), or 0. An ASCII form
 * against an ASCII slice is ASCII case (what `iu` does there); anything else asks the regex itself.
 */
function formAt(t: TextView, form: string, ascii: boolean, at: number): number {
  if (ascii && t.asciiSlice(at, at + form.length)) {
    if (!t.lower.startsWith(form, at)) return 0;
    LETTER_AT.lastIndex = at + form.length;
    return LETTER_AT.test(t.text) ? 0 : form.length;
  }
  const re = formRegex.get(form, () => new RegExp(`${escapeRegExp(form)}(?![\\p{L}])`, 'iuy'));
  re.lastIndex = at;
  return re.exec(t.text)?.[0].length ?? 0;
}

/** One sticky regex per non-ASCII form (or form against non-ASCII text): few, and the same all season. */
const formRegex = new BoundedMemo<string, RegExp>(20000);
