/**
 * TEST-ONLY HOOK, named points in the middle of an import, in the style of `AUREUS_TEST_SIGINT_AT`
 * in pipeline/checkpoint.ts. `AUREUS_TEST_SIGINT_AT=<name>` sends the process a real SIGINT there
 * (`AUREUS_TEST_SIGTERM_AT=<name>` a SIGTERM), through the OS and the CLI's handler.
 * Never set either outside tests. The signal is sent by store/staging.ts's signalAt, shared with `aureus init`.
 */
import { signalAt } from '../store/staging.js';

/**
 * A point in the generation (a worker thread, or the main thread when no worker starts), which
 * after its signal never goes on: it waits there until its thread is terminated. So a test sees the
 * import stop while its world is unfinished whatever the machine's speed, and an import that only
 * noticed the signal once the generation ended (generated in the main thread, whose handler cannot
 * run meanwhile) would wait forever instead.
 * Names: import-characters (persons, ties, relationships and secrets made; characters not yet).
 */
export function generationPoint(name: string): void {
  if (!signalAt(name)) return;
  const cell = new Int32Array(new SharedArrayBuffer(4));
  // Short waits: terminate() stops a thread between them (it cannot interrupt one wait).
  for (;;) Atomics.wait(cell, 0, 0, 20);
}

/**
 * A point in the repository write (main thread), which goes on after its signal: the handler runs
 * at the event loop's next turn, while the step after the point is under way.
 * Names: import-git-add (the files written, the repository made and configured; its `git add` of
 * every file starts next, so the signal arrives while git hashes and compresses them).
 */
export function repoWritePoint(name: string): void {
  signalAt(name);
}
