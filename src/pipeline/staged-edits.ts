import fs from 'node:fs';
import path from 'node:path';
import { episodeRef } from '../domain/context.js';
import { AureusError, ExitCode } from '../errors.js';
import { diag, type Diagnostic } from '../diagnostics/index.js';
import { stagedCheckpoints } from './staged-checkpoints.js';
import { stagedFiles } from './planning-checkpoint.js';
import { writeVisible } from '../store/durable.js';
import { decodeStrictUtf8 } from '../store/read.js';
import type { ReviewState } from './review-state.js';
import { compareText } from '../core/text-order.js';

/**
 * What the author did to the files in a staged run's stage/ folder, read before anything is adopted
 * (README "Review before commit": edits of the staged files are never silently dropped). Only a scene
 * changed in place in the staged script can be adopted (as the author's edit of that scene); anything
 * else — another file changed (AUR6106), a file deleted, emptied or no longer text, a scene's section
 * gone, added or doubled, the script's title lines changed (AUR6111) — refuses the command before it
 * changes anything, so the run stays staged as it is. `episode review --restore` puts the staged
 * originals of exactly those files back, keeping the author's version aside.
 */
export interface ScriptEdit {
  rel: string;
  staged: string;
  now: string;
}

export interface StagedInspection {
  /** Scripts changed only inside their scenes: what can be adopted. */
  scripts: ScriptEdit[];
  /** One diagnostic per file that cannot be adopted, with its path relative to stage/. */
  refused: { rel: string; diagnostic: Diagnostic }[];
}

/** Scene sections of a script (`## SC04 — …` up to the next scene heading), and the text before the first. */
export function scriptSections(script: string): Map<string, string> {
  return splitScript(script).sections;
}

function splitScript(script: string): { head: string; sections: Map<string, string>; doubled: string[] } {
  const sections = new Map<string, string>();
  const doubled: string[] = [];
  let head = '';
  // A BOM or CRLF line ends an editor adds are not edits.
  for (const p of script.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n').split(/^(?=## SC\d{2,3}\b)/m)) {
    const m = /^## (SC\d{2,3})\b/.exec(p);
    if (!m) head = p.trim();
    else if (sections.has(m[1]!)) doubled.push(m[1]!);
    else sections.set(m[1]!, p.trim());
  }
  return { head, sections, doubled };
}

/** Why a changed script cannot be adopted, or null when every change is inside a scene it can find. */
function scriptProblem(staged: string, now: string): { problem: string; hint: string } | null {
  if (!now.trim()) return { problem: 'is empty', hint: '' };
  const before = splitScript(staged);
  const after = splitScript(now);
  const scenesHint = '; to change a scene, edit its text in place or use `aureus scene edit|rewrite <SCxx>`';
  if (after.sections.size === 0) return { problem: 'has no scene headings (`## SCxx — …`) left', hint: scenesHint };
  const missing = [...before.sections.keys()].filter((id) => !after.sections.has(id));
  if (missing.length) return { problem: `lacks ${missing.length === 1 ? 'scene' : 'scenes'} ${missing.join(', ')} (a scene cannot be removed from a staged episode: the plan, its deltas and packets depend on it)`, hint: scenesHint };
  const extra = [...after.sections.keys()].filter((id) => !before.sections.has(id));
  if (extra.length) return { problem: `has unknown ${extra.length === 1 ? 'scene' : 'scenes'} ${extra.join(', ')}`, hint: scenesHint };
  if (after.doubled.length) return { problem: `has ${after.doubled.join(', ')} twice`, hint: scenesHint };
  if (after.head !== before.head) return { problem: 'has changed title lines before the first scene (they come from the plan)', hint: '' };
  return null;
}

/** A staged file as it is now: its text, or why it cannot be read as text. */
function readNow(abs: string): { text: string } | { problem: string } {
  let buf: Buffer;
  try {
    buf = fs.readFileSync(abs);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { problem: code === 'ENOENT' ? 'was deleted' : `cannot be read (${code ?? (e as Error).message})` };
  }
  const text = decodeStrictUtf8(buf);
  return text === null ? { problem: 'is no longer UTF-8 text' } : { text };
}

