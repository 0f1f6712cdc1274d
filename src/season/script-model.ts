import { upperQuotedCue } from '../stages/f-verifier/dialogue.js';

/**
 * The episode script as data: scenes of action paragraphs and dialogue. episode_script.md is
 * rendered from it (spec §11.1) and parsed back into it, and the exporters (Fountain, md, html)
 * render it, so every format shows the same scenes, cues and lines.
 */
export type ScriptElement =
  | { kind: 'action'; text: string }
  | { kind: 'dialogue'; cue: string; parenthetical?: string; text: string };

export interface ScriptScene {
  id: string; // "SC04"
  heading: string; // "INT. VARO'S VILLA - NIGHT"
  cast: string[]; // display names
  elements: ScriptElement[];
}

export interface ScriptDoc {
  /** "S01E03: The Grain Ships" */
  title: string;
  subtitle?: string;
  scenes: ScriptScene[];
}

const CUE = /^[A-Z][A-Z0-9 .'’-]{0,40}[A-Z0-9.)]$|^[A-Z]$/;

/** Interior for the indoor settings, exterior for the street, port and camp (the style guide's split). */
export function sceneHeading(setting: string, locationName: string, timeOfDay: string): string {
  const ext = setting === 'street' || setting === 'port' || setting === 'camp';
  return `${ext ? 'EXT.' : 'INT.'} ${locationName.toUpperCase()} - ${timeOfDay.toUpperCase()}`;
}

/**
 * Turn a writer's scene text into elements. Real models and the offline writer use several
 * dialogue conventions; all of these become dialogue:
 *   > CICERO: Line.            (spec §11.1)
 *   CICERO: Line.              (a cue in capitals, a colon)
 *   CICERO (quietly): Line.
 *   CICERO                     (screenplay block: a cue alone on its line,
 *   (quietly)                   an optional parenthetical,
 *   Line one. Line two.         the speech up to a blank line)
 * The scene's own heading lines, before its first line of action or dialogue (a markdown heading,
 * an INT./EXT. slugline, **Cast:**, a `---` rule), are not story: the script writes its heading from
 * the packet. They are returned as `headings`, so an author's changed heading can be kept (h-commit).
 * Every later line is the author's and is kept: "INT. THE TABLINUM, Cato hesitates." mid-scene is
 * action, never dropped (the exporters escape what their format would misread).
 */
export function readSceneText(text: string, knownCues: string[] = []): { headings: string[]; elements: ScriptElement[] } {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const headings: string[] = [];
  let i = 0;
  for (; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line || /^-{3,}$/.test(line) || /^\*\*Cast:\*\*/i.test(line)) continue;
    if (/^#{1,6}\s/.test(line) || SLUGLINE.test(line)) headings.push(line);
    else break;
  }
  return { headings, elements: parseBody(lines.slice(i), knownCues) };
}

const SLUGLINE = /^(INT|EXT|INT\.\/EXT|I\/E)[. ]/;

/** The scene's elements, its heading lines set aside (readSceneText). */
export function parseSceneText(text: string, knownCues: string[] = []): ScriptElement[] {
  return readSceneText(text, knownCues).elements;
}

function parseBody(lines: string[], knownCues: string[]): ScriptElement[] {
  const cues = new Set(knownCues.map((c) => c.toUpperCase()));
  const out: ScriptElement[] = [];
  let action: string[] = [];
  const flush = () => {
    const t = action.join(' ').replace(/\s+/g, ' ').trim();
    if (t) out.push({ kind: 'action', text: t });
    action = [];
  };
  const isCue = (s: string) => {
    const base = s.replace(/\s*\((?:V\.O\.|O\.S\.|CONT'D|[^)]*)\)\s*$/, '').trim();
    if (cues.has(base)) return true;
    // An unknown cue (a minor character) must look like one: capitals, short, no closing period.
    return CUE.test(s) && base.length >= 2 && base.split(/\s+/).length <= 3 && !/[.!?]$/.test(base) && !/^(INT|EXT)\b/.test(s) && !/TO:$/.test(s);
  };
  for (let i = 0; i < lines.length; i++) {
    // `> cato: words` is Cato's speech, read as the verifier reads it.
    const line = upperQuotedCue(lines[i].trim());
    if (!line) {
      flush();
      continue;
    }
    const inline = /^>?\s*([A-Z][A-Z0-9 .'’-]*?[A-Z0-9.])\s*(\(([^)]*)\))?\s*:\s+(.+)$/.exec(line);
    if (inline && (line.startsWith('>') || CUE.test(inline[1]) || isCue(inline[1]))) {
      flush();
      let speech = inline[4].trim();
      let paren = inline[3]?.trim();
      const lead = /^\(([^)]+)\)\s*(.+)$/.exec(speech);
      if (!paren && lead) {
        paren = lead[1].trim();
        speech = lead[2];
      }
      out.push(paren ? { kind: 'dialogue', cue: inline[1].trim(), parenthetical: paren, text: speech } : { kind: 'dialogue', cue: inline[1].trim(), text: speech });
      continue;
    }
    if (isCue(line) && i + 1 < lines.length && lines[i + 1].trim()) {
      flush();
      const cue = line.replace(/\s*\((?:V\.O\.|O\.S\.|CONT'D)\)\s*$/, '').trim();
      let paren: string | undefined;
      const speech: string[] = [];
      let j = i + 1;
      for (; j < lines.length && lines[j].trim(); j++) {
        const l = lines[j].trim();
        if (/^\(.*\)$/.test(l) && speech.length === 0 && paren === undefined) paren = l.slice(1, -1).trim();
        else speech.push(l);
      }
      i = j - 1;
      if (speech.length) {
        const el: ScriptElement = { kind: 'dialogue', cue, text: speech.join(' ') };
        if (paren) el.parenthetical = paren;
        out.push(el);
      } else action.push(line);
      continue;
    }
    action.push(line);
  }
  flush();
  return out;
}

/**
 * An action paragraph that this format would read back as something else (a heading, a cast line, a
 * cue, a rule) gets a leading backslash, markdown's own escape; parseScriptMarkdown takes it off.
 */
function escapeAction(text: string): string {
  return /^(?:#|>|\\|\*\*Cast:\*\*|-{3,}\s*$)/i.test(text) ? `\\${text}` : text;
}

/** Render in the spec §11.1 format. */
export function renderScriptMarkdown(doc: ScriptDoc): string {
  const parts: string[] = [`# ${doc.title}`, ''];
  if (doc.subtitle) parts.push(`*${doc.subtitle}*`, '');
  for (const sc of doc.scenes) {
    parts.push(`## ${sc.id} — ${sc.heading}`, '');
    parts.push(`**Cast:** ${sc.cast.join(', ')}`, '');
    for (const el of sc.elements) {
      if (el.kind === 'action') parts.push(escapeAction(el.text), '');
      else parts.push(`> ${el.cue}:${el.parenthetical ? ` (${el.parenthetical})` : ''} ${el.text}`, '');
    }
  }
  return parts.join('\n').replace(/\n+$/, '\n');
}

/** Parse an episode_script.md written by renderScriptMarkdown back into the model. */
export function parseScriptMarkdown(md: string): ScriptDoc {
  const lines = md.replace(/\r\n?/g, '\n').split('\n');
  const doc: ScriptDoc = { title: '', scenes: [] };
  let cur: ScriptScene | null = null;
  for (const line of lines) {
    if (!doc.title && /^# /.test(line)) {
      doc.title = line.slice(2).trim();
      continue;
    }
    const h = /^## (\S+) — (.+)$/.exec(line);
    if (h) {
      cur = { id: h[1], heading: h[2].trim(), cast: [], elements: [] };
      doc.scenes.push(cur);
      continue;
    }
    if (!cur) {
      const sub = /^\*(.+)\*$/.exec(line.trim());
      if (sub && !doc.subtitle) doc.subtitle = sub[1];
      continue;
    }
    const cast = /^\*\*Cast:\*\*\s*(.*)$/.exec(line);
    if (cast) {
      cur.cast = cast[1].split(',').map((s) => s.trim()).filter(Boolean);
      continue;
    }
    if (!line.trim()) continue;
    const d = /^> ([^:]+?):\s*(?:\(([^)]*)\)\s*)?(.*)$/.exec(line);
    if (d) {
      const el: ScriptElement = { kind: 'dialogue', cue: d[1].trim(), text: d[3].trim() };
      if (d[2]) el.parenthetical = d[2].trim();
      cur.elements.push(el);
    } else cur.elements.push({ kind: 'action', text: line.trim().replace(/^\\/, '') });
  }
  return doc;
}
