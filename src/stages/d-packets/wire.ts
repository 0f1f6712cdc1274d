import { canonicalCompact } from '../../core/json.js';
import type { ScenePacket } from '../../domain/packet.js';

/**
 * What of a packet goes to a model, and how its size is measured. The packet file keeps everything
 * (the `pruned` list, the estimate, the budget, the state hash) for readers and resume; the model
 * gets the scene only, as compact canonical JSON (indentation is about a third of the indented
 * form, and the pruned list can be most of it on a large world). The token budget is measured on
 * exactly this text, so what does not reach the model does not count against it.
 */
export type ModelPacket = Omit<ScenePacket, 'pruned' | 'token_estimate' | 'token_budget' | 'state_hash_before'>;

export function packetForModel(p: ScenePacket): ModelPacket {
  const { pruned: _p, token_estimate: _e, token_budget: _b, state_hash_before: _h, ...rest } = p;
  return rest;
}

/** The packet as the model reads it: compact canonical JSON. */
export function packetJson(p: ScenePacket): string {
  return canonicalCompact(packetForModel(p));
}

/** Estimated tokens of what the model reads (about four characters per token). */
export function packetTokens(p: ScenePacket): number {
  return Math.ceil(packetJson(p).length / 4);
}
