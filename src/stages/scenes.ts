import path from 'node:path';
import { mkdir } from 'node:fs/promises';
import pLimit from 'p-limit';
import { stableStringify } from '../core/json.js';
import type { EpisodePlan } from '../domain/plan.js';
import type { ResolvedDelta } from '../domain/delta.js';
import type { ScenePacket } from '../domain/packet.js';
import type { ApprovedScene, Finding, RepairCounts, SceneAttempt, SceneReport, VerifierReport } from '../domain/scene.js';
import type { World } from '../domain/world.js';
import type { Llm } from '../ports/llm.js';
import { renderLexiconMd, writerReferences } from './e-writer/prompt.js';
import type { WriterStyle } from './e-writer/types.js';
import type { SceneVerification } from './f-verifier/verify.js';
import { buildCriticRequest, criticNotes, runCritic } from './f-verifier/critic.js';
import { episodeRules } from './f-verifier/rules/episode.js';
import { verifyBase, verifySource, type VerifyBaseSpec } from './f-verifier/world-context.js';
import { planRepair } from './g-repair/policy.js';
import { compareSceneIds, grantRound, type BudgetState } from './g-repair/budget.js';
import type { VerifyPool } from './verify-pool.js';
import { attemptFindings, formatFix, holdOpening, onlyFormBroken, writeDraft, type AttemptEnv, type Draft } from './scene-attempt.js';
import { writeVisible } from '../store/durable.js';

export interface SceneBudgets {
  /** Repairs allowed per scene (spec §9.3: 2): regenerations or punch-ups. The simplified fallback comes after them. */
  per_scene: number;
  /** Repairs allowed per episode, fallbacks included (spec §9.3: 12). */
  per_episode: number;
  /** Format-fix calls per episode (issue 13); default: per_episode. */
  format_fixes?: number;
}

export interface SceneProgress {
  scene: string;
  attempt: number;
  mode: SceneAttempt['mode'];
  verdict: 'PASS' | 'FAIL';
  findings: number;
}

export interface WriteEpisodeScenesOptions {
  llm: Llm;
  plan: EpisodePlan;
  packets: ScenePacket[];
  world: World;
  style: WriterStyle;
  budgets: SceneBudgets;
  concurrency: number;
  seed: string;
  /** Fewest words a scene may have (config verifier.min_scene_words); absent: the verifier's default. */
  minSceneWords?: number;
  /** The run's draft folder: raw outputs go to <draftDir>/drafts/SC04.1.txt, the report to <draftDir>/verifier_report.json. */
  draftDir?: string;
  signal?: AbortSignal;
  onProgress?: (p: SceneProgress) => void;
  /** Worker threads for stage F's verification (stages/verify-pool.ts); absent: in this thread. */
  verifyPool?: VerifyPool;
}

export interface WriteEpisodeScenesResult {
  /** Approved scenes in scene order: passed, or accepted for manual review. */
  scenes: ApprovedScene[];
  report: VerifierReport;
  /** False when a scene keeps a hard finding once the budgets are spent (the pipeline exits 5). */
  ok: boolean;
}

interface Judged {
  v: SceneVerification;
  raw: string;
  findings: Finding[];
  attempt: number;
  model: string;
  simplified: boolean;
}

interface SceneState {
  packet: ScenePacket;
  attempts: SceneAttempt[];
  /** The draft the next repair starts from (a refused punch-up leaves it as it was). */
  base: Judged | null;
  /** The latest draft without a hard finding: what manual review accepts when repairs run out. */
  clean: Judged | null;
  status: 'open' | 'passed' | 'review';
  criticFails: number;
  reason?: string;
}

/** The Director's evaluated prerequisites per application id. */
export function planPrereqs(plan: EpisodePlan): Record<string, { expr: string; holds: boolean }[]> {
  const out: Record<string, { expr: string; holds: boolean }[]> = {};
  for (const b of plan.beats ?? []) for (const a of b.applications) out[a.id] = a.prereqs;
  return out;
}

interface Run {
  opts: WriteEpisodeScenesOptions;
  env: AttemptEnv;
  limit: ReturnType<typeof pLimit>;
  budget: BudgetState;
  fixes: BudgetState;
  states: Map<string, SceneState>;
}

/**
 * Stages E-G for a whole episode: write every scene, verify it, repair it within budget.
 * Scenes run concurrently (p-limit) in rounds; budget grants (repairs, format fixes) are made in
 * scene order within a round (g-repair/budget.ts), each attempt's randomness is forked from
 * (seed, scene, attempt), and results are assembled in scene order: the output is byte-identical
 * at any concurrency. A scene only the critic still fails once its budget is spent is accepted
 * for manual review; only a hard finding no repair removed fails the episode.
 */
