import type { ParsedWriterOutput } from '../../e-writer/parse.js';
import { BRACKET_NOTE, BRACKETED, INLINE_DIRECTION, textLines, type VerifyContext } from '../context.js';
import { extractSpeeches, normalizeCue, spokenCueLength } from '../dialogue.js';
import { findMentions, personIndex, possessiveAfter, type Mention, type PersonIndex } from './names.js';
import { placeOf, placedThen, privatePlacesAway } from './places.js';
import { isTransition, sluglinePlace } from './sluglines.js';
import { namesOf } from './arrivals.js';
import { imaginedRun } from './imagined.js';
import { deedsOf, type Deed, type Narration } from './deeds.js';
import { sentencesOf } from './parse.js';
import { narrativeTense } from './tense.js';
import { plainOrder } from './plain-order.js';
import { asideUnasked } from './aside-questions.js';
import { modernForms } from './archaic.js';
import { CALLED_TAG, SAID_VERB, TOLD } from './said.js';
import { strangerSaid } from './strangers.js';
import { likelyGender } from './gender.js';
import { speechMarks, unquotedDialogue, type SpeechMarks } from './unquoted.js';
import { castNarrator, withNarrator } from './narrator.js';

export type { Deed } from './deeds.js';

/** One sentence of the scene text: narration (quotes blanked out) or speech. */
export interface ProseSentence {
  line: number;
  text: string;
  kind: 'narration' | 'speech';
  mentions: readonly Mention[];
  /** Narration only: the sentence with what its quotations say blanked ("…"), as Narration.narr; the words said are speech sentences of their own. */
  narr?: string;
  /** Told as imagined, in a run that "All he has to do is …" opens (imagined.ts): nothing in it is done. */
  imagined?: true;
}

export interface Reading {
  index: PersonIndex;
  sentences: ProseSentence[];
  /** The narration sentences in order (each also in `sentences`), their doers found on demand (deeds.ts). */
  narration: Narration[];
  /** Every deed in order: finds every narration sentence's doer (a full dump; the rules ask per sentence). */
  readonly deeds: Deed[];
  /** The speaker's cue (normalizeCue) of each cue line's speech, by line: who "she" may be after it (receiver.ts). */
  cues: ReadonlyMap<number, string>;
}

const HEADING = /^\s*(#|\*\*cast|cast:|(\*\*)?(int|ext)\.|---|\*\*?scene)/i;
const QUOTE = /["“]([^"”]*)["”]/g;
/**
 * A said-tag right after a name ("Cato says", "Cato quietly murmured", "Varo called from the door", "Curius told
 * Fulvia"), right before it ("says Cato"; not after a subject pronoun: in '"Sit," he asked Cicero' Cicero is asked;
 * never "told Cato", whose Cato hears: said.ts TOLD), or after a pronoun ("he told her").
 */
const SAID_AFTER = new RegExp(`^\\s+(?:\\w+ly\\s+)?(?:${SAID_VERB}|${CALLED_TAG})\\b`, 'i');
// '"…," called Varo': the past "called" before its speaker only right after the quotation ("a freedman called Tiro" names).
const SAID_BEFORE = new RegExp(`(?<!\\b(?:he|she|they|I|we|you)\\s+)\\b${SAID_VERB}\\s+$|"…"[,\\s]*called\\s+$`, 'i');
const SAID_PRONOUN = new RegExp(`\\b(he|she)\\s+(?:\\w+ly\\s+)?(?:${SAID_VERB}|${CALLED_TAG})\\b`, 'i');
/** TOLD's tags, without `i`: its hearer is a pronoun, "the" and a noun, or a name ("Curius told of it" tells nobody). */
const TOLD_AFTER = new RegExp(`^\\s+(?:\\w+ly\\s+)?${TOLD}`, 'u');
const TOLD_PRONOUN = new RegExp(`\\b([Hh]e|[Ss]he)\\s+(?:\\w+ly\\s+)?${TOLD}`, 'u');

/** Three or more words in capitals, outside a quotation. */
const CAPITALS = /(?<!\p{L})\p{Lu}[\p{Lu}'’-]*(?:[ \t]+\p{Lu}[\p{Lu}'’-]*){2,}(?!\p{L})/gu;
/** Words of a run in capitals that say nothing of its being writing: joining words and names. */
const JOINING = /^(?:AND|OF|THE|DE|I)$/;

