import type { Normalisation } from '../../../domain/scene.js';

/**
 * Finding the three sections of a writer answer in the forms real models write them (issue 13):
 * `---SCENE_TEXT---` as asked, but also `**SCENE_TEXT**`, `### SCENE_TEXT`, `## Scene Text`,
 * `--- SCENE TEXT ---`, `**CLAIMS:** None`, lower or mixed case, and the whole answer inside one
 * ```markdown fence. Line numbers are kept: spans quote lines of the raw file.
 */
export type SectionName = 'SCENE_TEXT' | 'CLAIMS' | 'SCENE_EVENTS';

export interface SectionBody {
  /** The section's lines joined (inline content after the marker first, when there is some). */
  text: string;
  /** 1-based raw-file line of the first body line. */
  first: number;
}

export interface Sections {
  lines: string[];
  bodies: Partial<Record<SectionName, SectionBody>>;
  notes: Normalisation[];
}

// Decoration a model puts around a marker: quote, heading hashes, bold/italic/code, a number ("2.",
// "3)", "Part 1 —": held-out corpus 70, bq10), dashes or equals.
const NUMBERED = String.raw`(?:\d{1,2}[.)]|part[ \t]+\d{1,2}[ \t]*(?:[.):]|[—–-]))`;
const LEFT = String.raw`^[ \t]*(?:>[ \t]*)?(?:#{1,6}[ \t]*)?(?:[*_\x60]{1,3}[ \t]*)?(?:${NUMBERED}[ \t]*)?(?:[-=]{2,}[ \t]*|<)?`;
// "Text of Scene", "Events of the scene": the same names in another language's word order (held-out corpus 117,
// dl13); first, or "Events" alone would take the line and leave " of Scene" as its inline content.
const NAME = String.raw`((?:text|claims|events)[ \t]+of[ \t]+(?:the[ \t]+)?scene|scene[ _-]?text|claims|scene[ _-]?events|events)`;
/** A marker line that opens on a decoration or a number (LEFT), as opposed to a bare name. */
const DECORATED = new RegExp(String.raw`^[ \t]*(?:[>#*_\x60<]|[-=]{2}|${NUMBERED})`, 'i');
const RIGHT = String.raw`[ \t]*(?:>[ \t]*)?:?[ \t]*(?:[-=]{2,}[ \t]*)?(?:[*_\x60]{1,3}[ \t]*)?:?[ \t]*(?:[-=]{2,}[ \t]*)?`;
/** The closing tag of a section written as XML (`<scene_text>` … `</scene_text>`): packaging, blanked. */
const CLOSING_TAG = /^[ \t]*<\/(?:scene[ _-]?text|claims|scene[ _-]?events|events)>[ \t]*$/i;
const MARKER = new RegExp(`${LEFT}${NAME}${RIGHT}(.*)$`, 'i');
const CANONICAL = /^---(SCENE_TEXT|CLAIMS|SCENE_EVENTS)---$/;
/**
 * A heading that names two sections at once (`### CLAIMS & SCENE_EVENTS`, `**Claims and events**`):
 * the two written as one object. It cannot be read as either section (the format fix splits it),
 * but it is not prose: the section before it ends there.
 */
