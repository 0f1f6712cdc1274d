import { playKind, realizeBeat } from './play.js';
import type { OfflineRealizer } from './index.js';

/**
 * Offline realizer for role `director`: stage C computed the symbolic plan first and offers the
 * edit that changes nothing (request.payload.edit); the offline "model" answers with it, so the
 * offline plan is the symbolic plan. (An older payload without `edit` gets the plan itself.)
 */
export const realize: OfflineRealizer = (req, ctx) => {
  if (playKind(req.payload) === 'play_beat') return realizeBeat(req, ctx);
  const p = req.payload as { plan?: unknown; edit?: unknown } | undefined;
  return { text: '', json: p?.edit ?? p?.plan ?? {} };
};
export default realize;
