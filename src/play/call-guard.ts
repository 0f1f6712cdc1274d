/**
 * How the first Ctrl-C (or SIGTERM) reaches the Actor's call in flight. An answer already arriving
 * is let finish, so the line being read is not lost (the turn in progress ends, then the session
 * pauses); a call that has not begun to answer — waiting on the provider, a retry's wait, a stalled
 * connection — or an answer that stops arriving is cancelled at once or after STALL_MS, so the
 * session pauses now (exit 130) instead of waiting out the call's timeout and failing (exit 7).
 * The line is answered again on resume.
 */
export const STALL_MS = 2000;

export interface CallGuard {
  /** The call's signal: aborted as above once the interrupt fires. */
  signal: AbortSignal;
  /** A piece of the answer arrived. */
  progress: () => void;
  dispose: () => void;
}

export function guardCall(interrupt: AbortSignal | undefined, stallMs = STALL_MS): CallGuard {
  const ac = new AbortController();
  if (!interrupt) return { signal: ac.signal, progress: () => undefined, dispose: () => undefined };
  let started = false;
  let timer: NodeJS.Timeout | undefined;
  const stop = () => ac.abort(interrupt.reason);
  // Interrupted while the answer arrives: it may finish, as long as it keeps coming.
  const watch = () => {
    clearTimeout(timer);
    timer = setTimeout(stop, stallMs);
  };
  const onInterrupt = () => (started ? watch() : stop());
  if (interrupt.aborted) stop();
  else interrupt.addEventListener('abort', onInterrupt, { once: true });
  return {
    signal: ac.signal,
    progress: () => {
      started = true;
      if (interrupt.aborted && !ac.signal.aborted) watch();
    },
    dispose: () => {
      clearTimeout(timer);
      interrupt.removeEventListener('abort', onInterrupt);
    },
  };
}
