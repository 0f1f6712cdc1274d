import type { Normalisation } from '../../domain/scene.js';
import type { ParsedWriterOutput } from '../e-writer/parse.js';
import { textLines, type VerifyContext } from './context.js';

/**
 * Dialogue cues in a scene text. The canonical format (what the offline writer emits, documented
 * in docs/verifier.md) is one speech per line, `> CUE: words` (spec §11.1). Real models drift, so
 * these are recognised too (issue 13), each with or without a parenthetical such as `(rising)` or
 * an extension such as `(O.S.)`:
 *   `**CUE:** words`, `**CUE** (rising): words`, `CUE: words` (cue in capitals at line start), and
 *   the screenplay form of a line holding only a known CUE (indented or centred) followed by the
 *   speech on the lines below it, as Fountain reads dialogue up to a blank line (a speech wrapped
 *   over several lines is one speech: held-out corpus 15, k13; speechUnder says where a speech with
 *   no blank line after it ends), and a stage play's `CUE. words` or `CUE (rising). words` of a known
 *   CUE (held-out corpus 114: "FULVIA. Because I hear things, domina."). Title cards (`SUPER:`,
 *   `TITLE:`, `INSERT:`) are not speakers.
 */
export type CueForm = 'quoted' | 'bold' | 'plain' | 'screenplay' | 'play';

export interface Speech {
  cue: string;
  line: number;
  text: string;
  form: CueForm;
  /** Screenplay form: the lines under the cue that hold the speech. */
  under?: number[];
}

const PAREN = String.raw`(?:\s*\([^)]*\))?`;
/**
 * `> CUE: words`. The `>` marks a speech, so after it a name in any case is a cue (`> cato:`, `> Mark
 * Antony:`), read as its upper case; one not in capitals is held to one or two words with no full
 * stop, so a quoted sentence or document with a colon ("> *M. Licinius Crassus: on the charge…*",
 * held-out corpus 81, cb09) stays prose.
 */
const QUOTED_NAME = String.raw`[A-Z][A-Z'’.\- ]{0,40}?|[A-Za-z][A-Za-z'’\-]{0,30}(?: [A-Za-z][A-Za-z'’\-]{0,30})?`;
const QUOTED = new RegExp(String.raw`^\s*>\s*\**(${QUOTED_NAME})\**${PAREN}\s*:\**\s*(.*)$`);
const BOLD = new RegExp(String.raw`^\s*\*\*([A-Z][A-Za-z'’.\- ]{0,40}?)${PAREN}(?::\*\*|\*\*${PAREN}\s*:)\s*(.*)$`);
/** A screenplay cue's name in capitals, one to three words ("CATO", "MARK ANTONY"). */
const CUE_NAME = String.raw`[A-Z][A-Z'’.\-]{1,30}(?: [A-Z][A-Z'’.\-]{1,30}){0,2}`;
const CAPS = new RegExp(String.raw`^\s*(${CUE_NAME})\s*(?:\([^)]*\))?\s*:\s+(\S.*)$`);
const ALONE = new RegExp(String.raw`^\s*\**(${CUE_NAME})\**\s*(?:\([^)]*\))?\s*$`);
/**
 * A stage play's speech: a cue in capitals, a direction in brackets (italic or not) perhaps, a full stop, the words.
 * Only a known cue's: "THE SUBURA. A lane of tenements" is a heading.
 */
const PLAY = new RegExp(String.raw`^\s*(${CUE_NAME})\s*(?:[*_]?\([^)]*\)[*_]?)?\s*\.\s+(\S.*)$`);

// Capitalised labels that are not speakers: scene furniture and title cards (the Writer's own labels: NOTE_LABEL).
const NOT_CUES = new Set(['INT', 'EXT', 'LATER', 'CUT TO', 'FADE IN', 'FADE OUT', 'CONTINUOUS', 'END', 'THE END']);
const TITLE_CARDS = new Set(['SUPER', 'TITLE', 'TITLE CARD', 'CARD', 'CAPTION', 'INSERT', 'CHYRON', 'SUBTITLE', 'ON SCREEN', 'INTERTITLE']);

