import path from 'node:path';
import { mkdir } from 'node:fs/promises';
import writeFileAtomic from 'write-file-atomic';
import pLimit from 'p-limit';
import { stableStringify } from '../core/json.js';
import type { EpisodePlan } from '../domain/plan.js';
import type { ResolvedDelta } from '../domain/delta.js';
import type { ScenePacket } from '../domain/packet.js';
import type { ApprovedScene, Finding, SceneAttempt, SceneReport, VerifierReport } from '../domain/scene.js';
import type { World } from '../domain/world.js';
import type { Llm } from '../ports/llm.js';
import { buildWriterRequest, renderLexiconMd, writerReferences } from './e-writer/prompt.js';
import type { WriterStyle } from './e-writer/types.js';
import type { VerifyContext } from './f-verifier/context.js';
import { verifySceneOutput, type SceneVerification } from './f-verifier/verify.js';
import { buildCriticRequest, runCritic } from './f-verifier/critic.js';
import { episodeRules } from './f-verifier/rules/episode.js';
import { finding } from './f-verifier/context.js';
import { worldVerifyContext } from './f-verifier/world-context.js';
import { keepOpening, planRepair, simplifyPacket, type RepairPlan } from './g-repair/policy.js';
import { compareSceneIds, grantRound, type BudgetState } from './g-repair/budget.js';

export interface SceneBudgets {
  /** Regenerations allowed per scene (spec §9.3: 2). The simplified fallback comes after them. */
  per_scene: number;
  /** Regenerations allowed per episode, fallbacks included (spec §9.3: 12). */
  per_episode: number;
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
  /** The run's draft folder: raw outputs go to <draftDir>/drafts/SC04.1.txt, the report to <draftDir>/verifier_report.json. */
  draftDir?: string;
  signal?: AbortSignal;
  onProgress?: (p: SceneProgress) => void;
}

export interface WriteEpisodeScenesResult {
  /** Approved scenes in scene order (only the ones that passed). */
  scenes: ApprovedScene[];
  report: VerifierReport;
  /** False when a scene is still failing once the budgets are spent (the pipeline exits 5). */
  ok: boolean;
}

interface SceneState {
  packet: ScenePacket;
  attempts: SceneAttempt[];
  last: SceneVerification | null;
  lastPacket: ScenePacket;
  model: string;
  passed: boolean;
  simplified: boolean;
}

/** The Director's evaluated prerequisites per application id. */
export function planPrereqs(plan: EpisodePlan): Record<string, { expr: string; holds: boolean }[]> {
  const out: Record<string, { expr: string; holds: boolean }[]> = {};
  for (const b of plan.beats ?? []) for (const a of b.applications) out[a.id] = a.prereqs;
  return out;
}

/**
 * Stages E-G for a whole episode: write every scene, verify it, repair it within budget.
 * Scenes run concurrently (p-limit) in rounds; budget grants are made in scene order between
 * rounds (g-repair/budget.ts), each attempt's randomness is forked from (seed, scene, attempt),
 * and results are assembled in scene order: the output is byte-identical at any concurrency.
 */
