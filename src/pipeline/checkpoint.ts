import fs from 'node:fs';
import path from 'node:path';
import { writeVisible } from '../store/durable.js';
import { stableStringify } from '../core/json.js';
import { diag, type Diagnostic } from '../diagnostics/index.js';
import { readStateFile } from './state-file.js';

/** The schema (schemas/run-files.ts) of each checkpoint a run reads back; the scene ones are only counted. */
const SHAPES: Record<string, string> = {
  planning: 'checkpoint_planning',
  scenes: 'checkpoint_scenes',
  'stage-h': 'checkpoint_stage_h',
  'staged-baseline': 'checkpoint_stage_h',
};

/** `.aureus/runs/<run>/…` of a file under a run folder, as diagnostics name it. */
export function runRelative(abs: string): string {
  const parts = abs.split(path.sep);
  const at = parts.lastIndexOf('runs');
  return at > 0 ? parts.slice(at - 1).join('/') : abs;
}

/**
 * Checkpoints of a run under `.aureus/runs/<run-id>/checkpoints/`: one canonical JSON file per
 * finished stage or scene, written atomically, so a process killed at any instant leaves either
 * the whole checkpoint or none of it. A resumed run loads what is there and redoes only the rest.
 *
 * No fsync per checkpoint (issue 18): a killed process leaves its writes in the page cache, so the
 * next run sees them; after a power cut a checkpoint may be missing or empty, and `load` then
 * returns null and the stage is simply redone (same seed, same result). Nothing outside the run
 * folder ever depends on a checkpoint being on disk; the commit transaction makes its own barrier.
 */
export class Checkpoints {
  readonly dir: string;
  /** The damaged checkpoints already said (a checkpoint may be loaded more than once per run). */
  private readonly said = new Set<string>();

  /**
   * `onIgnored`: told of a checkpoint that is there but damaged (AUR6098), which `load` ignores:
   * the run's warnings (run-state.ts); with the file and what is wrong, for a reader that cannot
   * do the step again and refuses instead (the review commands, staged-checkpoints.ts).
   */
  constructor(
    runDir: string,
    private readonly onIgnored: (warning: Diagnostic, damage: { file: string; detail: string }) => void = () => {},
  ) {
    this.dir = path.join(runDir, 'checkpoints');
  }

  /** The file a checkpoint is saved in. */
  file(name: string): string {
    if (!/^[A-Za-z0-9_.-]+$/.test(name)) throw new Error(`bad checkpoint name ${name}`);
    return path.join(this.dir, `${name}.json`);
  }

  has(name: string): boolean {
    return fs.existsSync(this.file(name));
  }

  /**
   * The checkpoint, or null when there is none or it is damaged: not JSON (a power cut before it
   * reached the disk), or not of its shape (a hand edit, an older aureus; schemas/run-files.ts):
   * a cache of finished work, so it is ignored with a warning and the step redone. One this user
   * may not read is AUR1053 (state-file.ts). A name without a schema is read as it is.
   */
  load<T>(name: string): T | null {
    const file = this.file(name);
    const rel = path.posix.join('checkpoints', `${name}.json`);
    const r = readStateFile<T>(file, rel, SHAPES[name] ? `run/${SHAPES[name]}` : null);
    if (r.ok) return r.value;
    if (!r.missing) this.ignored(file, r.detail);
    return null;
  }

  /** A checkpoint (or a file of one, such as a planning text) found damaged and ignored: warned of once (AUR6098). */
  ignored(file: string, detail: string): void {
    if (this.said.has(file)) return;
    this.said.add(file);
    this.onIgnored(diag('AUR6098', { file: runRelative(file), detail }, { file: runRelative(file) }), { file: runRelative(file), detail });
  }

  /**
   * Save, and return the value as a resumed run will load it (canonical key order). The run goes
   * on with this copy, so an uninterrupted run and a resumed one feed later stages the very same
   * data (key order included: some outputs serialise objects as they come).
   */
  save<T>(name: string, value: T): T {
    const text = stableStringify(value);
    writeVisible(this.file(name), text);
    testKillHook(name);
    return JSON.parse(text) as T;
  }