/**
 * Writing shown in capitals ("CATILINE ASKS FOR YOUR VOTE, says the wall": held-out corpus 47, at08)
 * set in quotation marks, so that it is read as words written, like words said, not as deeds. A run
 * needs two words that are no name: a screenplay's capitals introducing a person ("MARCUS PORCIUS
 * CATO enters") stay names with their deed.
 */
function capitalsQuoted(text: string, isPerson: (w: string) => boolean): string {
  if (!/\p{Lu}{2}/u.test(text)) return text;
  const quote = (part: string) =>
    part.replace(CAPITALS, (run) => (run.split(/\s+/).filter((w) => !JOINING.test(w) && !isPerson(w.replace(/['’]S?$/, ''))).length >= 2 ? `"${run}"` : run));
  let out = '';
  let last = 0;
  for (const m of text.matchAll(QUOTE)) {
    out += quote(text.slice(last, m.index)) + m[0];
    last = m.index! + m[0].length;
  }
  return out + quote(text.slice(last));
}

/**
 * A sentence of a line with the quotation it is in closed on both sides: a quote opened in an earlier
 * sentence ("The rest," says Crassus, "you will pay in a different coin. Cicero speaks…") runs on
 * until its closing mark, so the sentences inside it are speech, not narration. `open`: whether a
 * quotation is open where the sentence starts; a straight quote mark opens or closes one, a curly one
 * says which. The reader splits the text at line ends, and each line is a paragraph, so a quotation
 * still open at a line's end closes there; a quote that runs on into the next paragraph opens it
 * again with its own mark (English typography), which is read as an opening mark: the same reading.
 */
function quotedAlone(s: string, open: boolean): { text: string; open: boolean } {
  let now = open;
  for (const ch of s) now = ch === '"' ? !now : ch === '“' ? true : ch === '”' ? false : now;
  return { text: `${open ? '“' : ''}${s}${now ? '”' : ''}`, open: now };
}

/**
 * A sentence of a scene that quotes its dialogue in single quotes ('…,' she said: held-out corpus 18,
 * g03, g10), its quotation marks made curly double ones so the reading is the same: a mark opens a
 * quotation at a word's start and closes one after a stop or a comma; any other is an apostrophe
 * ("Crassus' money", "don't"). `open`: whether a quotation is open where the sentence starts.
 */
function doubled(s: string, open: boolean): string {
  let now = open;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    const single = ch === "'" || ch === '‘' || ch === '’';
    if (single && !now && /^[\s(—–-]?$/.test(s[i - 1] ?? '') && /[\p{L}\d…]/u.test(s[i + 1] ?? '')) {
      now = true;
      out += '“';
    } else if (single && now && /[,.!?…—–-]/.test(s[i - 1] ?? '') && /^[\s)\]]?$/.test(s[i + 1] ?? '')) {
      now = false;
      out += '”';
    } else out += ch;
  }
  return out;
}

/** An italic span: one asterisk or underscore each side, not bold. */
const ITALIC = /(?<![*_\p{L}\d])([*_])(?![*_\s])((?:(?!\1).)+?)(?<![\s*_])\1(?![*_\p{L}\d])/gu;
const FIRST_PERSON = /\b(?:I|me|my|mine|myself|we|us|our)\b/;
const THOUGHT_AFTER = /^[\s,]*(?:\p{Lu}[\p{L}'’]+|he|she)\s+(?:\p{L}+ly\s+)?(?:thinks|thought|wonders|wondered|tells (?:him|her)self|told (?:him|her)self)\b/iu;
const THOUGHT_BEFORE = /\b(?:thinks|thought|wonders|wondered|tells (?:him|her)self|told (?:him|her)self)\s*[,:]?\s*$/i;

/**
 * A line with its italic inner voice quoted: an italic span in the first person, or beside a
 * thought-tag ("*If I give her this,* Crassus thinks, *she will have Clodius…*": held-out corpus 20,
 * e04), is words thought, read as speech, not the narration's deeds. Other italics are emphasis.
 */
function thoughtsQuoted(text: string): string {
  return text.replace(ITALIC, (all, _mark: string, inner: string, at: number) => {
    const after = text.slice(at + all.length);
    return FIRST_PERSON.test(inner) || THOUGHT_AFTER.test(after) || THOUGHT_BEFORE.test(text.slice(0, at)) ? `“${inner}”` : all;
  });
}

/** Whether a scene quotes its dialogue in single quotes: no double quote in it, and a paragraph opening on a single one. */
function singleQuoted(lines: readonly { text: string }[]): boolean {
  return !lines.some((l) => /["“”]/.test(l.text)) && lines.some((l) => /^\s*['‘][\p{L}…]/u.test(l.text));
}

/** The earlier of two matches, or the one found. */
const firstOf = (a: RegExpExecArray | null, b: RegExpExecArray | null) => (a && b ? (a.index <= b.index ? a : b) : (a ?? b));

/** The named speaker of a said-tag in a sentence with a quote (`ms`: its mentions). */
function saidBy(narr: string, ms: readonly Mention[]): { id: string; sure: boolean } | null {
  for (const m of ms) {
    const after = narr.slice(m.end, m.end + 40);
    // '"Well?" says the consul's wife.': the speaker is his wife (held-out corpus 31, ad20).
    if (possessiveAfter(after)) continue;
    const before = narr.slice(Math.max(0, m.start - 12), m.start);
    if (SAID_AFTER.test(after) || TOLD_AFTER.test(after) || SAID_BEFORE.test(before)) return { id: m.id, sure: true };
  }
  return null;
}

/**
 * Reads one narration line: its sentences, said-tags and placements; each sentence's doer (a named
 * or carried-over speaker, else the subject of a present-tense deed) is found when asked (deeds.ts).
 * `chain` holds the reading order's last narration sentence (a pronoun's speaker is found before it).
 * `cutaway`: the place a slugline moved the scene to (sluglines.ts), where every sentence here is told.
 */
function readNarration(line: number, text: string, ctx: VerifyContext, r: Reading, chain: { last: Narration | null }, singles = false, cutaway: string | null = null, marks: SpeechMarks | null = null): void {
  // A line is a paragraph: it opens outside any quotation (see quotedAlone).
  let open = false;
  const run = imaginedRun();
  const isPerson = (w: string) => r.index.forms.has(w.toLowerCase());
  const sentences = sentencesOf(text);
  // Dialogue with no quotation marks, its speech marked (unquoted.ts); each sentence keeps its own text for spans.
  const marked = marks ? marks.paragraph(sentences) : sentences;
  for (const [i, s] of sentences.entries()) {
    const q = quotedAlone(singles ? doubled(s, open) : marked[i]!, open);
    open = q.open;
    q.text = capitalsQuoted(q.text, isPerson);
    const hasQuote = /["“]/.test(q.text);
    // Clefts and agent passives in plain order for reading ("it was Catiline … who held the door": plain-order.ts).
    // An aside's own question ("Cato — who else? — is on the quay") asks nothing of the sentence (aside-questions.ts).
    const narr = plainOrder(asideUnasked(modernForms(q.text.replace(QUOTE, '"…"'))));
    const mentions = findMentions(narr, r.index);
    const imagined = run.step(narr) ? ({ imagined: true } as const) : {};
    r.sentences.push({ line, text: s, kind: 'narration', mentions, narr, ...imagined });
    // Each sentence of a quotation is a speech sentence of its own, as a cue line's are: '"No. Fulvia sleeps with Curius …
    // He does not need a grain merchant to tell him what is said in Rome."' hedges nothing of its first sentences
    // (held-out corpus 102, cw18).
    for (const m of q.text.matchAll(QUOTE)) for (const t of sentencesOf(m[1])) r.sentences.push({ line, text: t, kind: 'speech', mentions: findMentions(t, r.index), ...imagined });
    const elsewhere = placeOf(narr, ctx, isPerson) ?? cutaway ?? undefined;
    const away = privatePlacesAway(narr, ctx, isPerson);
    const placed = placedThen(narr, mentions, ctx, isPerson);
    const said = hasQuote ? saidBy(narr, mentions) : null;
    // "…," he says, and pushes the bag across to Servilia': a name after the pronoun's tag is no speaker (held-out corpus 12, p19).
    const tag = hasQuote && !said ? firstOf(SAID_PRONOUN.exec(narr), TOLD_PRONOUN.exec(narr)) : null;
    // A tag naming someone nobody here knows ('"…," says Gnaeus Plautius'), unless a pronoun's tag comes first (strangers.ts).
    const unknown = hasQuote && !said ? strangerSaid(narr, r.index, ctx) : null;
    const stranger = unknown && !(tag && tag.index < unknown.start) ? { name: unknown.name, sure: unknown.sure, past: unknown.past } : undefined;
    const pronoun = !stranger && tag !== null && mentions.every((m) => m.start > tag.index) ? (tag[1]!.toLowerCase() as 'he' | 'she') : null;
    const n: Narration = { line, text: s, narr, mentions, elsewhere, said, pronoun, prev: chain.last, ...(stranger ? { stranger } : {}), ...(away.length ? { away } : {}), ...(placed.length ? { placed } : {}), ...imagined };
    // '"…," she said' is not the man who acted last (held-out corpus 29, ab06: Terentia's line was Curius').
    if (pronoun) {
      const want = pronoun === 'he' ? 'male' : 'female';
      n.speakerFits = (id) => (likelyGender(id, r.index, ctx) ?? want) === want;
    }
    r.narration.push(n);
    chain.last = n;
  }
}

/**
 * A stage direction in round brackets inside a speech, italic or not ("CLODIUS. *(Lowering his arm slowly.)* Well.
 * *(He looks for his own men and cannot find a face he knows.)* Six hundred men …": held-out corpus 114): action, read
 * as narration; the words around it are the speech. One that opens the speech right after its cue is the cue's own.
 */
const SPEECH_DIRECTION = /[*_]{0,2}\(([^()]*\p{L}[^()]*)\)[*_]{0,2}/gu;

function splitDirections(said: string): { words: string; directions: string[] } {
  const directions: string[] = [];
  const words = said.replace(SPEECH_DIRECTION, (_m, d: string) => {
    directions.push(d.trim());
    return ' ';
  });
  return { words: directions.length ? words.replace(/\s{2,}/g, ' ').trim() : said, directions };
}

/** Reads the scene text: cue lines are speech (their speakers are judged by the cue rules), the rest narration. */
export function readProse(p: ParsedWriterOutput, ctx: VerifyContext, extraTexts: string[] = []): Reading {
  const index = personIndex(ctx);
  const narration: Narration[] = [];
  const lines = textLines(p);
  const cues = new Set<string>([...ctx.packet.cast, ...ctx.packet.dead, ...(ctx.characters ?? [])].map((c) => normalizeCue(c.cue)));
  const found = extractSpeeches(lines, cues);
  const r: Reading = {
    index,
    sentences: [],
    narration,
    get deeds() {
      return deedsOf(narration);
    },
    cues: new Map(found.map((s) => [s.line, s.cue])),
  };
  const speeches = new Map(found.map((s) => [s.line, s]));
  // A screenplay cue stands alone; its speech is the lines under it, already joined into the Speech.
  const spoken = new Set(found.flatMap((s) => s.under ?? []));
  const chain: { last: Narration | null } = { last: null };
  const singles = singleQuoted(lines);
  const marks = !singles && unquotedDialogue(lines) ? speechMarks((w) => index.forms.has(w.toLowerCase())) : null;
  // The place a screenplay's last slugline moved the scene to, when it is not this one (sluglines.ts).
  let cutaway: string | null = null;
  let names: ReturnType<typeof namesOf> | undefined;
  for (const l of lines) {
    // A slugline, a transition ("CUT TO: …", "BACK TO: …") or a paragraph opening "Back in …" (sluglines.ts).
    const moved = spoken.has(l.line) ? undefined : sluglinePlace(l.text, ctx, () => (names ??= namesOf(ctx, r)));
    if (moved !== undefined) cutaway = moved;
    if (!l.text.trim() || HEADING.test(l.text) || isTransition(l.text) || BRACKET_NOTE.test(l.text) || spoken.has(l.line)) continue;
    const sp = speeches.get(l.line);
    if (sp) {
      // The words said, without the cue that opens them ("CRASSUS (CONT'D) There are men …": the cue's name is no
      // person spoken of; held-out corpus 66, bm09, read Crassus' own cue as the secret's Crassus).
      const { words, directions } = splitDirections(sp.text.slice(spokenCueLength(sp.text)));
      for (const s of sentencesOf(words)) r.sentences.push({ line: l.line, text: s, kind: 'speech', mentions: findMentions(s, index) });
      for (const d of directions) readNarration(l.line, d, ctx, r, chain, singles, cutaway, marks);
      continue;
    }
    readNarration(l.line, thoughtsQuoted(l.text.replace(BRACKETED, '$1').replace(INLINE_DIRECTION, '$1')).replace(/[*_]{1,2}/g, ''), ctx, r, chain, singles, cutaway, marks);
  }
  // Told in the past, the scene's simple past is its now (tense.ts); claims and events stay as written.
  if (narrativeTense(narration) === 'past') for (const n of narration) n.past = true;
  // Told in the first person by one of the cast, "I" is that person; in the second, "you" (narrator.ts).
  const narrator = castNarrator(narration, ctx);
  if (narrator) withNarrator(narration, narrator);
  for (const t of extraTexts) readNarration(0, t, ctx, r, { last: null });
  return r;
}
