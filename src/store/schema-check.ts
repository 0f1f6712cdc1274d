import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { WORLD_FILES, type World } from '../domain/world.js';
import type { SchemaVerdict, SchemaVerdicts } from './load.js';
import type { SchemaKind } from './schema.js';

/**
 * The world files' schema validation in a worker thread, started before the command loads its
 * planning modules (issue 18). On the DPRR world (9 MB of JSON) ajv's validation was ~0.1 s of
 * the main thread's wall time before planning; the worker reads, parses and validates the files
 * while the main thread compiles modules and then reads and parses the same files itself.
 *
 * The main thread never uses a file's value before its schema verdict is in (load.ts finishFile
 * awaits it), so planning never sees data the schema rejects; an invalid world gives the same
 * diagnostics (the worker runs the loader's own functions), the same exit code and writes nothing.
 * A verdict counts only for the very bytes the main thread read (the same stamp: device, inode,
 * size, change times); a worker that cannot start or fails leaves its files to the main thread.
 */

export interface SchemaCheckJob {
  root: string;
  files: { rel: string; kind: SchemaKind }[];
}

/** The worker's entry, next to this module (scripts/bundle.mjs points the bundle at its own). */
export const SCHEMA_WORKER = new URL('./schema-worker.js', import.meta.url);

/**
 * Below this many bytes of world files the worker is not started: its start (~40 ms of CPU) costs
 * more than validating a small world (the starter world's ~60 KB validate in a few ms).
 */
export const SCHEMA_WORKER_MIN_BYTES = 1024 * 1024;

/**
 * Starts the check when it can pay: world files of SCHEMA_WORKER_MIN_BYTES or more, and a core to
 * spare. As for stage F's verification workers (stages/verify-pool.ts), that is by default a
 * machine with more than two cores: on two cores shared with other work the worker was measured
 * to cost ~0.8 s of CPU on the DPRR plan (a second parse of the world, ajv's cold first run, a
 * second heap to collect) and to lose wall time, not gain it (docs/benchmarks.md, tenth pass).
 * AUREUS_WORKERS (the same setting) overrides: 0 keeps validation in the main thread, a positive
 * whole number starts the worker whatever the cores, anything else means none. Otherwise
 * undefined, and the loader validates in its own thread as before.
 */
export function startSchemaCheck(root: string, env: NodeJS.ProcessEnv): SchemaVerdicts | undefined {
  if (!workerWanted(env.AUREUS_WORKERS)) return undefined;
  const files = (Object.keys(WORLD_FILES) as (keyof World)[]).map((kind) => ({ rel: WORLD_FILES[kind], kind, size: sizeOf(path.join(root, WORLD_FILES[kind])) }));
  if (files.reduce((n, f) => n + f.size, 0) < SCHEMA_WORKER_MIN_BYTES) return undefined;
  files.sort((a, b) => b.size - a.size);
  const job: SchemaCheckJob = { root, files: files.map(({ rel, kind }) => ({ rel, kind })) };
  return new WorkerVerdicts(job);
}

function workerWanted(setting: string | undefined): boolean {
  if (setting === undefined || setting.trim() === '') return availableParallelism() > 2;
  return /^\d+$/.test(setting.trim()) && Number(setting) > 0;
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

class WorkerVerdicts implements SchemaVerdicts {
  private readonly got = new Map<string, SchemaVerdict>();
  private readonly waiting = new Map<string, (v: SchemaVerdict | null) => void>();
  private done = false;
  private readonly worker: Worker | null;

  constructor(job: SchemaCheckJob) {
    let worker: Worker | null = null;
    try {
      worker = new Worker(SCHEMA_WORKER, { workerData: job });
    } catch {
      this.done = true;
    }
    this.worker = worker;
    if (!worker) return;
    // Never keeps the process alive: a command that fails before loading the world just exits.
    worker.unref();
    worker.on('message', (v: SchemaVerdict) => this.settle(v.rel, v));
    worker.on('error', () => this.finish());
    worker.on('exit', () => this.finish());
  }

  verdict(rel: string): Promise<SchemaVerdict | null> {
    const v = this.got.get(rel);
    if (v || this.done) return Promise.resolve(v ?? null);
    // Awaited: the worker keeps the process alive until the verdict (or its end) arrives.
    this.worker?.ref();
    return new Promise((resolve) => this.waiting.set(rel, resolve));
  }

  private settle(rel: string, v: SchemaVerdict | null): void {
    if (v) this.got.set(rel, v);
    const w = this.waiting.get(rel);
    this.waiting.delete(rel);
    if (!this.waiting.size) this.worker?.unref();
    w?.(v);
  }

  /** The worker ended (done, or failed): files with no verdict are validated by the main thread. */
  private finish(): void {
    this.done = true;
    for (const rel of [...this.waiting.keys()]) this.settle(rel, null);
  }
}
