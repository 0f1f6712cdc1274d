import type { OfflineRealizer } from './index.js';

/**
 * Offline realizer for role `proposals`: stage B already computed the character's symbolic moves
 * (request.payload = { character, moves }); the offline "model" answers exactly those, so the
 * offline path goes through the same port, run log and validation as a real model.
 */
export const realize: OfflineRealizer = (req) => {
  const p = req.payload as { character?: { id?: string }; moves?: unknown[] } | undefined;
  if (!p || !p.character || typeof p.character.id !== 'string' || !Array.isArray(p.moves)) {
    return { text: '', json: { character_id: 'unknown', moves: [] } };
  }
  return { text: '', json: { character_id: p.character.id, moves: p.moves } };
};
export default realize;