  /**
   * Save without reading the value back: for a value that is plain JSON already (strings, finite
   * numbers, arrays and plain objects, no undefined), which a resumed run loads as it is.
   */
  write(name: string, value: unknown): void {
    writeVisible(this.file(name), stableStringify(value));
  }

  list(prefix: string): string[] {
    try {
      return fs
        .readdirSync(this.dir)
        .filter((f) => f.startsWith(prefix) && f.endsWith('.json'))
        .map((f) => f.slice(0, -5))
        .sort();
    } catch {
      return [];
    }
  }
}

/**
 * The checkpoint naming what the run's stage/ folder holds while stage H is to be computed again
 * (planning-checkpoint.ts stagedFiles); stageFiles (transaction.ts) removes it when it writes stage/.
 */
export const STAGED_BASELINE = 'staged-baseline';

/**
 * TEST-ONLY HOOK. `AUREUS_TEST_KILL_AT=<name>` makes the process SIGKILL itself at that named point,
 * so tests can prove that a run killed there resumes to the same commit. Comma-separated for
 * several (the first one reached fires). `AUREUS_TEST_SIGINT_AT` sends SIGINT instead, at each name
 * of its list it reaches (two names: a Ctrl-C, then a second one). The names, every one passed here
 * (docs/workflow.md lists them too; keep both true):
 * - run-locked: the checks passed and the run's lock taken (or held by its caller), nothing of the run written (run-episode.ts);
 * - planning: the planning checkpoint's files and index written (planning-checkpoint.ts);
 * - planning-blobs: the planning files' blobs stored during the scenes, with a worker (early-blobs.ts);
 * - scenes-start: as the scenes begin, fresh or resumed, before this run writes one (run-episode.ts);
 * - scene-<id>, e.g. scene-SC03: that scene's checkpoint written (`save` above, from run-episode.ts);
 * - scenes: the scenes checkpoint written (`save`: run-episode.ts, and scene-ops.ts's edit/rewrite);
 * - rewrite-nonce: `scene rewrite`'s nonce spent in the review record, before its first call (scene-rewrite.ts);
 * - stage-h: the stage H checkpoint written (planning-checkpoint.ts);
 * - commit-staged, commit-applied, commit-committed, commit-done: the commit transaction's journal
 *   written, its world files written, its commit made but not tagged, its journal removed (after the
 *   review record) but not its run folder (transaction.ts; an episode's commit and an `aureus play`
 *   canonization's);
 * - play-canonize: a play canonization starts, nothing written (play/session.ts);
 * - play-committed: its commit and tag made (if any), its `canonized` record not yet written (play/session.ts).
 * - plan-written: `episode plan`'s files written into the run folder, its run log not yet put in order (cli/commands/episode-plan.ts).
 * - rollback-built: `aureus rollback`'s reverts and tags built as objects, nothing moved (season/rollback.ts);
 * - rollback-journaled, rollback-moved, rollback-refs: its switch's journal written; the work tree
 *   and index moved; HEAD and the tags moved too, the journal not yet removed (season/rollback-switch.ts).
 * - branch-switched: `branch <name> --set`'s journal written and the new branch checked out, nothing of it written (season/what-if.ts).
 * An import's generation has its own SIGINT/SIGTERM point (import/test-hook.ts). Never set either
 * outside tests.
 */
export function testKillHook(name: string): void {
  const at = process.env.AUREUS_TEST_KILL_AT;
  if (at && at.split(',').map((s) => s.trim()).includes(name)) process.kill(process.pid, 'SIGKILL');
  // `AUREUS_TEST_SIGINT_AT=<name>`: a real Ctrl-C (SIGINT through the OS and the CLI's handler) sent
  // right after that point, so a test's interrupt lands at a known step however fast the scenes run.
  const int = process.env.AUREUS_TEST_SIGINT_AT;
  if (int && int.split(',').map((s) => s.trim()).includes(name)) process.kill(process.pid, 'SIGINT');
}
