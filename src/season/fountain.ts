import type { ScriptDoc } from './script-model.js';

/**
 * Fountain (https://fountain.io) writer. It works on a flat element list — the same kinds
 * fountain-js produces — so tests can round-trip the reference fixtures through it.
 *
 * Conventions (each chosen so fountain-js reads back exactly what was written):
 * - scene headings that do not start with INT/EXT/EST/I/E are forced with a leading ".";
 *   the scene id goes in a scene number: `INT. CURIA - DAY #SC04#`;
 * - a character cue is upper case alone on its line; a cue with lower case is forced with "@";
 * - a parenthetical is wrapped in (), on its own line under the cue;
 * - an action paragraph that fountain would read as something else (all capitals, a heading,
 *   a transition, or starting with one of ! @ . > = # ~ [[ /*) is forced with "!";
 * - the script's words (action, speech, parentheticals) are written so fountain shows them as they
 *   are, not as markup (fountainLiteral): `\` before * _ and \ (the spec's escape; it also keeps
 *   `/*` from opening a boneyard), and a word joiner (U+2060, invisible) between `[[`, which the
 *   spec and fountain-js cannot escape, so it never opens a note;
 * - every element is separated by a blank line; a dialogue block is cue, parenthetical, speech
 *   without blank lines.
 */
export type FountainElement =
  | { type: 'title' | 'credit' | 'author' | 'source' | 'draft_date' | 'contact'; text: string }
  | { type: 'scene_heading'; text: string; scene_number?: string }
  | { type: 'action'; text: string }
  | { type: 'character'; text: string }
  | { type: 'parenthetical'; text: string }
  | { type: 'dialogue'; text: string }
  | { type: 'transition'; text: string }
  | { type: 'centered'; text: string }
  | { type: 'page_break' };

/** The element kinds this writer emits (and the round-trip test covers). */
export const FOUNTAIN_KINDS = ['title', 'credit', 'author', 'draft_date', 'scene_heading', 'action', 'character', 'parenthetical', 'dialogue', 'transition', 'centered', 'page_break'] as const;

const TITLE_KEYS: Record<string, string> = { title: 'Title', credit: 'Credit', author: 'Author', source: 'Source', draft_date: 'Draft date', contact: 'Contact' };

const HEADING = /^(INT|EXT|EST|INT\.?\/EXT|I\.?\/E)[. ]/i;

function needsForcedAction(line: string): boolean {
  if (/^[!@.>=#~]/.test(line) || line.startsWith('[[') || line.startsWith('/*')) return true;
  if (HEADING.test(line)) return true;
  if (/^[^a-z]*TO:$/.test(line)) return true;
  // A line with no lower-case letters may be read as a cue or transition.
  if (/[A-Z]/.test(line) && !/[a-z]/.test(line)) return true;
  return false;
}

function actionText(text: string): string {
  return text
    .split('\n')
    .map((l) => (needsForcedAction(l.trim()) ? `!${l}` : l))
    .join('\n');
}

export function renderFountain(elements: FountainElement[]): string {
  const title = elements.filter((e) => e.type in TITLE_KEYS) as { type: string; text: string }[];
  const body = elements.filter((e) => !(e.type in TITLE_KEYS));
  const out: string[] = [];
  if (title.length) {
    for (const t of title) {
      const lines = t.text.split('\n');
      if (lines.length === 1) out.push(`${TITLE_KEYS[t.type]}: ${lines[0]}`);
      else out.push(`${TITLE_KEYS[t.type]}:`, ...lines.map((l) => `    ${l}`));
    }
    out.push('', '');
  }
  let inDialogue = false;
  for (const el of body) {
    switch (el.type) {
      case 'scene_heading': {
        const forced = HEADING.test(el.text) ? el.text : `.${el.text}`;
        out.push('', `${forced}${el.scene_number ? ` #${el.scene_number}#` : ''}`);
        inDialogue = false;
        break;
      }
      case 'action':
        out.push('', actionText(el.text));
        inDialogue = false;
        break;
      case 'character': {
        const forced = /[a-z]/.test(el.text.replace(/\([^)]*\)/g, '')) ? `@${el.text}` : el.text;
        out.push('', forced);
        inDialogue = true;
        break;
      }
      case 'parenthetical': {
        const t = el.text.startsWith('(') ? el.text : `(${el.text})`;
        out.push(t);
        break;
      }
      case 'dialogue':
        // Inside a block, speech lines follow without blank lines; an empty line inside speech
        // would end the block, so it is written as two spaces (fountain's "intentional blank").
        out.push(el.text.split('\n').map((l) => (l.trim() === '' ? '  ' : l)).join('\n'));
        void inDialogue;
        break;
      case 'transition':
        out.push('', /^[^a-z]*TO:$/.test(el.text) ? el.text : `> ${el.text}`);
        inDialogue = false;
        break;
      case 'centered':
        out.push('', `> ${el.text} <`);
        inDialogue = false;
        break;
      case 'page_break':
        out.push('', '===');
        inDialogue = false;
        break;
    }
  }
  return out.join('\n').replace(/^\n+/, '').replace(/\n*$/, '\n');
}

const WORD_JOINER = '\u2060';

/**
 * Script text as Fountain shows it literally: in md and HTML `*nobody*`, `[[twenty]]` and
 * `/* to the tribune *\/` are the author's words, but fountain reads emphasis, a note and a
 * boneyard (hidden from the screenplay). fountain-js escapes only `\` + one of @#!*_$~`+=.><\/.
 */
export function fountainLiteral(text: string): string {
  return text.replace(/[\\*_]/g, '\\$&').replace(/\[(?=\[)/g, `[${WORD_JOINER}`);
}

/** The episode script as Fountain elements. */
export function scriptToFountainElements(doc: ScriptDoc, meta: { credit?: string; author?: string } = {}): FountainElement[] {
  const els: FountainElement[] = [{ type: 'title', text: doc.title }];
  if (meta.credit) els.push({ type: 'credit', text: meta.credit });
  if (meta.author) els.push({ type: 'author', text: meta.author });
  for (const sc of doc.scenes) {
    els.push({ type: 'scene_heading', text: sc.heading, scene_number: sc.id });
    for (const el of sc.elements) {
      if (el.kind === 'action') els.push({ type: 'action', text: fountainLiteral(el.text) });
      else {
        els.push({ type: 'character', text: el.cue });
        if (el.parenthetical) els.push({ type: 'parenthetical', text: `(${fountainLiteral(el.parenthetical)})` });
        els.push({ type: 'dialogue', text: fountainLiteral(el.text) });
      }
    }
  }
  els.push({ type: 'centered', text: 'END OF EPISODE' });
  return els;
}

export function scriptToFountain(doc: ScriptDoc, meta: { credit?: string; author?: string } = {}): string {
  return renderFountain(scriptToFountainElements(doc, meta));
}
