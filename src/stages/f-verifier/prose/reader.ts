import type { ParsedWriterOutput } from '../../e-writer/parse.js';
import { textLines, type VerifyContext } from '../context.js';
import { extractSpeeches, normalizeCue } from '../dialogue.js';
import { findMentions, personIndex, type Mention, type PersonIndex } from './names.js';
import { placeOf } from './places.js';
import { subjectVerb } from './subjects.js';
import { sentencesOf } from './parse.js';

/** One sentence of the scene text: narration (quotes blanked out) or speech. */
export interface ProseSentence {
  line: number;
  text: string;
  kind: 'narration' | 'speech';
  mentions: readonly Mention[];
}

/** Someone who does something on stage, by the prose's own account. */
export interface Deed {
  id: string;
  how: 'speaks' | 'acts';
  line: number;
  text: string;
  /** False when the subject was carried over from an earlier sentence or the verb is doubtful. */
  sure: boolean;
  /** A place other than the scene's, when the sentence puts the doer there. */
  elsewhere?: string;
  /** Words that put the doer off this stage without naming a place ("somewhere across the city"). */
  offstage?: string;
}

export interface Reading {
  index: PersonIndex;
  sentences: ProseSentence[];
  deeds: Deed[];
}

const HEADING = /^\s*(#|\*\*cast|cast:|(\*\*)?(int|ext)\.|---|\[|\*\*?scene)/i;
const QUOTE = /["“]([^"”]*)["”]/g;
const SAID = '(?:says|said|asks|replies|answers|mutters|whispers|murmurs|calls|adds|snaps|growls|shouts|cries|laughs)';
/** A said-tag right after a name ("Cato says", "Cato quietly says"), right before it ("says Cato"), or after a pronoun. */
const SAID_AFTER = new RegExp(`^\\s+(?:\\w+ly\\s+)?${SAID}\\b`, 'i');
const SAID_BEFORE = new RegExp(`\\b${SAID}\\s+$`, 'i');
const SAID_PRONOUN = new RegExp(`\\b(?:he|she)\\s+(?:\\w+ly\\s+)?${SAID}\\b`, 'i');

/** The speaker of a said-tag in a sentence with a quote (`ms`: its mentions): a name, or a pronoun carried over from `last`. */
function saidBy(narr: string, ms: readonly Mention[], last: string | undefined): { id: string; sure: boolean } | null {
  for (const m of ms) {
    const after = narr.slice(m.end, m.end + 40);
    const before = narr.slice(Math.max(0, m.start - 12), m.start);
    if (SAID_AFTER.test(after) || SAID_BEFORE.test(before)) return { id: m.id, sure: true };
  }
  if (last && SAID_PRONOUN.test(narr) && ms.length === 0) return { id: last, sure: false };
  return null;
}

/** Reads one narration line: its sentences, said-tags, subjects of present-tense deeds and placements. */
function readNarration(line: number, text: string, ctx: VerifyContext, r: Reading, last: { id?: string }): void {
  for (const s of sentencesOf(text)) {
    const hasQuote = /["“]/.test(s);
    const narr = s.replace(QUOTE, '"…"');
    const mentions = findMentions(narr, r.index);
    r.sentences.push({ line, text: s, kind: 'narration', mentions });
    for (const q of s.matchAll(QUOTE)) r.sentences.push({ line, text: q[1], kind: 'speech', mentions: findMentions(q[1], r.index) });
    const elsewhere = placeOf(narr, ctx, (w) => r.index.forms.has(w.toLowerCase())) ?? undefined;
    if (hasQuote) {
      const sp = saidBy(narr, mentions, last.id);
      if (sp) {
        r.deeds.push({ id: sp.id, how: 'speaks', line, text: s, sure: sp.sure, elsewhere });
        last.id = sp.id;
        continue;
      }
    }
    // A question in narration asks; it does not put anyone on stage.
    const sv = narr.includes('?') ? null : subjectVerb(narr, mentions);
    if (sv) {
      r.deeds.push({ id: sv.id, how: 'acts', line, text: s, sure: sv.sure, elsewhere, offstage: sv.offstage });
      last.id = sv.id;
    } else if (mentions.length) last.id = mentions.length === 1 ? mentions[0].id : undefined;
  }
}

/** Reads the scene text: cue lines are speech (their speakers are judged by the cue rules), the rest narration. */
export function readProse(p: ParsedWriterOutput, ctx: VerifyContext, extraTexts: string[] = []): Reading {
  const index = personIndex(ctx);
  const r: Reading = { index, sentences: [], deeds: [] };
  const lines = textLines(p);
  const cues = new Set<string>([...ctx.packet.cast, ...ctx.packet.dead, ...(ctx.characters ?? [])].map((c) => normalizeCue(c.cue)));
  const found = extractSpeeches(lines, cues);
  const speeches = new Map(found.map((s) => [s.line, s]));
  // A screenplay cue stands alone; its speech is the next line, already joined into the Speech.
  const spoken = new Set(found.filter((s) => s.form === 'screenplay').map((s) => s.line + 1));
  const last: { id?: string } = {};
  for (const l of lines) {
    if (!l.text.trim() || HEADING.test(l.text) || spoken.has(l.line)) continue;
    const sp = speeches.get(l.line);
    if (sp) {
      for (const s of sentencesOf(sp.text)) r.sentences.push({ line: l.line, text: s, kind: 'speech', mentions: findMentions(s, index) });
      continue;
    }
    readNarration(l.line, l.text.replace(/[*_]{1,2}/g, ''), ctx, r, last);
  }
  for (const t of extraTexts) readNarration(0, t, ctx, r, {});
  return r;
}
