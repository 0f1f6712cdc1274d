import type { EpisodeContext } from '../../domain/episode-context.js';
import type { AgentProposals } from '../../domain/proposals.js';
import type { EpisodePlan } from '../../domain/plan.js';
import type { World } from '../../domain/world.js';
import { DEFAULT_EPISODES_PLANNED, type SeasonPacingGoals } from '../../core/threads.js';
import { infeasible } from './infeasible.js';
import { AureusError, ExitCode } from '../../errors.js';
import { acceptanceChecks } from './checks.js';
// Showrunner steering (issue 16): a separate hook, logic in ./steering.ts.
import { checkPlanSteering, type Steering } from './steering.js';
import type { RecentMove } from './memory.js';
import { checkPlanAnchors, requiredAnchors } from './anchors.js';
import type { Anchor } from '../../domain/anchors.js';
import { titleOf } from './text.js';
import { Attempt, PLAN_ATTEMPTS } from './attempt.js';
import { planScene } from './scene.js';

export interface DirectorInput {
  world: World;
  context: EpisodeContext;
  proposals: AgentProposals;
  seed: string;
  /** The season's goals (episodes_planned, finale_threads) that pace thread progress; defaults when absent. */
  seasonGoals?: SeasonPacingGoals | null;
  /** The moves of the season's earlier episodes (memory.ts): recent (operator, actor, target) cool down. */
  recentMoves?: readonly RecentMove[];
  /** The showrunner's steering (--focus, --require, --avoid, --cast, season notes); none when absent. */
  steering?: Steering | null;
  /** world/anchors.json (anchors.ts): dated fixed points; `playedOperators` are the season's earlier episodes' operators. */
  anchors?: readonly Anchor[] | null;
  playedOperators?: ReadonlySet<string>;
}

/**
 * The symbolic Director (HTN-lite, spec §2.2): a greedy, forward, seeded planner over the
 * projected state. Throws AureusError(PLAN_INFEASIBLE) naming the rule it could not meet.
 */
export function planSymbolic(input: DirectorInput): EpisodePlan {
  // Greedy planning can paint itself into a corner late in a season (the last cliffhanger move
  // used up earlier, a cast stranded out of town). Before giving up, re-plan with wider seeded
  // jitter: every attempt is a function of the seed, so the result stays deterministic.
  let first: unknown = null;
  for (let attempt = 0; attempt < PLAN_ATTEMPTS; attempt++) {
    try {
      return planAttempt(input, attempt);
    } catch (e) {
      if (!(e instanceof AureusError) || e.exitCode !== ExitCode.PLAN_INFEASIBLE || e.diagnostics.some((d) => d.code === 'AUR3002')) throw e;
      first ??= e;
    }
  }
  throw first;
}

export { PLAN_ATTEMPTS };

/** One seeded attempt: the state (attempt.ts), the scenes in order (scene.ts), then the plan's checks. */
function planAttempt(input: DirectorInput, attempt: number): EpisodePlan {
  const a = new Attempt(input, attempt);
  for (const sc of a.shape.scenes) planScene(a, sc);
  for (const r of a.dramaResponses) if (r.at === 'pending') { r.at = 'end'; r.detail += '; the episode ended before it could be injected'; }
  const plan = a.planObject(titleOf(a.inputIndex, a.beats));
  plan.acceptance_checks = acceptanceChecks(plan, input.world, input.context).checks;
  const failed = plan.acceptance_checks.find((ch) => !ch.passed);
  if (failed) throw infeasible(failed.id, failed.detail);
  checkPlanSteering(plan, input.steering);
  checkPlanAnchors(plan, input.anchors, input.context.date, requiredAnchors(a.gate.due, a.episode, input.seasonGoals?.episodes_planned ?? DEFAULT_EPISODES_PLANNED));
  return plan;
}
