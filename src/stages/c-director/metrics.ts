import type { AppliedDelta } from '../../domain/delta.js';
import type { World } from '../../domain/world.js';
import { round } from '../../core/json.js';

/**
 * The drama metrics the Director steers by while planning (spec §10.1), on a projected state.
 * Metric values are normalised to 0..10 through their declared min..max so worlds with other
 * scales behave the same.
 */
function metric10(world: World, name: string): number | null {
  const m = world.world.global[name];
  if (!m || !(m.max > m.min)) return null;
  return ((m.value - m.min) / (m.max - m.min)) * 10;
}

/**
 * Tension = (threat_to_goals + scandal_temp + unrest) / 3. A world may declare `threat_to_goals`;
 * otherwise it is `legal_exposure` (the threat the law poses to the principals' goals). A missing
 * input counts 0.
 */
export function snapshotTension(world: World): number {
  const threat = metric10(world, 'threat_to_goals') ?? metric10(world, 'legal_exposure') ?? 0;
  const scandal = metric10(world, 'scandal_temp') ?? 0;
  const unrest = metric10(world, 'unrest') ?? 0;
  return round(Math.min(10, Math.max(0, (threat + scandal + unrest) / 3)), 2);
}

/** A delta that changed something the audience sees (not thread bookkeeping or a walk across town). */
export function isMeaningful(d: AppliedDelta): boolean {
  if (/^threads\.[a-z0-9_]+\.(progress|last_progress_episode)$/.test(d.path)) return false;
  if (/^characters\.[a-z0-9_]+\.location$/.test(d.path)) return false;
  return JSON.stringify(d.before) !== JSON.stringify(d.after);
}

/** Two meaningful deltas are expected per operator application. */
export const EXPECTED_DELTAS_PER_APPLICATION = 2;

/** Pacing (0..10) = 10 × meaningful deltas of the act / expected deltas of the act. */
export function actPacing(meaningful: number, applications: number): number {
  const expected = Math.max(1, applications * EXPECTED_DELTAS_PER_APPLICATION);
  return round(Math.min(10, (10 * meaningful) / expected), 2);
}

/** Spec §10.2 conditions, as pure predicates over the series the Director keeps. */
export const PACING_LOW = 4;
export const pacingLowTwoActs = (pacing: number[]): boolean =>
  pacing.length >= 2 && pacing[pacing.length - 1]! < PACING_LOW && pacing[pacing.length - 2]! < PACING_LOW;
export const tensionPlateau = (tension: number[]): boolean => {
  if (tension.length < 3) return false;
  const [a, b, c] = tension.slice(-3);
  return a === b && b === c;
};
export const tooManyNearResolution = (nearIds: string[]): boolean => nearIds.length > 2;
