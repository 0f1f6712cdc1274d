import fs from 'node:fs';
import path from 'node:path';
import { AUREUS_DIR, RUNS_DIR } from '../paths.js';
import { AureusError, ExitCode } from '../errors.js';
import { diag, type Diagnostic } from '../diagnostics/index.js';
import { readStateFile, type StateProblem } from './state-file.js';
import type { ReviewState } from './review-state.js';

/**
 * Reading `.aureus/review.json`, the record of the episode under review: the one reader every
 * review command, `episode run` and `season run` go through. A missing file is "nothing staged";
 * anything else that is not the record — a folder, bytes that are not UTF-8, broken JSON, JSON of
 * another shape, a run_dir outside .aureus/runs/ — is an error (exit 3) naming the file, the place
 * and what was expected, with a hint that keeps the staged work: the file is never read as "nothing
 * staged", so no command overwrites it or sends its user to run the episode again from scratch.
 */
export const REVIEW_FILE = path.posix.join(AUREUS_DIR, 'review.json');

/** What the schema diagnostics' hints point to. */
const RECORD_DOC = 'the review record `aureus episode run --review` writes';

/** How AUR6199 says what is wrong with the file (state-file.ts's problems). */
const SAID: Record<StateProblem, (detail: string) => string> = {
  folder: () => 'it is a folder, not a file',
  unreadable: (detail) => detail,
  'not-utf8': () => 'it is not UTF-8 text',
  empty: () => 'it is empty',
  syntax: () => 'it is not valid JSON',
  shape: () => "it is not of the record's shape",
};

/** The review record, validated; null when there is none. Throws AUR6199 / AUR6112 (exit 3) for a damaged one. */
export function loadReview(root: string): ReviewState | null {
  // ENOTDIR (missing): `.aureus` itself is not a folder, which the commands that need it say (exit 3).
  const read = readStateFile<ReviewState>(path.join(root, REVIEW_FILE), REVIEW_FILE, 'state/review', { doc: RECORD_DOC, unreadable: 'report' });
  if (!read.ok && read.missing) return null;
  if (!read.ok) throw damaged(root, SAID[read.problem](read.detail), read.diagnostics);
  const r = read.value;
  // The run folder is removed by `episode discard` and written by the scene commands: a review file
  // naming anything but a folder under .aureus/runs/ (a hand edit, "", "../x") must never reach them.
  if (!underRuns(root, r.run_dir)) {
    throw new AureusError('the review file names no staged run folder', { exitCode: ExitCode.INVALID_WORLD, diagnostics: [diag('AUR6112', { file: REVIEW_FILE, run_dir: JSON.stringify(r.run_dir) })] });
  }
  return r;
}

/** Whether `runDir` (relative to the world) is one folder directly under .aureus/runs/. */
function underRuns(root: string, runDir: string): boolean {
  if (runDir === '') return false;
  return path.dirname(path.resolve(root, runDir)) === path.resolve(root, RUNS_DIR);
}

function damaged(root: string, detail: string, problems: Diagnostic[]): AureusError {
  return new AureusError(`the review file ${REVIEW_FILE} is damaged`, {
    exitCode: ExitCode.INVALID_WORLD,
    diagnostics: [diag('AUR6199', { file: REVIEW_FILE, detail, hint: keepWorkHint(root, problems.length > 0) }, { file: REVIEW_FILE }), ...problems],
  });
}

/**
 * How to go on without losing the staged work: the run folders that hold a staged episode (its
 * scenes, the author's edits included, are in their checkpoints), and the command that stages it
 * again from them — a run of the same episode and seed resumes its folder rather than starting anew.
 */
function keepWorkHint(root: string, placed: boolean): string {
  const aside = `\`mv ${REVIEW_FILE} ${REVIEW_FILE}.damaged\``;
  const fix = placed ? 'correct the file at the place shown, or move it aside' : 'move it aside';
  const runs = stagedRuns(root);
  if (!runs.length) return `${fix} (${aside}); no staged run folder is left under ${RUNS_DIR}/, stage the episode with \`aureus episode run --review\``;
  const where = runs.map((r) => `${r.dir}${r.seed ? ` (seed ${r.seed})` : ''}`).join(', ');
  const one = runs.length === 1 ? runs[0]!.seed : null;
  const seed = one ? ` --seed ${/^[A-Za-z0-9_.-]+$/.test(one) ? one : JSON.stringify(one)}` : ' --seed <its seed>';
  return `the staged episode is kept in ${where}: ${fix} (${aside}) and stage it again from there with \`aureus episode run --review${seed}\` and the steering flags it had, if any: its scenes, your edits, pins and rewrite counts are resumed, not written anew`;
}

/** Run folders with scenes written (at most 3, newest first), with the seed their plan records. */
function stagedRuns(root: string): { dir: string; seed: string | null }[] {
  let names: string[];
  try {
    names = fs.readdirSync(path.join(root, RUNS_DIR));
  } catch {
    return [];
  }
  const found = names
    .map((n) => ({ dir: path.posix.join(RUNS_DIR, n), scenes: fs.statSync(path.join(root, RUNS_DIR, n, 'checkpoints', 'scenes.json'), { throwIfNoEntry: false }) }))
    .filter((r) => r.scenes?.isFile())
    .sort((a, b) => b.scenes!.mtimeMs - a.scenes!.mtimeMs)
    .slice(0, 3);
  return found.map((r) => ({ dir: r.dir, seed: planSeed(path.join(root, r.dir)) }));
}

function planSeed(runDir: string): string | null {
  try {
    const ctx = JSON.parse(fs.readFileSync(path.join(runDir, 'checkpoints', 'planning', 'episode_context.json'), 'utf8')) as { seed?: unknown };
    return typeof ctx.seed === 'string' && ctx.seed !== '' ? ctx.seed : null;
  } catch {
    return null; // a hint only: the folder is still named
  }
}