export async function writeEpisodeScenes(opts: WriteEpisodeScenesOptions): Promise<WriteEpisodeScenesResult> {
  const packets = [...opts.packets].sort((a, b) => compareSceneIds(a.scene_id, b.scene_id));
  if (opts.draftDir) await mkdir(path.join(opts.draftDir, 'drafts'), { recursive: true });
  const spec: VerifyBaseSpec = { world: verifySource(opts.world), lexicon: opts.style.lexicon, prereqs: planPrereqs(opts.plan), ...(opts.minSceneWords !== undefined ? { min_scene_words: opts.minSceneWords } : {}) };
  const run: Run = {
    opts,
    // One reference per episode, so every writer call of the episode shares one cached prefix.
    env: { llm: opts.llm, style: opts.style, seed: opts.seed, references: writerReferences(packets), sceneCount: packets.length, base: verifyBase(spec), ...(opts.verifyPool ? { verify: opts.verifyPool.verifier(spec) } : {}), draftDir: opts.draftDir, signal: opts.signal },
    limit: pLimit(Math.max(1, opts.concurrency)),
    budget: { per_scene: opts.budgets.per_scene, per_episode: opts.budgets.per_episode, used: 0 },
    fixes: { per_scene: 1, per_episode: opts.budgets.format_fixes ?? opts.budgets.per_episode, used: 0 },
    states: new Map(packets.map((p) => [p.scene_id, { packet: p, attempts: [], base: null, clean: null, status: 'open', criticFails: 0 }])),
  };
  // Round 1: every first draft. Then repair rounds: one more attempt per scene still failing.
  await runRound(run, packets.map((p) => p.scene_id), () => null);
  for (;;) {
    const wanting = packets.map((p) => p.scene_id).filter((id) => wantsRepair(run, run.states.get(id)!));
    if (!wanting.length) break;
    const { granted, denied } = grantRound(run.budget, wanting);
    for (const id of denied) softToReview(run.states.get(id)!, 'the episode repair budget is spent');
    if (!granted.length) break;
    await runRound(run, granted, (st) => planRepair(st.base!.findings, st.attempts.length + 1, opts.budgets.per_scene));
  }
  return finish(run, packets);
}

/** Whether an open scene asks for one more attempt; a soft failure past its budget goes to review instead. */
function wantsRepair(run: Run, st: SceneState): boolean {
  if (st.status !== 'open' || !st.base) return false;
  if (!st.base.v.hard) {
    if (st.attempts.length - 1 < run.opts.budgets.per_scene) return true;
    softToReview(st, `the critic still fails it after ${st.attempts.length - 1} repair(s)`);
    return false;
  }
  // Hard: the per-scene repairs, then the simplified fallback (spec §7.2).
  return st.attempts.length < run.opts.budgets.per_scene + 2;
}

function softToReview(st: SceneState, why: string): void {
  if (st.status === 'open' && st.base && !st.base.v.hard) {
    st.status = 'review';
    st.reason = why;
  }
}

/** One round: every granted scene's draft, the format fixes (granted in scene order), a punch-up's kept opening, the critics, then the bookkeeping in scene order. */
async function runRound(run: Run, ids: string[], planFor: (st: SceneState) => ReturnType<typeof planRepair> | null): Promise<void> {
  const drafts = await Promise.all(
    ids.map((id) => {
      const st = run.states.get(id)!;
      const plan = planFor(st);
      return run.limit(() => writeDraft(run.env, { scene: st.packet, attempt: st.attempts.length + 1, plan, previous: st.base }));
    }),
  );
  const broken = drafts.filter((d) => !d.refused && onlyFormBroken(d.v)).map((d) => d.packet.scene_id);
  const { granted } = grantRound(run.fixes, broken);
  const fixed = await Promise.all(
    drafts.map(async (d) => holdOpening(run.env, granted.includes(d.packet.scene_id) ? await run.limit(() => formatFix(run.env, d)) : d)),
  );
  const critics = await Promise.all(fixed.map((d) => run.limit(() => critique(run, d))));
  fixed.forEach((d, i) => settle(run, d, critics[i]!));
}

async function critique(run: Run, d: Draft): Promise<{ findings: Finding[]; critic: SceneAttempt['critic'] }> {
  if (d.refused || d.v.hard) return { findings: [], critic: null };
  const st = run.states.get(d.packet.scene_id)!;
  const { style, signal } = run.env;
  const req = buildCriticRequest(d.packet, d.v.parsed.scene_text, d.v.parsed.claims, d.v.parsed.events, d.attempt.attempt, signal, style.lexicon_md ?? renderLexiconMd(style.lexicon), style.guide);
  // Two FAILs from the small critic: the third look is the escalation critic's (`escalations.critic`, spec §6.4).
  if (st.criticFails >= 2) req.escalate = true;
  const c = await runCritic(run.env.llm, req);
  return { findings: c.findings, critic: criticNotes(c.verdict) };
}

