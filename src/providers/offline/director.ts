import { playKind, realizeBeat } from './play.js';
import type { OfflineRealizer } from './index.js';

/**
 * Offline realizer for role `director`: stage C computed the symbolic plan first
 * (request.payload = { plan, context, proposals }); the offline "model" returns it unchanged.
 */
export const realize: OfflineRealizer = (req, ctx) => {
  if (playKind(req.payload) === 'play_beat') return realizeBeat(req, ctx);
  const p = req.payload as { plan?: unknown } | undefined;
  return { text: '', json: p?.plan ?? {} };
};
export default realize;