/**
 * How many characters of a line its speaker's cue takes (`> CUE:`, `**CUE:**`, `CUE:`, a play's `CUE.`, with a
 * parenthetical), or 0. A play's cue is taken for any name in capitals: only lines read as speeches are asked.
 */
export function cuePrefixLength(text: string): number {
  const m = QUOTED.exec(text) ?? BOLD.exec(text) ?? CAPS.exec(text) ?? PLAY.exec(text);
  return m ? text.length - m[2]!.length : 0;
}

/** A screenplay speech's text opens on its cue line ("CATO (CONT'D) Then give it to me": extractSpeeches joins them). */
const JOINED_CUE = new RegExp(String.raw`^\s*${CUE_NAME}\s*(?:\([^)]*\))?\s+(?=\S)`);

/** How many characters of a speech sentence its cue takes: a cue prefix of any form, or a screenplay cue joined before the words. */
export function spokenCueLength(text: string): number {
  return cuePrefixLength(text) || (JOINED_CUE.exec(text)?.[0].length ?? 0);
}

export function normalizeCue(c: string): string {
  return c.replace(/\*/g, '').replace(/\s*\([^)]*\)\s*$/, '').replace(/[.:]+$/, '').trim().toUpperCase();
}

/**
 * A `> cue: words` line with its cue in upper case, as the script writes it (season/script-model.ts
 * reads the Writer's text with the verifier's cue reading); any other line as it is.
 */
export function upperQuotedCue(line: string): string {
  const m = QUOTED.exec(line);
  if (!m || notSpeaker(normalizeCue(m[1]!))) return line;
  const at = line.indexOf(m[1]!);
  return line.slice(0, at) + m[1]!.toUpperCase() + line.slice(at + m[1]!.length);
}

export function isTitleCard(cue: string): boolean {
  return TITLE_CARDS.has(normalizeCue(cue));
}

/**
 * A camera's direction in capitals, not a person speaking: "VARO'S POV: Murena's broad back" (held-out
 * corpus 66, bm19), "ANGLE ON", "CLOSE ON", "BACK TO", "INTERCUT".
 */
const SHOT = /\b(?:POV|ANGLE|CLOSE ON|CLOSE-UP|CLOSEUP|WIDE|BACK TO|INTERCUT|MONTAGE|SERIES OF SHOTS|FLASHBACK|SMASH CUT|MATCH CUT|DISSOLVE)\b/;

/**
 * A label of the Writer's own notes around the scene, bold or in capitals ("**Beats covered:**" over a
 * list of the beats: held-out corpus 62, bi04), not a speaker.
 */
