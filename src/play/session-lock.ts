import { acquireLockAt, type HeldLock } from '../pipeline/lock.js';
import { AureusError, ExitCode } from '../errors.js';
import { diag, type Diagnostic } from '../diagnostics/index.js';
import { SESSIONS_DIR } from './store.js';

/** Where a session's lock lives: beside its log, `.aureus/sessions/<id>/lock`. */
export const sessionLockRel = (id: string): string => `${SESSIONS_DIR}/${id}/lock`;

/**
 * The session lock, held for as long as one process plays (or resumes) the session: a second
 * `play --resume` of it would append its own turns to the same log, interleaved with the first's
 * (duplicate ids, two `complete` records). It is the run lock's kind (pipeline/lock.ts: an atomic
 * mkdir, the holder's pid beside it), so a holder killed without releasing it is noticed as stale
 * and taken over instead of blocking the session forever. `id` must be a valid session id (the
 * store checks it first).
 */
export function lockSession(root: string, id: string, warnings?: Diagnostic[]): HeldLock {
  const lock = sessionLockRel(id);
  return acquireLockAt(
    root,
    lock,
    `play ${id}`,
    (holder) =>
      new AureusError(`session ${id} is being played by another process`, {
        exitCode: ExitCode.LOCKED,
        diagnostics: [diag('AUR6206', { id, pid: holder?.pid ?? '?', host: holder?.host ?? '?', since: holder?.since ?? '?', lock }, { file: lock })],
      }),
    { warnings },
  );
}
