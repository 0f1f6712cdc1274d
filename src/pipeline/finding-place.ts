import fs from 'node:fs';
import path from 'node:path';
import { QUOTE_CUT, QUOTE_MAX, type Finding } from '../domain/scene.js';
import { episodeRef } from '../domain/context.js';
import { episodeRelDir } from '../paths.js';
import type { ReviewState } from './review-state.js';

/**
 * Where a verifier finding is in the file the author edits (README "Review before commit"). A
 * finding's span counts lines of the scene's draft (`drafts/SCxx.n.txt`, the Writer's three-section
 * format), a file the author never sees: the staged script, or the file given to `scene edit --from`,
 * has the same line elsewhere. It is found there by its quoted text.
 */
export interface Place {
  /** Relative to the world repository (or as the author named it). */
  file: string;
  line: number;
  column: number;
}

/**
 * The 1-based line and column of `quoted` in `text` (within the section of `scene`, for a script), or
 * null. `at`: the offending word's offset in `quoted` (a finding's `span.at`: a word, or a JSON slip's
 * character): the column is the word's, not the quote's start. `near`: the line it should be on (1-based,
 * counted from the scene's heading for a script), tried first, since a short quote (a JSON slip's "]")
 * may be on other lines too. A quote cut at 240 characters (f-verifier/context.ts) is found by what it keeps.
 */
export function quotedPlace(text: string, quoted: string, scene?: string, at?: number, near?: number): { line: number; column: number } | null {
  const lines = text.split(/\r?\n/);
  let from = 0;
  let to = lines.length;
  if (scene) {
    from = lines.findIndex((l) => new RegExp(`^## ${scene}\\b`).test(l));
    if (from < 0) return null;
    const next = lines.findIndex((l, i) => i > from && /^## SC\d/.test(l));
    if (next >= 0) to = next;
  }
  // A cut quote (f-verifier/context.ts quoteOf) has "..." where it was cut: at its end, and at its start when windowed around its word.
  const cutTail = quoted.length === QUOTE_MAX && quoted.endsWith(QUOTE_CUT) ? quoted.slice(0, -QUOTE_CUT.length) : quoted;
  const lead = quoted.length === QUOTE_MAX && cutTail.startsWith(QUOTE_CUT) ? QUOTE_CUT.length : 0;
  const cut = cutTail.slice(lead);
  const want = cut.trim();
  if (!want) return null;
  // `at` counts from the quote's first character; the search is for it without its cut mark and leading blanks.
  const word = Math.max(0, at !== undefined && at >= 0 ? at - lead - (cut.length - cut.trimStart().length) : 0);
  const hinted = near !== undefined && from + near - 1 < to ? (lines[from + near - 1] ?? '').indexOf(want) : -1;
  if (hinted >= 0) return { line: from + near!, column: hinted + word + 1 };
  for (let i = from; i < to; i++) {
    const found = lines[i]!.indexOf(want);
    if (found >= 0) return { line: i + 1, column: found + word + 1 };
  }
  return null;
}

/** Where a finding's quoted span is in `text` (within the section of `scene`, for a script), at its word, or null. */
export function spanPlace(text: string, f: Finding, scene?: string): { line: number; column: number } | null {
  // The span's line counts lines of the answer, which an author's three sections (a --from file, a draft) are.
  return f.span ? quotedPlace(text, f.span.text, scene, f.span.at, f.span.line) : null;
}

/** A finding in the answer's JSON sections (a repaired slip, AUR5003), which a staged script holds only when the author wrote them into it. */
function inJson(f: Finding): boolean {
  return f.rule.startsWith('format.json');
}

/** The staged script of a review, relative to the world repository. */
export function stagedScriptRel(review: ReviewState): string {
  return path.posix.join(review.run_dir, 'stage', episodeRelDir(episodeRef(review.season, review.episode_number)), 'episode_script.md');
}

/**
 * A finding of a staged scene, placed in the staged script (its line, or the scene's heading when
 * the quoted line is not there), or else in its draft (`rawFile`, relative to the run folder). A slip
 * in the JSON sections (AUR5003) the script holds only when the author wrote the sections into it;
 * otherwise it is placed in the draft, whose line and column it is, before the heading.
 */
export function stagedFindingPlace(root: string, review: ReviewState, scene: string, f: Finding, rawFile: string): Place {
  const script = stagedScriptRel(review);
  const text = readOrNull(path.join(root, script));
  const draft = path.posix.join(review.run_dir, rawFile);
  const draftText = () => readOrNull(path.join(root, draft)) ?? '';
  const slip = f.span && inJson(f) && text !== null && !spanPlace(text, f, scene) ? spanPlace(draftText(), f) : null;
  if (slip) return { file: draft, ...slip };
  const inScript = text !== null ? spanPlace(text, f, scene) || quotedPlace(text, `## ${scene}`, scene) : null;
  if (inScript) return { file: script, ...inScript };
  const inDraft = spanPlace(draftText(), f);
  return { file: draft, line: inDraft?.line ?? f.span?.line ?? 1, column: inDraft?.column ?? 1 };
}

function readOrNull(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}
