import { parentPort, workerData } from 'node:worker_threads';
import { errorReply, generateHere, replyOf, type GenerateRequest } from './generate.js';

/**
 * The generation thread of an import (import/generate.ts): generates the world it is given,
 * sends back its files' bytes (transferred) or the error, and ends. The main thread terminates it
 * on Ctrl-C, wherever the generation is.
 */
const port = parentPort!;
// A promise chain, not top-level await: the bundle is CommonJS (scripts/bundle.mjs).
generateHere(workerData as GenerateRequest).then(
  (g) => {
    const { reply, transfer } = replyOf(g);
    port.postMessage(reply, transfer);
  },
  (e: unknown) => port.postMessage(errorReply(e)),
);
