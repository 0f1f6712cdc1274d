import type { ResolvedDelta } from '../domain/delta.js';
import type { Secret, World } from '../domain/world.js';
import { round } from './json.js';

/**
 * The entropy pass of spec §8.4. Before commit, every secret that is not inert decays:
 *
 *   factor    = 0.5 ^ (1 / half_life_episodes)
 *   new_value = current_value * factor        (legal_value and public_damage; rounded to 4 decimals)
 *
 * When legal_value AND public_damage are both below INERT_THRESHOLD afterwards, the secret
 * becomes `inert` and leaves the retrieval index. The pass returns ResolvedDeltas (`set`), so it
 * is applied by the same engine as every other change and carries provenance (operator null).
 */
export const INERT_THRESHOLD = 0.15;

/** The per-episode decay factor; a non-positive or non-finite half-life means no decay. */
export function decayFactor(halfLifeEpisodes: number): number {
  if (typeof halfLifeEpisodes !== 'number' || !Number.isFinite(halfLifeEpisodes) || halfLifeEpisodes <= 0) return 1;
  return Math.pow(0.5, 1 / halfLifeEpisodes);
}

/** Both values are below the inert threshold. */
export function isSpent(s: Pick<Secret, 'legal_value' | 'public_damage'>): boolean {
  return s.legal_value < INERT_THRESHOLD && s.public_damage < INERT_THRESHOLD;
}

/** Whether a secret may be retrieved into scene packets: inert or spent secrets may not. */
export function isRetrievable(s: Pick<Secret, 'status' | 'legal_value' | 'public_damage'>): boolean {
  return s.status !== 'inert' && !isSpent(s);
}

/** The decay deltas for one episode (one pass), in secret file order. */
export function decayDeltas(world: World): ResolvedDelta[] {
  const out: ResolvedDelta[] = [];
  for (const s of world.secrets?.secrets ?? []) {
    if (s.status === 'inert') continue;
    const f = decayFactor(s.half_life_episodes);
    // Rounding to 4 decimals must never lift a value (5.1e-5 would round up to 0.0001): decay is monotone.
    const legal = Math.min(s.legal_value, round(s.legal_value * f));
    const damage = Math.min(s.public_damage, round(s.public_damage * f));
    if (legal !== s.legal_value) out.push({ path: `secrets.${s.id}.legal_value`, op: 'set', value: legal });
    if (damage !== s.public_damage) out.push({ path: `secrets.${s.id}.public_damage`, op: 'set', value: damage });
    if (isSpent({ legal_value: legal, public_damage: damage })) out.push({ path: `secrets.${s.id}.status`, op: 'set', value: 'inert' });
  }
  return out;
}
