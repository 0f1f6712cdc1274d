import type { EpisodeContext } from '../../domain/episode-context.js';
import type { AcceptanceCheck, EpisodePlan } from '../../domain/plan.js';
import type { AgentProposals } from '../../domain/proposals.js';
import type { SeasonGoals, World } from '../../domain/world.js';
import { isBadModelAnswer, type Llm, type LlmMessage } from '../../ports/llm.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { diag } from '../../diagnostics/catalog.js';
import '../../diagnostics/codes/planning.js';
import { stripModelAnswer } from '../../diagnostics/model-text.js';
import { isAureusError } from '../../errors.js';
import { stableStringify } from '../../core/json.js';
import { acceptanceChecks } from './checks.js';
import { applyEdit, DIRECTOR_EDIT_SCHEMA, identityEdit, type DirectorEdit } from './edit.js';
import { validateAgainst, validateDirectorEdit } from './schemas.js';

/** Re-asks of the director model after its first answer: one, then the symbolic plan (issue 11). */
export const DIRECTOR_RETRIES = 1;

/** The Director's role instructions: identical for every episode, so they cache. */
export const DIRECTOR_SYSTEM = `You are the Director of Aureus, a late-Roman-Republic political thriller and soap.
A symbolic planner has already built this episode's plan: every move, binding, outcome and state change is fixed and checked.
Your job is the dramatic shape, as a small JSON edit of that plan:
- "title": the episode's title (a few words, period-appropriate).
- "act_order" (optional): for an act whose scenes play better in another order, that act's scene ids in the new order.
  Keep every scene of the act exactly once; the CLIFFHANGER scene stays last; travel days and prerequisites must still hold.
- "scenes": for each scene id, one or two sentences of purpose: what the scene must make the audience feel or learn.
Answer with the JSON object only.`;

/** Why a model's plan is unacceptable, or null. Schema first, then every rule recomputed by us. */
export function planErrors(candidate: unknown, world: World, context: EpisodeContext, seed: string): string[] {
  return checkPlan(candidate, world, context, seed).errors;
}

/** planErrors, with the acceptance checks it ran (null when the plan could not be checked): the accepted plan keeps them. */
function checkPlan(candidate: unknown, world: World, context: EpisodeContext, seed: string): { errors: string[]; checks: AcceptanceCheck[] | null } {
  const schemaErr = validateAgainst('episode_plan', candidate);
  if (schemaErr) return { errors: [`schema: ${schemaErr}`], checks: null };
  const p = candidate as EpisodePlan;
  const errs: string[] = [];
  if (p.episode_id !== context.episode_id) errs.push(`episode_id must be ${context.episode_id}`);
  if (p.seed !== seed) errs.push(`seed must be ${seed} (risk rolls are checked against it)`);
  if (p.state_hash !== context.state_hash) errs.push('state_hash must be the snapshot\'s');
  let checks: AcceptanceCheck[] | null = null;
  try {
    checks = acceptanceChecks(p, world, context).checks;
    for (const c of checks) if (!c.passed) errs.push(`${c.id} (${c.rule}): ${c.detail}`);
  } catch (e) {
    errs.push(`plan could not be checked: ${e instanceof Error ? e.message : String(e)}`);
  }
  return { errors: errs, checks };
}

/** What the model reads: the plan's shape in compact JSON, not the plan file (deltas and rolls stay ours). */
export function directorBrief(
  symbolic: EpisodePlan, context: EpisodeContext, seasonGoals: SeasonGoals | null, showrunner: Record<string, unknown> | null = null,
): string {
  const beatsOf = (id: string) =>
    symbolic.beats.filter((b) => b.scene === id).map((b) => ({ tag: b.tag, phase: b.phase, summary: b.summary, moves: b.applications.map((a) => `${a.operator_id}(${Object.values(a.bindings).join(',')}) ${a.outcome}`) }));
  return JSON.stringify({
    EPISODE: { id: context.episode_id, date: context.date_text, title: symbolic.title },
    SEASON_GOALS: seasonGoals ? seasonGoals.goals.map((g) => g.text) : null,
    THREADS: context.active_threads.map((t) => ({ id: t.id, question: t.question, type: t.type, progress: t.progress })),
    CLIFFHANGER_CONSTRAINTS: context.previous_cliffhanger,
    SCENES: symbolic.scenes.map((s) => ({ id: s.id, act: s.act, day: s.day, where: s.location, when: s.time_of_day, cast: s.cast, purpose: s.purpose, beats: beatsOf(s.id) })),
    // The showrunner's steering and notes for this episode (issue 16), when there are any.
    ...(showrunner ? { SHOWRUNNER: showrunner } : {}),
  });
}

