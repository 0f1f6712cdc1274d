import type { EpisodeRef, CliffhangerConstraints } from '../domain/context.js';
import type { EpisodeContext } from '../domain/episode-context.js';
import type { AgentProposals } from '../domain/proposals.js';
import type { EpisodePlan } from '../domain/plan.js';
import type { ScenePacket } from '../domain/packet.js';
import type { World } from '../domain/world.js';
import type { Llm } from '../ports/llm.js';
import type { AureusConfig } from '../config/types.js';
import { AureusError, ExitCode } from '../errors.js';
import { diag } from '../diagnostics/index.js';

/**
 * The seam between the pipeline and the planning stages A–D (src/stages/planning.ts). Kept in
 * one place so the pipeline's checkpoints do not depend on how planning is organised inside.
 */
export interface PlanningOutput {
  context: EpisodeContext;
  proposals: AgentProposals;
  plan: EpisodePlan;
  packets: ScenePacket[];
}

export interface PlanningInput {
  root: string;
  world: World;
  ref: EpisodeRef;
  seed: string;
  previousCliffhanger: CliffhangerConstraints | null;
  llm: Llm;
  config: AureusConfig;
  signal?: AbortSignal;
  onStage?: (stage: 'A' | 'B' | 'C' | 'D') => void;
}

export async function runPlanning(input: PlanningInput): Promise<PlanningOutput> {
  let mod: Record<string, unknown>;
  try {
    const spec = '../stages/planning.js';
    mod = (await import(spec)) as Record<string, unknown>;
  } catch (e) {
    throw new AureusError('the planning stages are not available', { exitCode: ExitCode.INTERNAL, diagnostics: [diag('AUR6020', { stage: 'A–D (src/stages/planning.ts)' })], cause: e });
  }
  const fn = (mod.planEpisode ?? mod.runPlanning) as ((i: unknown) => Promise<PlanningOutput>) | undefined;
  if (typeof fn !== 'function') {
    throw new AureusError('the planning stages are not available', { exitCode: ExitCode.INTERNAL, diagnostics: [diag('AUR6020', { stage: 'A–D planEpisode()' })] });
  }
  return fn(input);
}