function settle(run: Run, d: Draft, c: { findings: Finding[]; critic: SceneAttempt['critic'] }): void {
  const st = run.states.get(d.packet.scene_id)!;
  const findings = attemptFindings(d, c.findings);
  const verdict = !d.refused && !d.v.hard && c.critic?.verdict === 'PASS' ? 'PASS' : 'FAIL';
  const notes = d.v.normalisations;
  const attempt: SceneAttempt = { ...d.attempt, findings, critic: c.critic, verdict, ...(notes.length ? { normalisations: notes } : {}) };
  st.attempts.push(attempt);
  if (c.critic?.verdict === 'FAIL') st.criticFails++;
  if (!d.refused) {
    const judged: Judged = { v: d.v, raw: d.raw, findings, attempt: attempt.attempt, model: attempt.model, simplified: attempt.mode === 'simplified' };
    st.base = judged;
    if (!d.v.hard) st.clean = judged;
  }
  if (verdict === 'PASS') st.status = 'passed';
  run.opts.onProgress?.({ scene: d.packet.scene_id, attempt: attempt.attempt, mode: attempt.mode, verdict, findings: findings.length });
}

function approve(st: SceneState, j: Judged): ApprovedScene {
  return {
    scene: st.packet.scene_id,
    text: j.v.parsed.scene_text,
    // A delta copied verbatim from the packet may carry its application_id: the event has it already.
    events: j.v.parsed.events.map((e) => ({ ...e, deltas: (e.deltas ?? []).map(({ application_id: _a, ...d }: ResolvedDelta & { application_id?: string }) => d) })),
    accepted_claims: j.v.accepted_claims,
    downgraded_claims: j.v.downgraded_claims,
    attempts: st.attempts.length,
    model: j.model,
    simplified: j.simplified,
  };
}

/** Every repair by its kind (§9.3), from the attempts made. */
function repairCounts(states: SceneState[]): RepairCounts {
  const n: RepairCounts = { regenerate: 0, punch_up: 0, simplified: 0, format_fix: 0 };
  for (const a of states.flatMap((s) => s.attempts)) {
    if (a.mode === 'regenerate' || a.mode === 'punch_up' || a.mode === 'simplified') n[a.mode]++;
    if (a.format_fix) n.format_fix++;
  }
  return n;
}

async function finish(run: Run, packets: ScenePacket[]): Promise<WriteEpisodeScenesResult> {
  const reports: SceneReport[] = [];
  const scenes: ApprovedScene[] = [];
  for (const p of packets) {
    const st = run.states.get(p.scene_id)!;
    // A hard finding the last repairs kept, after an earlier draft without one: that draft, for review.
    if (st.status === 'open' && st.clean) {
      st.status = 'review';
      st.reason = `its repairs kept a hard finding; attempt ${st.clean.attempt} had none`;
    }
    const chosen = st.status === 'passed' ? st.base : st.status === 'review' ? st.clean : null;
    const review = st.status === 'review' || Boolean(chosen?.simplified);
    const reason = st.reason ?? (review ? 'rewritten with a simplified operator set' : undefined);
    reports.push({ scene: p.scene_id, attempts: st.attempts, final_verdict: chosen ? 'PASS' : 'FAIL', manual_review: review, ...(reason ? { review_reason: reason } : {}) });
    if (chosen) scenes.push(approve(st, chosen));
  }
  const approved = new Set(scenes.map((s) => s.scene));
  const ok = scenes.length === packets.length;
  const { per_scene, per_episode, format_fixes } = run.opts.budgets;
  const report: VerifierReport = {
    format: 1,
    episode_id: run.opts.plan.episode_id,
    scenes: reports,
    episode_findings: episodeRules(run.opts.plan, run.opts.world, approved),
    budget: { per_scene, per_episode, used: run.budget.used, format_fixes: format_fixes ?? per_episode, by_kind: repairCounts([...run.states.values()]) },
    manual_review: reports.filter((r) => r.manual_review && r.final_verdict === 'PASS').map((r) => r.scene),
    verdict: ok ? 'PASS' : 'FAIL',
  };
  if (run.opts.draftDir) writeVisible(path.join(run.opts.draftDir, 'verifier_report.json'), stableStringify(report));
  return { scenes, report, ok };
}
