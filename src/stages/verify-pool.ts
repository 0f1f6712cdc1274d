import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ScenePacket } from '../domain/packet.js';
import type { VerifyContext } from './f-verifier/context.js';
import type { SceneVerification } from './f-verifier/verify.js';
import { verifyBase, type VerifyBaseSpec } from './f-verifier/world-context.js';
import { diag, type Diagnostic } from '../diagnostics/index.js';

/**
 * Stage F's deterministic verification in worker threads (issue 18). Reading a scene's prose
 * (compromise) is most of an offline episode's scene-writing time and all of it is pure: a worker
 * started when `episode run` starts loads the verifier and compromise while the main thread plans,
 * and then verifies scenes while the main thread drafts the next ones. Results are the verifier's
 * own (structured clones of them), so the output is byte-identical with or without workers.
 *
 * Robust by falling back: a worker that cannot start, crashes, or fails a verification leaves its
 * scenes to the main thread, which verifies them exactly as it would have. Workers are unref'd
 * while idle (they never keep the process alive) and terminated on close or abort.
 */

/** A scene's verification against an episode's base context: its text and its packet. */
export type SceneVerifier = (raw: string, packet: ScenePacket) => Promise<SceneVerification>;

export type VerifyRequest =
  | { kind: 'base'; base: number; spec: VerifyBaseSpec }
  | { kind: 'verify'; id: number; base: number; raw: string; packet: ScenePacket };
export type VerifyReply = { id: number; v: SceneVerification } | { id: number; error: string };

export interface VerifyPool {
  /** Workers still able to verify. */
  readonly live: number;
  /** Scenes verified so far by a worker, and in the main thread instead (a worker failed, or none runs). */
  readonly verified: { worker: number; fallback: number };
  /** A verifier for one episode: its base context is sent to each worker once. */
  verifier(spec: VerifyBaseSpec): SceneVerifier;
  /** Terminates the workers; verifications still pending are rejected. */
  close(): void;
}

/** The worker's entry, next to this module (dist/stages/; scripts/bundle.mjs points the bundle at its own). */
export const VERIFY_WORKER = new URL('./verify-worker.js', import.meta.url);

/** The most workers AUREUS_WORKERS may ask for (each loads its own verifier: ~40 MB). */
export const MAX_WORKERS = 8;

/** What the default worker count reads of the machine: its cores, and its 1-minute load average where the platform has one. */
export interface VerifyHost {
  cores: number;
  /** `os.loadavg()[0]`; undefined where there is none (Windows reports zeros). */
  load?: number;
}

/** This machine, as `verifyWorkers` reads it. */
export function thisHost(): VerifyHost {
  return { cores: availableParallelism(), ...(process.platform === 'win32' ? {} : { load: loadavg()[0] }) };
}

/**
 * How many workers an `episode run` starts: AUREUS_WORKERS when set (0: none, verification in the
 * main thread), else one for each core past the first two, at most two; on two cores one while the
 * 1-minute load average is below the core count (a core is free on average), else none. On a quiet
 * 2-core machine one worker was measured to shorten the run by ~0.045 s (16 of 22 paired runs) for
 * ~0.1 s more CPU and ~20 MB more peak RSS; under load it has been measured both ways (+0.16 s beside
 * builds, −0.1 to −0.3 s beside CPU-bound loops), so a busy machine keeps the main thread alone and
 * its CPU for the other work (docs/benchmarks.md, fourteenth pass: stage F shared between a
 * worker and the main thread). No load average (Windows): none on two cores. A value that is not a
 * whole number, or is over the cap, is a warning (AUR7007), not a failed run: the setting only
 * trades CPU for wall time and changes no output. Pure: the caller reads the machine (`thisHost`).
 */
export function verifyWorkers(env: NodeJS.ProcessEnv, host: VerifyHost): { count: number; warning?: Diagnostic } {
  const set = env.AUREUS_WORKERS;
  if (set === undefined || set.trim() === '') return { count: defaultWorkers(host) };
  // Decimal digits only: Number() would also take "0x2", "1e1" or "2.0".
  const whole = /^\s*\d+\s*$/.test(set);
  const n = Number(set);
  if (whole && n <= MAX_WORKERS) return { count: n };
  const count = whole ? MAX_WORKERS : 0;
  const expected = `a whole number from 0 to ${MAX_WORKERS}`;
  const effect = whole ? `using ${MAX_WORKERS} workers` : 'verifying in the main thread (no workers)';
  return { count, warning: diag('AUR7007', { name: 'AUREUS_WORKERS', value: JSON.stringify(set), expected, effect }) };
}

function defaultWorkers({ cores, load }: VerifyHost): number {
  if (cores > 2) return Math.min(2, cores - 2);
  return cores === 2 && load !== undefined && load < cores ? 1 : 0;
}

