import fs from 'node:fs';
import path from 'node:path';
import { AUREUS_DIR, RUNS_DIR } from '../paths.js';
import { AureusError, ExitCode } from '../errors.js';
import { diag, type Diagnostic } from '../diagnostics/index.js';
import { validatorFor } from '../schemas/validators.js';
import { withLocation } from '../store/load.js';
import { decodeStrictUtf8, parseJsonTextSafe, utf8BreakDiagnostic, utf8Breaks } from '../store/read.js';
import { schemaDiagnostics } from '../store/schema.js';
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

/** At most this many problems are listed (a file of garbage could have many). */
const MAX_PROBLEMS = 20;

/** The review record, validated; null when there is none. Throws AUR6199 / AUR6112 (exit 3) for a damaged one. */
export function loadReview(root: string): ReviewState | null {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(path.join(root, REVIEW_FILE));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // ENOTDIR: `.aureus` itself is not a folder, which the commands that need it say (exit 3).
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw damaged(root, code === 'EISDIR' ? 'it is a folder, not a file' : `it cannot be read (${code ?? (e as Error).message})`, []);
  }
  const text = decodeStrictUtf8(bytes);
  if (text === null) throw damaged(root, 'it is not UTF-8 text', utf8Breaks(bytes).slice(0, MAX_PROBLEMS).map((b) => utf8BreakDiagnostic(b, REVIEW_FILE)));
  const parsed = parseJsonTextSafe(text, REVIEW_FILE);
  if (!parsed.ok) throw damaged(root, text.trim() === '' ? 'it is empty' : 'it is not valid JSON', parsed.diagnostics.slice(0, MAX_PROBLEMS));
  const problems = schemaDiagnostics(validatorFor('state/review'), parsed.value, REVIEW_FILE, RECORD_DOC);
  if (problems.length) throw damaged(root, 'it is not of the record\'s shape', problems.slice(0, MAX_PROBLEMS).map((d) => withLocation(d, parsed.locate)));
  const r = parsed.value as ReviewState;
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
  return `the staged episode is kept in ${where}: ${fix} (${aside}) and stage it again from there with \`aureus episode run --review${seed}\` and the steering flags it had, if any: its scenes and your edits are resumed, not written anew (pins and the count of rewrites are not: pin again)`;
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
