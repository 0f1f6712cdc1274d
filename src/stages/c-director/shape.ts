import type { MandatoryBeat, Phase } from '../../domain/plan.js';
import type { Rng } from '../../core/rng.js';

/** Spec §4.3 / §6.1 episode limits. */
export const LIMITS = {
  scenes: { min: 18, max: 24 },
  thriller: { min: 10, max: 14 },
  soap: { min: 6, max: 10 },
  acts: 4,
} as const;

export const ACT_PHASE: Record<number, Phase> = { 1: 'establishment', 2: 'complication', 3: 'escalation', 4: 'pivot' };
export const PHASE_RANK: Record<Phase, number> = { establishment: 0, complication: 1, escalation: 2, pivot: 3, resolution: 3 };

export interface SceneSlotPlan {
  number: number; // 1-based
  id: string; // SC01
  act: number;
  /** How many operator applications the scene's beat holds (1 or 2). */
  applications: number;
  /** The mandatory tag scheduled here by default (may move, see plan.ts). */
  tag: MandatoryBeat | null;
}

export interface EpisodeShape {
  scenes: SceneSlotPlan[];
  /** Preferred type of each application slot, in order; the hard limits are enforced separately. */
  slotTypes: ('thriller' | 'soap')[];
  total: number;
  thriller: number;
  soap: number;
}

export const sceneId = (n: number): string => `SC${String(n).padStart(2, '0')}`;

/**
 * The episode's shape from the world's size: more acting principals and open threads give more
 * scenes. The seed moves it by at most one scene and picks where the doubled-up scenes and the
 * default mandatory slots fall.
 */
export function episodeShape(acting: number, openThreads: number, rng: Rng): EpisodeShape {
  const r = rng.fork('structure');
  const base = LIMITS.scenes.min + Math.floor((acting + openThreads) / 3);
  const n = Math.min(LIMITS.scenes.max, Math.max(LIMITS.scenes.min, base + r.int(3) - 1));
  // Act sizes: as even as possible, the middle acts take the remainder.
  const sizes = [0, 0, 0, 0].map(() => Math.floor(n / 4));
  for (let k = 0, order = [1, 2, 0, 3]; k < n % 4; k++) sizes[order[k]!]! += 1;
  const scenes: SceneSlotPlan[] = [];
  let num = 1;
  for (let a = 0; a < 4; a++) for (let i = 0; i < sizes[a]!; i++, num++) scenes.push({ number: num, id: sceneId(num), act: a + 1, applications: 1, tag: null });

  // At most one application short of both maxima, so the last (cliffhanger) slot can take either
  // type (see plan.ts typeAllowed); a 24-scene episode needs all 24.
  const total = Math.max(n, Math.min(LIMITS.thriller.max + LIMITS.soap.max - 1, Math.max(n, LIMITS.thriller.min + LIMITS.soap.min) + r.int(3)));
  let thriller = Math.min(LIMITS.thriller.max, Math.max(LIMITS.thriller.min, Math.round(total * 0.6)));
  let soap = total - thriller;
  if (soap < LIMITS.soap.min) { soap = LIMITS.soap.min; thriller = total - soap; }
  if (soap > LIMITS.soap.max) { soap = LIMITS.soap.max; thriller = total - soap; }

  // Mandatory slots: REVEAL in act 2, CONFRONTATION in act 3, REVERSAL in act 4 (not the last scene),
  // CLIFFHANGER in the last scene.
  const inAct = (a: number) => scenes.filter((s) => s.act === a);
  r.pick(inAct(2)).tag = 'reveal';
  r.pick(inAct(3)).tag = 'confrontation';
  r.pick(inAct(4).slice(0, -1)).tag = 'reversal';
  scenes[scenes.length - 1]!.tag = 'cliffhanger';

  // Extra applications double up untagged scenes of acts 2-4.
  const doubles = r.shuffle(scenes.filter((s) => s.act >= 2 && s.tag === null));
  for (let k = 0; k < total - n && k < doubles.length; k++) doubles[k]!.applications = 2;
  const realTotal = scenes.reduce((x, s) => x + s.applications, 0);

  // Interleave soap slots evenly (Bresenham) from a seeded offset.
  const offset = r.next();
  const slotTypes: ('thriller' | 'soap')[] = [];
  for (let i = 0; i < realTotal; i++) {
    const a = Math.floor((i + 1 + offset) * soap / realTotal);
    const b = Math.floor((i + offset) * soap / realTotal);
    slotTypes.push(a > b ? 'soap' : 'thriller');
  }
  return { scenes, slotTypes, total: realTotal, thriller: realTotal - soap, soap };
}