/**
 * The edited plan to check: an edit that changes nothing (the identity edit: what the offline
 * provider answers, and a model may too) gives a plan equal to the symbolic one, which is then
 * checked as the symbolic plan's own objects, so the acceptance replay is the one the Director
 * already made (checks.ts keeps it per beats list: issue 18, a second replay of the whole episode).
 */
function sameOrEdited(p: EpisodePlan, symbolic: EpisodePlan): { plan: EpisodePlan; same: boolean } {
  const same = stableStringify({ ...p, director: null }) === stableStringify({ ...symbolic, director: null });
  return { plan: same ? { ...symbolic, director: p.director } : p, same };
}

/**
 * Stage C through the LLM port (role `director`): one call on the critical path. The model answers
 * a DirectorEdit (structured output); we apply it to the symbolic plan and re-check every
 * acceptance rule. An edit that cannot be applied or breaks a rule is re-asked once with the
 * reasons, then the symbolic plan is used with the reason recorded. Only a bad model answer falls
 * back: an outage, a replay miss, the cost cap or Ctrl-C end the run (resumable).
 */
export async function directWithLlm(
  symbolic: EpisodePlan, world: World, context: EpisodeContext, proposals: AgentProposals, llm: Llm, retries = DIRECTOR_RETRIES,
  seasonGoals: SeasonGoals | null = null,
  /** The showrunner's steering and notes (issue 16, stages/c-director/steering.ts showrunnerBrief); absent when none. */
  showrunner: Record<string, unknown> | null = null,
): Promise<{ plan: EpisodePlan; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  const messages: LlmMessage[] = [{ role: 'user', content: directorBrief(symbolic, context, seasonGoals, showrunner) }];
  let lastReason = '';
  let attempts = 0;
  for (let attempt = 0; attempt <= retries; attempt++) {
    attempts = attempt + 1;
    let edit: DirectorEdit;
    try {
      const res = await llm.complete({
        role: 'director',
        system: DIRECTOR_SYSTEM,
        cache_system: true,
        messages,
        json_schema: DIRECTOR_EDIT_SCHEMA,
        schema_name: 'director_edit',
        // Our own re-ask below carries the planning errors too; the router's would not.
        max_reasks: 0,
        payload: { plan: symbolic, context, proposals, edit: identityEdit(symbolic) },
        meta: { episode: context.episode_id, attempt },
      });
      // The title and purposes are committed (episode_plan.json, the script, the commit subject).
      const clean = stripModelAnswer(res.json ?? JSON.parse(res.text), 'director');
      diagnostics.push(...clean.warnings);
      edit = clean.value as DirectorEdit;
    } catch (e) {
      if (isAureusError(e) && !isBadModelAnswer(e)) throw e;
      lastReason = `${isBadModelAnswer(e) ? 'bad answer' : 'provider error'}: ${e instanceof Error ? e.message : String(e)}`;
      diagnostics.push(diag('AUR3006', { attempt: attempts, reason: lastReason }));
      if (!isBadModelAnswer(e)) break;
      messages.push({ role: 'user', content: 'Your answer was not a valid director_edit JSON object. Answer again with the JSON object only.' });
      continue;
    }
    const schemaErr = validateDirectorEdit(edit);
    const applied = schemaErr ? null : applyEdit(symbolic, edit);
    const edited = applied && 'plan' in applied ? sameOrEdited(applied.plan, symbolic) : null;
    const checked = edited ? checkPlan(edited.plan, world, context, symbolic.seed) : null;
    const errs = checked ? checked.errors : schemaErr ? [`schema: ${schemaErr}`] : applied && 'errors' in applied ? applied.errors : [];
    if (errs.length === 0 && edited && checked?.checks) {
      return { plan: { ...edited.plan, acceptance_checks: checked.checks, director: { source: edited.same ? 'symbolic' : 'llm', attempts, fallback_reason: null } }, diagnostics };
    }
    lastReason = errs.slice(0, 6).join(' | ');
    diagnostics.push(diag('AUR3006', { attempt: attempts, reason: lastReason }));
    messages.push({ role: 'assistant', content: JSON.stringify(edit) });
    messages.push({ role: 'user', content: `Your edit breaks these rules; fix them and answer with the whole edit as JSON:\n- ${errs.join('\n- ')}` });
  }
  return { plan: { ...symbolic, director: { source: 'symbolic', attempts, fallback_reason: lastReason || 'no valid edit from the model' } }, diagnostics };
}
