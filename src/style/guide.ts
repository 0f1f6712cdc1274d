import { readRegularFileBytesSync, RegularFileError } from '../store/regular-file.js';
import { stat } from 'node:fs/promises';
import path from 'node:path';
// The index registers every catalog range, so diag() knows the AUR18xx codes.
import { diag, type Diagnostic } from '../diagnostics/index.js';
import { decodeStrictUtf8, firstInvalidUtf8Offset, utf8Breaks } from '../store/read.js';
import { LEXICON_FILE, parseLexicon, type LexiconEntry } from './lexicon.js';

/**
 * The style of a world repository: style/style_guide.md (voice, tone, rhetorical devices by
 * setting, content safety) and style/lexicon.md (forbidden anachronisms). The writer puts both
 * into its prompt verbatim (spec §6.3); the verifier uses the parsed lexicon.
 */

export const STYLE_GUIDE_FILE = 'style/style_guide.md';
/** Style files go into every writer prompt; anything near this size is a mistake. */
export const MAX_STYLE_BYTES = 256 * 1024;

export interface StyleBundle {
  /** The guide's markdown, verbatim (BOM removed, CRLF normalised to LF). '' when it failed to load. */
  guide: string;
  /** The guide's sections by level-2 heading, lower-cased ("court and villa scenes" -> body). */
  sections: Record<string, string>;
  /** The lexicon's markdown, verbatim (normalised as above). */
  lexiconMarkdown: string;
  lexicon: LexiconEntry[];
  diagnostics: Diagnostic[];
}

async function readStyleFile(root: string, rel: string): Promise<{ text: string; diagnostics: Diagnostic[] }> {
  const abs = path.join(root, rel);
  try {
    const st = await stat(abs);
    if (st.size > MAX_STYLE_BYTES) return { text: '', diagnostics: [diag('AUR1810', { file: rel, max: MAX_STYLE_BYTES }, { file: rel })] };
  } catch {
    return { text: '', diagnostics: [diag('AUR1807', { file: rel }, { file: rel })] };
  }
  let bytes: Buffer;
  try {
    bytes = readRegularFileBytesSync(abs, MAX_STYLE_BYTES); // a FIFO or device is refused, never waited on
  } catch (e) {
    return { text: '', diagnostics: [diag('AUR1008', { file: rel, reason: e instanceof RegularFileError ? e.reason : String(e) }, { file: rel })] };
  }
  const decoded = decodeStrictUtf8(bytes);
  if (decoded === null) {
    // Located as the world files' AUR1003 is (store/read.ts utf8Breaks): line:col of the first bad byte, not only its offset.
    const at = utf8Breaks(bytes)[0];
    const where = at ? { file: rel, line: at.line, column: at.column } : { file: rel };
    return { text: '', diagnostics: [diag('AUR1808', { file: rel, offset: at?.offset ?? Math.max(0, firstInvalidUtf8Offset(bytes)) }, where)] };
  }
  const text = decoded.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  if (text.trim() === '') return { text: '', diagnostics: [diag('AUR1809', { file: rel }, { file: rel })] };
  return { text, diagnostics: [] };
}

/** Split markdown into its `## ` sections (heading lower-cased and trimmed -> body without the heading). */
export function guideSections(markdown: string): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  let current: string | null = null;
  let body: string[] = [];
  const flush = () => {
    if (current !== null) out[current] = body.join('\n').trim();
  };
  for (const line of markdown.split('\n')) {
    const m = /^##\s+(.+?)\s*#*\s*$/.exec(line);
    if (m && !line.startsWith('###')) {
      flush();
      current = m[1]!.toLowerCase();
      body = [];
    } else if (current !== null) {
      body.push(line);
    }
  }
  flush();
  return out;
}

/** Load both style files of the world repository at `root`. Never throws on bad input: problems are diagnostics. */
export async function loadStyle(root: string): Promise<StyleBundle> {
  const [g, l] = await Promise.all([readStyleFile(root, STYLE_GUIDE_FILE), readStyleFile(root, LEXICON_FILE)]);
  const parsed = l.diagnostics.length ? { entries: [], diagnostics: [] } : parseLexicon(l.text, LEXICON_FILE);
  return {
    guide: g.text,
    sections: guideSections(g.text),
    lexiconMarkdown: l.text,
    lexicon: parsed.entries,
    diagnostics: [...g.diagnostics, ...l.diagnostics, ...parsed.diagnostics],
  };
}