interface Task {
  resolve: (v: SceneVerification) => void;
  reject: (e: unknown) => void;
  /** The same verification in the main thread: what a failed worker's scenes fall back to. */
  fallback: () => Promise<SceneVerification>;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Task>;
  bases: Set<number>;
  dead: boolean;
}

/** The verifier in this thread, loaded only when it is needed (a worker usually spares the main thread compromise). */
export async function verifyInThread(raw: string, ctx: VerifyContext): Promise<SceneVerification> {
  const { verifySceneOutput } = await import('./f-verifier/verify.js');
  return verifySceneOutput(raw, ctx);
}

/** Starts `size` workers (none when the entry is not built, e.g. under vitest from src/). */
export function startVerifyPool(o: { size: number; entry?: URL; signal?: AbortSignal }): VerifyPool {
  return new WorkerPool(o.size, o.entry ?? VERIFY_WORKER, o.signal);
}

class WorkerPool implements VerifyPool {
  private readonly slots: Slot[] = [];
  private closed = false;
  private nextId = 0;
  private nextBase = 0;
  private readonly counts = { worker: 0, fallback: 0 };
  private readonly onAbort = () => this.close();

  constructor(size: number, entry: URL, private readonly signal?: AbortSignal) {
    if (size > 0 && !signal?.aborted && existsSync(fileURLToPath(entry))) {
      for (let i = 0; i < size; i++) {
        try {
          this.slots.push(this.spawn(entry));
        } catch {
          break; // a thread Node could not start (e.g. out of resources): the scenes are verified here
        }
      }
    }
    signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  get live(): number {
    return this.slots.filter((s) => !s.dead).length;
  }

  get verified(): { worker: number; fallback: number } {
    return { ...this.counts };
  }

  private spawn(url: URL): Slot {
    const slot: Slot = { worker: new Worker(url), pending: new Map(), bases: new Set(), dead: false };
    slot.worker.on('message', (m: VerifyReply) => this.settle(slot, m));
    slot.worker.on('error', () => this.fail(slot));
    slot.worker.on('messageerror', () => this.fail(slot));
    slot.worker.on('exit', () => this.fail(slot));
    // After the listeners: adding a 'message' listener refs the worker's port again.
    slot.worker.unref();
    return slot;
  }

  private settle(slot: Slot, m: VerifyReply): void {
    const t = slot.pending.get(m.id);
    if (!t) return;
    slot.pending.delete(m.id);
    if (!slot.pending.size) slot.worker.unref();
    if ('v' in m) {
      this.counts.worker++;
      t.resolve(m.v);
    } else t.fallback().then(t.resolve, t.reject);
  }

  /** A worker gone (crashed, failed to start, exited): its scenes are verified in the main thread. */
  private fail(slot: Slot): void {
    if (slot.dead) return;
    slot.dead = true;
    const tasks = [...slot.pending.values()];
    slot.pending.clear();
    slot.worker.unref();
    void slot.worker.terminate().catch(() => undefined);
    for (const t of tasks) (this.closed ? Promise.reject(this.closedError()) : t.fallback()).then(t.resolve, t.reject);
  }

  private closedError(): unknown {
    return this.signal?.aborted ? this.signal.reason : new Error('the verification pool is closed');
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.signal?.removeEventListener('abort', this.onAbort);
    for (const slot of this.slots) this.fail(slot);
  }

  verifier(spec: VerifyBaseSpec): SceneVerifier {
    const base = this.nextBase++;
    let local: Omit<VerifyContext, 'packet'> | undefined;
    return (raw, packet) => {
      const fallback = () => {
        this.counts.fallback++;
        return verifyInThread(raw, { ...(local ??= verifyBase(spec)), packet });
      };
      if (this.closed) return Promise.reject(this.closedError());
      const live = this.slots.filter((s) => !s.dead);
      if (!live.length) return fallback();
      const slot = live.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
      return this.send(slot, { kind: 'verify', id: this.nextId++, base, raw, packet }, spec, fallback);
    };
  }

  private send(slot: Slot, m: Extract<VerifyRequest, { kind: 'verify' }>, spec: VerifyBaseSpec, fallback: Task['fallback']): Promise<SceneVerification> {
    try {
      if (!slot.bases.has(m.base)) {
        slot.worker.postMessage({ kind: 'base', base: m.base, spec } satisfies VerifyRequest);
        slot.bases.add(m.base);
      }
      slot.worker.postMessage(m);
    } catch {
      // Data a worker cannot be sent (not structured-clonable): this scene is verified here.
      return fallback();
    }
    slot.worker.ref();
    return new Promise((resolve, reject) => slot.pending.set(m.id, { resolve, reject, fallback }));
  }
}
