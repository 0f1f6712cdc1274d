import { compareText } from '../../core/text-order.js';
/**
 * The per-episode regeneration budget, allocated deterministically. Scenes are repaired in rounds:
 * every scene's first draft is written in parallel; then, round after round, the scenes still
 * failing ask for one more attempt and the grants are handed out in scene order until the
 * episode budget runs out. Which scene gets the last regeneration therefore never depends on
 * which call finished first, so output is identical at any concurrency.
 */
export interface BudgetState {
  per_scene: number;
  per_episode: number;
  used: number;
}

/** Grants this round's requests (scene ids, any order) in scene order; returns the granted ones. */
export function grantRound(state: BudgetState, requests: string[]): { granted: string[]; denied: string[] } {
  const ordered = [...requests].sort(compareSceneIds);
  const granted: string[] = [];
  const denied: string[] = [];
  for (const s of ordered) {
    if (state.used < state.per_episode) {
      state.used++;
      granted.push(s);
    } else denied.push(s);
  }
  return { granted, denied };
}

export function compareSceneIds(a: string, b: string): number {
  const na = Number(a.replace(/\D/g, ''));
  const nb = Number(b.replace(/\D/g, ''));
  return na - nb || compareText(a, b);
}