const NOTE_LABEL = /^(?:BEATS?(?: COVERED| HIT)?|NOTES?|WRITER'S NOTES?|HOOK|BUTTON|SUMMARY|WORD COUNT|SETTING|LOCATION|VISUAL CUES|CUES|CONTINUITY|CHECKLIST|SELF-CHECK|CHECKS?|OUTCOMES?|RISKS?|CLAIMS|SCENE(?: EVENTS| TEXT)?|CAST|TONE|MOOD|PURPOSE|CONSTRAINTS|DELTAS)$/;

function notSpeaker(cue: string): boolean {
  return NOT_CUES.has(cue) || TITLE_CARDS.has(cue) || SHOT.test(cue) || NOTE_LABEL.test(cue);
}

export function extractSpeeches(lines: { line: number; text: string }[], knownCues: { has(cue: string): boolean }): Speech[] {
  const out: Speech[] = [];
  for (let i = 0; i < lines.length; i++) {
    const { line, text } = lines[i];
    if (/^\s*#/.test(text) || /^\s*\*\*Cast:?\*\*/i.test(text)) continue;
    const q = QUOTED.exec(text);
    const b = q ? null : BOLD.exec(text);
    const c = q || b ? null : CAPS.exec(text);
    const m = q ?? b ?? c;
    if (m) {
      const cue = normalizeCue(m[1]);
      if (cue && !notSpeaker(cue)) out.push({ cue, line, text, form: q ? 'quoted' : b ? 'bold' : 'plain' });
      continue;
    }
    const play = PLAY.exec(text);
    if (play && knownCues.has(normalizeCue(play[1]!))) {
      out.push({ cue: normalizeCue(play[1]!), line, text, form: 'play' });
      continue;
    }
    const a = ALONE.exec(text);
    if (a && knownCues.has(normalizeCue(a[1])) && i + 1 < lines.length && lines[i + 1].text.trim()) {
      const under = speechUnder(lines, i, knownCues);
      // A parenthetical line is a direction to the actor, not words said: its line is the speech's, its words are not.
      const said = under.filter((l) => !PAREN_LINE.test(l.text));
      out.push({ cue: normalizeCue(a[1]), line, text: [text, ...said.map((l) => l.text)].map((t) => t.trim()).join(' '), form: 'screenplay', under: under.map((l) => l.line) });
      i += under.length;
    }
  }
  return out;
}

const indent = (t: string) => t.length - t.trimStart().length;
const PAREN_LINE = /^\s*\([^)]*\)\s*$/;

/**
 * The lines of a screenplay speech under the cue at `i`: up to a blank line, a cue of any form or a
 * heading. An indented speech runs on while the lines stay indented as far (action goes back to
 * the margin); a speech at the margin runs on only while its last line breaks off mid-sentence, since
 * a line of action may follow it with no blank line between (the offline writer's scenes do).
 */
function speechUnder(lines: { line: number; text: string }[], i: number, knownCues: { has(cue: string): boolean }): { line: number; text: string }[] {
  const under = [lines[i + 1]!];
  const first = indent(under[0]!.text);
  for (let j = i + 2; j < lines.length; j++) {
    const t = lines[j]!.text;
    const cue = ALONE.exec(t);
    if (!t.trim() || (cue && knownCues.has(normalizeCue(cue[1]!))) || QUOTED.test(t) || BOLD.test(t) || CAPS.test(t) || /^\s*#/.test(t)) break;
    const last = under.at(-1)!.text;
    // A parenthetical line ("(lightly)") is part of the speech, and so is the line after it (held-out corpus 16, j18).
    const runsOn = first > 0 ? indent(t) >= first : !/[.!?…"”')\]]\s*$/.test(last) || PAREN_LINE.test(t) || PAREN_LINE.test(last);
    if (!runsOn) break;
    under.push(lines[j]!);
  }
  return under;
}

const FORM_LABEL: Record<CueForm, string> = { quoted: '> CUE: words', bold: '**CUE:** words', plain: 'CUE: words', screenplay: 'CUE on its own line, the speech below', play: 'CUE. words, as in a stage play' };

/**
 * What the cue reader did with this scene text, as normalisations: the cue forms other than the
 * canonical `> CUE:` it read as speakers, and the title cards it did not. `knownCues` as presence.ts.
 */
export function cueNotes(p: ParsedWriterOutput, ctx: Pick<VerifyContext, 'packet'>, knownCues?: { has(cue: string): boolean }): Normalisation[] {
  const lines = textLines(p);
  const cues = knownCues ?? new Set(ctx.packet.cast.map((c) => normalizeCue(c.cue)));
  const speeches = extractSpeeches(lines, cues);
  const notes: Normalisation[] = [];
  for (const form of ['bold', 'plain', 'screenplay'] as const) {
    const s = speeches.filter((x) => x.form === form);
    if (!s.length) continue;
    notes.push({
      code: 'cue_form',
      what: `read ${s.length} speaker cue(s) written as "${FORM_LABEL[form]}" (first: line ${s[0].line}, ${s[0].cue})`,
      why: 'the canonical cue is "> CUE: words"; this screenplay form names its speaker as plainly',
    });
  }
  const cards = lines.filter((l) => {
    const m = CAPS.exec(l.text);
    return m && isTitleCard(m[1]);
  });
  if (cards.length) {
    notes.push({ code: 'title_card', what: `read ${cards.map((c) => `line ${c.line} "${c.text.trim().slice(0, 50)}"`).join(', ')} as a title card, not a speaker`, why: 'SUPER:, TITLE: and INSERT: lines are on-screen text, spoken by no one' });
  }
  return notes;
}