/**
 * The run folder and what stage H staged in it (the planning and stage H checkpoints' texts: ~1 MB
 * read). A damaged checkpoint among them is said in `warnings` (AUR6098): without it, no hand edit
 * can be told from the staged text, and none is adopted.
 */
function stagedOf(root: string, review: ReviewState, warnings?: Diagnostic[]): { runDir: string; files: Record<string, string> } {
  const runDir = path.join(root, review.run_dir);
  return { runDir, files: stagedFiles(stagedCheckpoints(runDir, warnings).cp, episodeRef(review.season, review.episode_number)) ?? {} };
}

export function inspectStagedEdits(root: string, review: ReviewState, staged = stagedOf(root, review)): StagedInspection {
  const { runDir, files } = staged;
  const out: StagedInspection = { scripts: [], refused: [] };
  for (const [rel, staged] of Object.entries(files).sort(([a], [b]) => compareText(a, b))) {
    const file = path.posix.join(review.run_dir, 'stage', rel);
    const now = readNow(path.join(runDir, 'stage', rel));
    if ('text' in now && now.text === staged) continue;
    const isScript = rel.endsWith('/episode_script.md');
    const found = 'problem' in now ? { problem: now.problem, hint: '' } : isScript ? scriptProblem(staged, now.text) : null;
    if (found) out.refused.push({ rel, diagnostic: diag('AUR6111', { file, problem: found.problem, more: found.hint }) });
    else if (isScript) out.scripts.push({ rel, staged, now: (now as { text: string }).text });
    else out.refused.push({ rel, diagnostic: diag('AUR6106', { file }) });
  }
  return out;
}

/**
 * The scripts whose scene edits can be adopted; refuses (exit 2, nothing changed) when any staged edit
 * cannot be. `warnings`: the command's, told of a damaged checkpoint among the staged texts.
 */
export function adoptableEdits(root: string, review: ReviewState, warnings?: Diagnostic[]): ScriptEdit[] {
  const { scripts, refused } = inspectStagedEdits(root, review, stagedOf(root, review, warnings));
  if (refused.length) {
    const first = refused[0]!.diagnostic.code === 'AUR6106' ? 'was changed by hand' : 'cannot be adopted';
    const more = refused.length > 1 ? ` (and ${refused.length - 1} more)` : '';
    throw new AureusError(`the staged file ${path.posix.join(review.run_dir, 'stage', refused[0]!.rel)} ${first}${more}; nothing was changed, the episode stays staged`, {
      exitCode: ExitCode.USAGE,
      diagnostics: refused.map((r) => r.diagnostic),
    });
  }
  return scripts;
}

/**
 * `episode review --restore`: the staged original of every file the commit would refuse, written
 * back; the author's version (if any) moved to the run's hand-edits/ folder first, so nothing is lost.
 */
export function restoreStaged(root: string, review: ReviewState): { file: string; kept: string | null }[] {
  // The staged texts read once, for the inspection and the restore.
  const staged = stagedOf(root, review);
  const { runDir, files } = staged;
  const restored: { file: string; kept: string | null }[] = [];
  for (const { rel } of inspectStagedEdits(root, review, staged).refused) {
    const abs = path.join(runDir, 'stage', rel);
    let kept: string | null = null;
    if (fs.existsSync(abs)) {
      const aside = path.join(runDir, 'hand-edits', rel);
      fs.mkdirSync(path.dirname(aside), { recursive: true });
      fs.rmSync(aside, { recursive: true, force: true });
      fs.renameSync(abs, aside);
      kept = path.posix.join(review.run_dir, 'hand-edits', rel);
    }
    writeVisible(abs, files[rel]!); // atomic, as every write of the run folder (makes the folder if it went)
    restored.push({ file: path.posix.join(review.run_dir, 'stage', rel), kept });
  }
  return restored;
}