const JOINT = new RegExp(`${LEFT}${NAME}${String.raw`[ \t]*(?:&|\+|/|,|and)[ \t]*`}${NAME}${RIGHT}$`, 'i');
/** Inline content a JSON section may start on its marker line: a JSON value or a word for "nothing". */
const INLINE_JSON = /^(?:[[{]|```|none\b|null\b|n\/a\b|nil\b|empty\b|no\b)/i;
/**
 * An undecorated JSON section marker with its value on the same line ("CLAIMS: None", "Claims: []",
 * "SCENE_EVENTS: [{…}]"), as models often write it: the name, a colon, then a JSON value or a word
 * for "nothing" standing alone (end of line, punctuation or a dash after it). Read with the other
 * tests of a marker: the JSON sections only, never "Events" alone, so a speaker cue of a person
 * named like a section is not taken, and "None of this…" stays a line of speech.
 */
const BARE_INLINE = /^[ \t]*(?:claims|scene[ _-]?events)[ \t]*:[ \t]*(?:[[{]|(?:none|null|n\/a|nil|empty)(?=[ \t]*(?:$|[.,;(—–-])))/i;

/**
 * A heading that names the scene without saying "text" (`## Scene`, `### The scene`, `**Scene**`,
 * `## Scene:`): decorated, the word alone (with "the" or "text" at most). It is read as the
 * SCENE_TEXT marker only as the answer's own structure (sceneHeading): where no SCENE_TEXT marker
 * is, before the CLAIMS or SCENE_EVENTS marker. A heading with more in it ("## Scene 12: The Forum",
 * "## Scene One") is a title inside the text, never a marker.
 */
const SCENE_HEADING = /^[ \t]*(?:#{1,6}[ \t]*(?:[*_]{1,3}[ \t]*)?|[*_]{1,3}[ \t]*)(?:the[ \t]+)?scene(?:[ \t]+text)?[ \t]*:?[ \t]*(?:[*_]{1,3})?[ \t]*:?[ \t]*$/i;

/** The first scene heading (SCENE_HEADING) before the other sections' first marker, when no SCENE_TEXT marker was found; else null. */
function sceneHeading(lines: string[], markers: Marker[]): Marker | null {
  if (!markers.length || markers.some((m) => m.name === 'SCENE_TEXT')) return null;
  const before = Math.min(...markers.map((m) => m.line));
  const i = lines.slice(0, before).findIndex((l) => SCENE_HEADING.test(l));
  return i < 0 ? null : { name: 'SCENE_TEXT', line: i, inline: '', canonical: false };
}

/** A SCENE_TEXT marker that may carry a title: a markdown heading or a bold label. */
const TITLED = /^[ \t]*(?:#{1,6}|\*\*|__)/;
/** The title after the name: opened by a dash, a colon or a quotation mark. */
const SCENE_TITLE = /^(?:[—–:-][ \t]*|(?=["“'‘]))(\S.*)$/;
/** A colon right after the name (MARKER's RIGHT takes it, so the inline title starts after it). */
const COLON_AFTER = /text[ \t]*(?:[*_\x60]{1,3}[ \t]*)?:/i;

function sectionOf(name: string): SectionName {
  const n = name.toUpperCase().replace(/[ \t_-]/g, '').replace(/^(TEXT|CLAIMS|EVENTS)OF(?:THE)?SCENE$/, (_m, w: string) => (w === 'TEXT' ? 'SCENETEXT' : w));
  if (n === 'SCENETEXT') return 'SCENE_TEXT';
  if (n === 'CLAIMS') return 'CLAIMS';
  return 'SCENE_EVENTS';
}

interface Marker {
  name: SectionName;
  line: number;
  inline: string;
  canonical: boolean;
}

/** A marker line, or null. Undecorated names count only as a whole line (never a prose sentence) or with a JSON value (BARE_INLINE). */
function readMarker(line: string, i: number): Marker | null {
  const m = MARKER.exec(line);
  if (!m) return null;
  const name = sectionOf(m[1]);
  // A parenthetical after the name says what the section holds ("(JSON)", "(screenplay)"): not content.
  const inline = m[2].trim().replace(/^\([^)]*\)[ \t]*:?[ \t]*(?:\*{1,3})?[ \t]*/, '');
  const decorated = DECORATED.test(line);
  if (!decorated && !/^[ \t]*[a-z _-]+[ \t]*:?[ \t]*$/i.test(line) && !BARE_INLINE.test(line)) return null;
  // "Events" alone is too common a word to be a marker without decoration.
  if (!decorated && /^events$/i.test(m[1])) return null;
  if (inline && name === 'SCENE_TEXT') {
    // A heading's title after the name ("## SCENE TEXT — \"What Caesar Did Not Say\"", held-out corpus 62,
    // bi07): the title is the scene's first line. Undecorated or without a dash, colon or quote, a line
    // that goes on after the words "scene text" is prose or a speaker's line, not a marker.
    const title = TITLED.test(line) ? (SCENE_TITLE.exec(inline)?.[1] ?? (COLON_AFTER.test(line) ? inline : null)) : null;
    return title ? { name, line: i, inline: title.replace(/[ \t]*[*_]{1,3}[ \t]*$/, '').trim(), canonical: false } : null;
  }
  if (inline && !INLINE_JSON.test(inline)) return null;
  return { name, line: i, inline, canonical: CANONICAL.test(line.trim()) };
}

/** Blanks a fence that wraps the whole answer (```markdown … ```), keeping the line count. */
function unwrapOuterFence(lines: string[], notes: Normalisation[]): void {
  const first = lines.findIndex((l) => l.trim());
  let last = lines.length - 1;
  while (last > first && !lines[last].trim()) last--;
  if (first < 0 || last <= first) return;
  const open = /^[ \t]*(`{3,}|~{3,})[ \t]*([\w-]*)[ \t]*$/.exec(lines[first]);
  if (!open || (open[2] && /^json$/i.test(open[2])) || lines[last].trim() !== open[1]) return;
  // Only a fence whose body holds the section markers wraps the answer (not a fenced JSON value).
  if (!lines.slice(first + 1, last).some((l, i) => readMarker(l, i))) return;
  lines[first] = '';
  lines[last] = '';
  notes.push({ code: 'outer_fence', what: `removed the ${open[1]}${open[2]} fence around the whole answer (lines ${first + 1} and ${last + 1})`, why: 'the answer sits inside one code fence; the fence is packaging, not content' });
}

/** A markdown setext underline: a line of three or more "=" or "-" and nothing else. */
const UNDERLINE = /^[ \t]*(?:={3,}|-{3,})[ \t]*$/;

export function findSections(raw: string): Sections {
  const text = raw.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const lines = text.split('\n');
  const notes: Normalisation[] = [];
  unwrapOuterFence(lines, notes);
  const closing = lines.flatMap((l, i) => (CLOSING_TAG.test(l) ? [i] : []));
  for (const i of closing) lines[i] = '';
  if (closing.length) notes.push({ code: 'section_marker', what: `ignored the closing tag(s) on line(s) ${closing.map((i) => i + 1).join(', ')}`, why: 'sections written as XML tags; the closing tag ends its section like the next marker does' });
  const markers: Marker[] = [];
  lines.forEach((l, i) => {
    const m = readMarker(l, i);
    // The first marker of each section counts; a repeated one stays inside the section before it.
    if (m && !markers.some((x) => x.name === m.name)) markers.push(m);
  });
  const scene = sceneHeading(lines, markers);
  if (scene) markers.push(scene);
  const odd = markers.filter((m) => !m.canonical);
  if (odd.length) {
    notes.push({
      code: 'section_marker',
      what: `read ${odd.map((m) => `"${lines[m.line].trim()}" (line ${m.line + 1}) as ---${m.name}---`).join(', ')}`,
      why: 'the section markers were written in another case or decoration; the section names are unambiguous',
    });
  }
  const joint = lines.flatMap((l, i) => (/^[ \t]*(?:[>#*_\x60<]|[-=]{2})/.test(l) && JOINT.test(l) ? [i] : []));
  if (joint.length) {
    notes.push({
      code: 'section_marker',
      what: `read ${joint.map((i) => `"${lines[i].trim()}" (line ${i + 1})`).join(', ')} as the end of the section before it`,
      why: 'a heading naming two sections at once holds them as one object, not prose; it is not read as either section',
    });
  }
  const bodies: Sections['bodies'] = {};
  const sorted = [...markers].sort((a, b) => a.line - b.line);
  sorted.forEach((m, k) => {
    const to = Math.min(k + 1 < sorted.length ? sorted[k + 1].line : lines.length, ...joint.filter((i) => i > m.line));
    // A setext underline right under a marker ("CLAIMS" over "======") is part of the heading, not of its section.
    const under = !m.inline && UNDERLINE.test(lines[m.line + 1] ?? '') ? 1 : 0;
    const body = lines.slice(m.line + 1 + under, to);
    relabelled(body, m, notes);
    bodies[m.name] = m.inline ? { text: [m.inline, ...body].join('\n'), first: m.line + 1 } : { text: body.join('\n'), first: m.line + 2 + under };
  });
  const start = sorted.length ? sorted[0].line : 0;
  const pre = lines.slice(0, start).filter((l) => l.trim());
  if (sorted.length && pre.length) {
    notes.push({ code: 'preamble', what: `ignored ${pre.length} line(s) before the first section ("${clip(pre[0])}")`, why: 'text before the SCENE_TEXT section is a note to the reader, not part of the scene' });
  }
  return { lines, bodies, notes };
}

/**
 * A heading's section whose first line names it again with its value ("# Claims" over "Claims: None",
 * held-out corpus 19, f14): the value is the body, the label a repeat of the heading.
 */
function relabelled(body: string[], m: Marker, notes: Normalisation[]): void {
  const i = body.findIndex((l) => l.trim());
  const again = i >= 0 && !m.inline ? readMarker(body[i]!, m.line) : null;
  if (!again || again.name !== m.name || !again.inline) return;
  notes.push({ code: 'section_marker', what: `read "${clip(body[i]!)}" under the ${m.name} heading as its value "${clip(again.inline)}"`, why: 'the section is named twice, as a heading and as a label with its value; the label is not content' });
  body[i] = again.inline;
}

export function clip(s: string, n = 60): string {
  const t = s.trim().replace(/\s+/g, ' ');
  return t.length > n ? `${t.slice(0, n - 3)}...` : t;
}
