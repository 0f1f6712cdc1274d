import type { EpisodeContext } from '../../domain/episode-context.js';
import type { EpisodePlan } from '../../domain/plan.js';
import type { AgentProposals } from '../../domain/proposals.js';
import type { SeasonGoals, World } from '../../domain/world.js';
import { isBadModelAnswer, type Llm, type LlmMessage } from '../../ports/llm.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { diag } from '../../diagnostics/catalog.js';
import '../../diagnostics/codes/planning.js';
import { isAureusError } from '../../errors.js';
import { stableStringify } from '../../core/json.js';
import { acceptanceChecks } from './checks.js';
import { loadSchema, validateAgainst } from './schemas.js';

/** Re-asks of the director model after its first answer (spec §7.2: then fall back to symbolic). */
export const DIRECTOR_RETRIES = 2;

/** Why a model's plan is unacceptable, or null. Schema first, then every rule recomputed by us. */
export function planErrors(candidate: unknown, world: World, context: EpisodeContext, seed: string): string[] {
  const schemaErr = validateAgainst('episode_plan', candidate);
  if (schemaErr) return [`schema: ${schemaErr}`];
  const p = candidate as EpisodePlan;
  const errs: string[] = [];
  if (p.episode_id !== context.episode_id) errs.push(`episode_id must be ${context.episode_id}`);
  if (p.seed !== seed) errs.push(`seed must be ${seed} (risk rolls are checked against it)`);
  if (p.state_hash !== context.state_hash) errs.push('state_hash must be the snapshot\'s');
  try {
    for (const c of acceptanceChecks(p, world, context).checks) if (!c.passed) errs.push(`${c.id} (${c.rule}): ${c.detail}`);
  } catch (e) {
    errs.push(`plan could not be checked: ${e instanceof Error ? e.message : String(e)}`);
  }
  return errs;
}

/**
 * Stage C through the LLM port (role `director`). The symbolic plan is the payload; the offline
 * realizer returns it. A model's plan must pass the schema and every acceptance rule; it is
 * re-asked with the errors up to DIRECTOR_RETRIES times, then the symbolic plan is used with the
 * reason recorded. A provider failure is also a fallback: a badly planning model never fails an episode.
 */
export async function directWithLlm(
  symbolic: EpisodePlan, world: World, context: EpisodeContext, proposals: AgentProposals, llm: Llm, retries = DIRECTOR_RETRIES,
  seasonGoals: SeasonGoals | null = null,
  /** The showrunner's steering and notes (issue 16, stages/c-director/steering.ts showrunnerBrief); absent when none. */
  showrunner: Record<string, unknown> | null = null,
): Promise<{ plan: EpisodePlan; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  const messages: LlmMessage[] = [{
    role: 'user',
    content: stableStringify({
      CURRENT_STATE: { state_hash: context.state_hash, date: context.date_text, metrics: context.metrics, acting_principals: context.acting_principals },
      // Spec §6.1's inputs: the season's goals steer which threads this episode should push.
      SEASON_GOALS: seasonGoals,
      THREADS: context.active_threads,
      OPERATORS: world.operators.operators.map((o) => ({ id: o.id, type: o.type, beats: o.beats, roles: o.roles, prereqs: o.prereqs, settings: o.settings })),
      CLIFFHANGER_CONSTRAINTS: context.previous_cliffhanger,
      PROPOSALS: proposals.proposals,
      SYMBOLIC_PLAN: symbolic,
      ...(showrunner ? { SHOWRUNNER: showrunner } : {}),
    }),
  }];
  let lastReason = '';
  let attempts = 0;
  for (let attempt = 0; attempt <= retries; attempt++) {
    let answer: unknown;
    attempts = attempt + 1;
    try {
      const res = await llm.complete({
        role: 'director',
        system: 'You are the Director. Output valid JSON only: an episode plan in the given schema. Plan a 30-minute episode (18-24 scenes in 4 acts). Advance at least 2 threads; fully resolve at most 1 major thread; include exactly one REVEAL, REVERSAL, CONFRONTATION and CLIFFHANGER (the cliffhanger in the last scene); 10-14 thriller and 6-10 soap operator applications; every prerequisite must hold on the projected state. SYMBOLIC_PLAN is a valid plan you may improve.',
        messages,
        json_schema: loadSchema('episode_plan'),
        schema_name: 'episode_plan',
        max_tokens: 16000,
        payload: { plan: symbolic, context, proposals },
        meta: { episode: context.episode_id, attempt },
      });
      answer = res.json ?? JSON.parse(res.text);
    } catch (e) {
      // Only a bad model answer falls back to the symbolic plan. Ctrl-C, a replay miss (a stale
      // recording must stay loud, or CI would silently change the episode), a spent call budget and
      // a provider outage end the run, which can then be resumed with the same answers.
      if (isAureusError(e) && !isBadModelAnswer(e)) throw e;
      lastReason = `provider error: ${e instanceof Error ? e.message : String(e)}`;
      diagnostics.push(diag('AUR3006', { attempt: attempt + 1, reason: lastReason }));
      break;
    }
    const errs = planErrors(answer, world, context, symbolic.seed);
    if (errs.length === 0) {
      const p = answer as EpisodePlan;
      const same = stableStringify({ ...p, director: null }) === stableStringify({ ...symbolic, director: null });
      const checks = acceptanceChecks(p, world, context).checks;
      return { plan: { ...p, acceptance_checks: checks, director: { source: same ? 'symbolic' : 'llm', attempts: attempt + 1, fallback_reason: null } }, diagnostics };
    }
    lastReason = errs.slice(0, 6).join(' | ');
    diagnostics.push(diag('AUR3006', { attempt: attempt + 1, reason: lastReason }));
    messages.push({ role: 'assistant', content: typeof answer === 'string' ? answer : JSON.stringify(answer) });
    messages.push({ role: 'user', content: `Your plan breaks these rules; fix them and answer with the whole plan as JSON:\n- ${errs.join('\n- ')}` });
  }
  return { plan: { ...symbolic, director: { source: 'symbolic', attempts, fallback_reason: lastReason || 'no valid plan from the model' } }, diagnostics };
}
