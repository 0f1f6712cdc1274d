import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Diagnostic } from '../diagnostics/index.js';
import { AureusError, type ExitCodeValue } from '../errors.js';
import type { AssembledWorld } from './assemble.js';
import type { DprrImportOptions } from './dprr/index.js';
import type { RepoFiles } from './files.js';
import type { SyntheticOptions } from './synthetic.js';

/**
 * An import's world is generated in a worker thread, which the main thread terminates on Ctrl-C or
 * SIGTERM, so an import stops within a fraction of a second at any size (the generation is
 * synchronous: at 100,000 principals 15-20 s, during which a signal handler in the same thread
 * could not run).
 *
 * A worker rather than yielding to the event loop between chunks: the long phases include
 * whole-world post-passes that are single synchronous calls (the sort of the relationships, and
 * above all the canonical JSON of each world file, ~1/3 of the generation at 100,000 principals),
 * which could yield only by being rewritten, and every phase would have to become async with its
 * own checks. A worker runs the very same code (same bytes for the same seed, by construction),
 * is stopped wherever it is by `terminate()`, and keeps the main thread free for the signal. Its cost
 * is its start (a thread and the import code loaded again, some tens of ms) and the files' bytes,
 * which are encoded there (work the write did before) and transferred, not copied.
 *
 * Without the worker's built entry (vitest running src/), or a thread Node cannot start, the world
 * is generated in this thread as before, and a signal is seen when the generation ends.
 */
export type GenerateRequest = { kind: 'synthetic'; options: SyntheticOptions } | { kind: 'dprr'; options: DprrImportOptions };

/** What an import reports of its world: the counts, and for DPRR the persons active in the window. */
export interface GeneratedSummary {
  stats: AssembledWorld['stats'];
  active?: number;
}

export interface Generated {
  files: RepoFiles;
  summary: GeneratedSummary;
}

/** An error as data, across the thread boundary (an AureusError keeps its exit code and diagnostics). */
interface ErrorData {
  message: string;
  stack?: string;
  aureus?: { exitCode: ExitCodeValue; diagnostics: Diagnostic[]; hint?: string };
}

/** The worker's one message: the files as bytes (their buffers transferred), or the error it threw. */
export type GenerateReply = { files: [string, Uint8Array][]; summary: GeneratedSummary } | { error: ErrorData };

/** The worker's entry, next to this module (dist/import/; scripts/bundle.mjs points the bundle at its own). */
export const GENERATE_WORKER = new URL('./generate-worker.js', import.meta.url);

/** The generation itself, in this thread: what the worker runs, and what runs here without one. */
export async function generateHere(req: GenerateRequest): Promise<Generated> {
  if (req.kind === 'dprr') {
    const { importDprrFiles } = await import('./dprr/index.js');
    const { files, assembled } = await importDprrFiles(req.options);
    return { files, summary: { stats: assembled.stats, active: assembled.active } };
  }
  const { loadStarterKit } = await import('./kit.js');
  const { syntheticRepoFiles } = await import('./synthetic.js');
  const { files, assembled } = syntheticRepoFiles(req.options, await loadStarterKit());
  return { files, summary: { stats: assembled.stats } };
}

/** The reply for a generated world, and the buffers to transfer with it (each file's own). */
export function replyOf(g: Generated): { reply: GenerateReply; transfer: ArrayBuffer[] } {
  const enc = new TextEncoder();
  // A string as the UTF-8 the write would have made of it; a Buffer copied, since it may be a
  // slice of Node's shared pool, which cannot be transferred.
  const files = [...g.files].map(([rel, content]): [string, Uint8Array] => [rel, typeof content === 'string' ? enc.encode(content) : new Uint8Array(content)]);
  return { reply: { files, summary: g.summary }, transfer: files.map(([, bytes]) => bytes.buffer as ArrayBuffer) };
}

export function errorReply(e: unknown): GenerateReply {
  const err = e instanceof Error ? e : new Error(String(e));
  const aureus = e instanceof AureusError ? { exitCode: e.exitCode, diagnostics: e.diagnostics, hint: e.hint } : undefined;
  return { error: { message: err.message, stack: err.stack, aureus } };
}

function errorOf(d: ErrorData): Error {
  const e = d.aureus ? new AureusError(d.message, d.aureus) : new Error(d.message);
  if (d.stack) e.stack = d.stack;
  return e;
}

function generatedOf(m: Extract<GenerateReply, { files: unknown }>): Generated {
  return { files: new Map(m.files.map(([rel, b]) => [rel, Buffer.from(b.buffer, b.byteOffset, b.byteLength)])), summary: m.summary };
}

/**
 * The world of `req`, generated in a worker thread when its entry is built. `signal` aborted: the
 * worker is terminated wherever it is and the promise rejects with the signal's reason once the
 * thread is gone. An error the generation throws is rethrown here as it was thrown there.
 */
export function generateWorld(req: GenerateRequest, o: { signal?: AbortSignal; entry?: URL } = {}): Promise<Generated> {
  const entry = o.entry ?? GENERATE_WORKER;
  if (o.signal?.aborted) return Promise.reject(o.signal.reason);
  if (!existsSync(fileURLToPath(entry))) return generateHere(req);
  let worker: Worker;
  try {
    worker = new Worker(entry, { workerData: req });
  } catch {
    return generateHere(req); // a thread Node could not start (e.g. out of resources)
  }
  return new Promise<Generated>((resolve, reject) => {
    let settled = false;
    const settle = (f: () => void) => {
      if (settled) return;
      settled = true;
      o.signal?.removeEventListener('abort', onAbort);
      f();
    };
    // Settled by 'exit', once the thread is gone.
    const onAbort = () => void worker.terminate();
    o.signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (m: GenerateReply) => settle(() => ('error' in m ? reject(errorOf(m.error)) : resolve(generatedOf(m)))));
    // Uncaught in the worker (out of memory, a failed start): the import fails as it would here.
    worker.on('error', (e) => settle(() => reject(e)));
    worker.on('exit', (code) => settle(() => reject(o.signal?.aborted ? o.signal.reason : new Error(`the import's generation thread stopped (exit code ${code}) without a world`))));
  });
}
