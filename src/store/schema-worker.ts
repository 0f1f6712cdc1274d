import { parentPort, workerData } from 'node:worker_threads';
import { schemaVerdictOf } from './load.js';
import type { SchemaCheckJob } from './schema-check.js';

/**
 * The schema worker (schema-check.ts): reads and checks each world file of its job as the main
 * thread's loader does, and posts each file's verdict as soon as it has it, largest file first.
 * Pure checking: it writes nothing, and its thread ends when the job is done.
 */
const job = workerData as SchemaCheckJob;
for (const f of job.files) parentPort!.postMessage(schemaVerdictOf(job.root, f.rel, f.kind));
