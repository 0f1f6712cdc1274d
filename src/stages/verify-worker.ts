import { parentPort } from 'node:worker_threads';
import nlp from 'compromise';
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

/**
 * compromise's first documents cost several times what later ones do: it builds its post-tagger's
 * match network on the first one (from its model alone) and its code is compiled and optimised as it
 * runs (~180 ms for these three sentences, cold). The worker is idle until the episode is planned,
 * so it pays that now rather than on the first scenes. Only compromise reads these sentences: no
 * verifier memo holds them, and compromise keeps nothing of a document it tags.
 */
for (const s of [
  'Cicero paid the tribune two hundred denarii, and he swore he would not yield to Catilina.',
  'She did not answer; the senators had already gone to the Forum before dawn.',
  '"You will regret this," said Crassus, counting the silver twice.',
]) {
  const doc = nlp(s);
  doc.compute('root');
  doc.verbs().json();
  doc.numbers().json();
}

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