export async function writeEpisodeScenes(opts: WriteEpisodeScenesOptions): Promise<WriteEpisodeScenesResult> {
  const packets = [...opts.packets].sort((a, b) => compareSceneIds(a.scene_id, b.scene_id));
  const base: Omit<VerifyContext, 'packet'> = { ...worldVerifyContext(opts.world, opts.style.lexicon), prereqs: planPrereqs(opts.plan) };
  const limit = pLimit(Math.max(1, opts.concurrency));
  const budget: BudgetState = { per_scene: opts.budgets.per_scene, per_episode: opts.budgets.per_episode, used: 0 };
  const states = new Map<string, SceneState>(
    packets.map((p) => [p.scene_id, { packet: p, attempts: [], last: null, lastPacket: p, model: '', passed: false, simplified: false }]),
  );
  if (opts.draftDir) await mkdir(path.join(opts.draftDir, 'drafts'), { recursive: true });
  // One reference per episode, so every writer call of the episode shares one cached prefix.
  const references = writerReferences(packets);

  const runAttempt = async (st: SceneState, plan: RepairPlan | null): Promise<void> => {
    opts.signal?.throwIfAborted();
    const attempt = st.attempts.length + 1;
    const mode = plan?.mode ?? 'write';
    const packet = mode === 'simplified' ? simplifyPacket(st.packet) : st.packet;
    const prevText = st.last?.parsed.scene_text ?? '';
    const req = buildWriterRequest(packet, opts.style, {
      seed: opts.seed,
      attempt,
      mode,
      prohibitions: plan?.prohibitions,
      prohibited_codes: plan?.prohibited_codes,
      restate_deltas: plan?.restate_deltas,
      strict_json: plan?.strict_json,
      // Marquee scenes (cold open, reversal, finale) get the escalation model from the start (spec §6.3).
      escalate: plan?.escalate || packet.marquee || undefined,
      references,
      signal: opts.signal,
      ...(mode === 'punch_up' && st.last
        ? {
            keep_text: keepOpening(prevText, plan?.keep_fraction),
            keep_claims_json: JSON.stringify(st.last.parsed.claims),
            keep_events_json: JSON.stringify(st.last.parsed.events),
          }
        : {}),
    });
    const res = await opts.llm.complete(req);
    const rawFile = `drafts/${packet.scene_id}.${attempt}.txt`;
    if (opts.draftDir) await writeFileAtomic(path.join(opts.draftDir, rawFile), res.text, { fsync: false });
    const ctx: VerifyContext = { ...base, packet };
    const v = verifySceneOutput(res.text, ctx);
    let critic: SceneAttempt['critic'] = null;
    const findings: Finding[] = [...v.findings];
    if (!v.hard) {
      const c = await runCritic(opts.llm, buildCriticRequest(packet, v.parsed.scene_text, v.parsed.claims, v.parsed.events, attempt, opts.signal, opts.style.lexicon_md ?? renderLexiconMd(opts.style.lexicon)));
      critic = { verdict: c.verdict.verdict, notes: [...c.verdict.violations.map((x) => x.message), ...c.verdict.warnings] };
      findings.push(...c.findings);
    }
    const verdict = !v.hard && critic?.verdict === 'PASS' ? 'PASS' : 'FAIL';
    // The simplified fallback is logged for manual review (spec §7.2), as a soft finding on its attempt.
    if (mode === 'simplified') findings.push(finding('AUR5091', 'soft', packet.scene_id, 'repair.simplified', { scene: packet.scene_id }));
    st.attempts.push({ attempt, model: res.model, mode, raw_file: rawFile, findings, critic, verdict, ...(v.normalisations.length ? { normalisations: v.normalisations } : {}) });
    st.last = { ...v, findings };
    st.lastPacket = packet;
    st.model = res.model;
    st.passed = verdict === 'PASS';
    st.simplified = mode === 'simplified';
    opts.onProgress?.({ scene: packet.scene_id, attempt, mode, verdict, findings: findings.length });
  };

  // Round 1: every first draft.
  await Promise.all(packets.map((p) => limit(() => runAttempt(states.get(p.scene_id)!, null))));
  // Repair rounds: one more attempt per failing scene, granted in scene order.
  const maxAttempts = opts.budgets.per_scene + 2; // write + per-scene regenerations + simplified fallback
  for (;;) {
    const wanting = packets.filter((p) => {
      const st = states.get(p.scene_id)!;
      return !st.passed && st.attempts.length < maxAttempts;
    });
    if (!wanting.length) break;
    const { granted } = grantRound(budget, wanting.map((p) => p.scene_id));
    if (!granted.length) break;
    await Promise.all(
      granted.map((id) =>
        limit(() => {
          const st = states.get(id)!;
          return runAttempt(st, planRepair(st.last!.findings, st.attempts.length + 1, opts.budgets.per_scene));
        }),
      ),
    );
  }

  const reports: SceneReport[] = [];
  const scenes: ApprovedScene[] = [];
  for (const p of packets) {
    const st = states.get(p.scene_id)!;
    reports.push({ scene: p.scene_id, attempts: st.attempts, final_verdict: st.passed ? 'PASS' : 'FAIL', manual_review: st.simplified });
    if (st.passed && st.last) {
      scenes.push({
        scene: p.scene_id,
        text: st.last.parsed.scene_text,
        // A delta copied verbatim from the packet may carry its application_id: the event has it already.
        events: st.last.parsed.events.map((e) => ({ ...e, deltas: (e.deltas ?? []).map(({ application_id: _a, ...d }: ResolvedDelta & { application_id?: string }) => d) })),
        accepted_claims: st.last.accepted_claims,
        downgraded_claims: st.last.downgraded_claims,
        attempts: st.attempts.length,
        model: st.model,
        simplified: st.simplified,
      });
    }
  }
  const approved = new Set(scenes.map((s) => s.scene));
  const ok = scenes.length === packets.length;
  const report: VerifierReport = {
    format: 1,
    episode_id: opts.plan.episode_id,
    scenes: reports,
    episode_findings: episodeRules(opts.plan, opts.world, approved),
    budget: { per_scene: opts.budgets.per_scene, per_episode: opts.budgets.per_episode, used: budget.used },
    verdict: ok ? 'PASS' : 'FAIL',
  };
  if (opts.draftDir) await writeFileAtomic(path.join(opts.draftDir, 'verifier_report.json'), stableStringify(report), { fsync: false });
  return { scenes, report, ok };
}
