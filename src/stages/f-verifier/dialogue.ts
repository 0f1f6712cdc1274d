/**
 * Dialogue cues in a scene text. The canonical format (what the offline writer emits, documented
 * in docs/verifier.md) is one speech per line, `> CUE: words` (spec §11.1). Real models drift, so
 * these are recognised too:
 *   `**CUE:** words`, `CUE: words` (cue in capitals at line start), and the screenplay form
 *   of a line holding only a known CUE followed by the speech on the next line.
 */
export interface Speech {
  cue: string;
  line: number;
  text: string;
}

const QUOTED = /^\s*>\s*\**([A-Z][A-Z'’.\- ]{0,40}?)\**\s*(?:\([^)]*\))?\s*:\**\s*(.*)$/;
const BOLD = /^\s*\*\*([A-Z][A-Za-z'’.\- ]{0,40}?)(?::\*\*|\*\*:)\s*(.*)$/;
const CAPS = /^\s*([A-Z][A-Z'’.\-]{1,30}(?: [A-Z][A-Z'’.\-]{1,30}){0,2})\s*(?:\([^)]*\))?\s*:\s+(\S.*)$/;
const ALONE = /^\s*([A-Z][A-Z'’.\-]{1,30}(?: [A-Z][A-Z'’.\-]{1,30}){0,2})\s*(?:\([^)]*\))?\s*$/;

// Capitalised labels that are not speakers.
const NOT_CUES = new Set(['INT', 'EXT', 'CAST', 'NOTE', 'LATER', 'CUT TO', 'FADE IN', 'FADE OUT', 'CONTINUOUS', 'SCENE', 'END', 'THE END']);

export function normalizeCue(c: string): string {
  return c.replace(/\*/g, '').replace(/\s*\([^)]*\)\s*$/, '').replace(/[.:]+$/, '').trim().toUpperCase();
}

export function extractSpeeches(lines: { line: number; text: string }[], knownCues: Set<string>): Speech[] {
  const out: Speech[] = [];
  for (let i = 0; i < lines.length; i++) {
    const { line, text } = lines[i];
    if (/^\s*#/.test(text) || /^\s*\*\*Cast:?\*\*/i.test(text)) continue;
    let m = QUOTED.exec(text) ?? BOLD.exec(text);
    if (!m) {
      const c = CAPS.exec(text);
      if (c && !NOT_CUES.has(normalizeCue(c[1]))) m = c;
    }
    if (m) {
      const cue = normalizeCue(m[1]);
      if (cue && !NOT_CUES.has(cue)) out.push({ cue, line, text });
      continue;
    }
    const a = ALONE.exec(text);
    if (a && knownCues.has(normalizeCue(a[1])) && i + 1 < lines.length && lines[i + 1].text.trim()) {
      out.push({ cue: normalizeCue(a[1]), line, text: `${text.trim()} ${lines[i + 1].text.trim()}` });
      i++;
    }
  }
  return out;
}
