import { parentPort } from 'node:worker_threads';
import type { VerifyContext } from './f-verifier/context.js';
import { verifySceneOutput } from './f-verifier/verify.js';
import { verifyBase } from './f-verifier/world-context.js';
import type { VerifyReply, VerifyRequest } from './verify-pool.js';

/**
 * A verification worker (stages/verify-pool.ts): loads the verifier and compromise as soon as it
 * starts, while the main thread plans, then verifies the scenes it is sent, one at a time, in the
 * order they came. An episode's base context arrives once; each scene brings its packet and text.
 * A verification that throws, or whose result cannot be sent, is reported by id: the pool then
 * runs it in the main thread, where the same error surfaces as it would without workers.
 */
const bases = new Map<number, Omit<VerifyContext, 'packet'>>();
const port = parentPort!;

port.on('message', (m: VerifyRequest) => {
  if (m.kind === 'base') {
    bases.set(m.base, verifyBase(m.spec));
    return;
  }
  let reply: VerifyReply;
  try {
    reply = { id: m.id, v: verifySceneOutput(m.raw, { ...bases.get(m.base)!, packet: m.packet }) };
    port.postMessage(reply);
  } catch (e) {
    port.postMessage({ id: m.id, error: e instanceof Error ? e.message : String(e) } satisfies VerifyReply);
  }
});
