import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Finding, SceneAttempt } from '../domain/scene.js';
import type { World } from '../domain/world.js';
import type { ConfigOverrides } from '../config/types.js';
import type { ConfigFile } from '../config/load.js';
import { buildWriterRequest, renderLexiconMd, writerReferences, writerStyleFrom } from '../stages/e-writer/prompt.js';
import { verifySceneOutput } from '../stages/f-verifier/verify.js';
import { buildCriticRequest, criticNotes, runCritic } from '../stages/f-verifier/critic.js';
import { keepOpening, planRepair, type RepairPlan } from '../stages/g-repair/policy.js';
import { formatFix, onlyFormBroken, type AttemptEnv } from '../stages/scene-attempt.js';
import { JournaledLlm } from './call-journal.js';
import { loadStaged, recordVersion, requireUnpinned, sceneIdOf, verifyContext } from './scene-ops.js';
import { sceneState, writeReview } from './review-state.js';

/**
 * `aureus scene rewrite <SCxx> [--note]` (issue 16): the Writer writes the scene anew with the
 * showrunner's note, then the verifier and critic judge it; a failed draft is repaired within the
 * per-scene budget, keeping the note. Each rewrite carries a nonce (rewrite/1, rewrite/2, …) in its
 * prompt, so neither the run's call journal nor the record cache can answer with an old draft.
 * Calls go through the run's journal and run log: the episode's cost includes them.
 */
export interface RewriteResult {
  scene: string;
  adopted: boolean;
  attempts: SceneAttempt[];
  findings: Finding[];
}

export async function rewriteScene(o: { root: string; world: World; scene: string; note?: string; overrides?: ConfigOverrides; configFile?: ConfigFile; env?: NodeJS.ProcessEnv; signal?: AbortSignal }): Promise<RewriteResult> {
  const st = loadStaged(o.root);
  const id = sceneIdOf(st, o.scene);
  requireUnpinned(st, id);
  const state = sceneState(st.review, id);
  const nonce = `rewrite/${state.rewrites + 1}`;
  // The nonce is spent before the call: a crash mid-rewrite never makes the next one a replay.
  st.review.scenes[id] = { ...state, rewrites: state.rewrites + 1, notes: [...state.notes, o.note ?? ''] };
  writeReview(o.root, st.review);

  // The config file as the caller's validation read it (else read here), with the flags over it.
  const { readConfigFile, resolveConfig, configOrThrow } = await import('../config/load.js');
  const { config } = configOrThrow(resolveConfig(o.configFile ?? readConfigFile(o.root), o.overrides));
  const { JsonlRunLog, openLlm } = await import('../providers/index.js');
  const { loadStyle } = await import('../style/index.js');
  const runLog = new JsonlRunLog(path.join(st.runDir, 'run_log.jsonl'));
  const router = openLlm({ root: o.root, config, seed: st.review.seed, runLog, signal: o.signal, env: o.env ?? process.env });
  const llm = new JournaledLlm(router, st.runDir, () => runLog.flush(), () => {}, { provider: router.providerId, models: config.models, chaos: config.chaos });
  const s = await loadStyle(o.root);
  const style = writerStyleFrom(s);
  const packet = st.planning.packets.find((p) => p.scene_id === id)!;
  // The same reference as the run's own calls, so a rewrite reads the episode's cached prefix.
  const references = writerReferences(st.planning.packets);
  const ctx = await verifyContext(o.root, o.world, st, id, config.verifier.min_scene_words);

  const attempts: SceneAttempt[] = [];
  let repair: RepairPlan | null = null;
  let last: { raw: string; text: string; claims: unknown[]; events: unknown[]; findings: Finding[] } | null = null;
  for (let k = 0; k <= config.budgets.per_scene; k++) {
    const n = st.scenes.report.scenes.find((x) => x.scene === id)!.attempts.length + 1;
    const mode = repair?.mode ?? 'rewrite';
    const req = buildWriterRequest(packet, style, {
      seed: st.review.seed,
      attempt: n,
      mode,
      prohibitions: repair?.prohibitions,
      prohibited_codes: repair?.prohibited_codes,
      restate_deltas: repair?.restate_deltas,
      strict_json: repair?.strict_json,
      escalate: repair?.escalate || packet.marquee || undefined,
      references,
      scene_count: st.planning.packets.length,
      note: o.note,
      nonce: k === 0 ? nonce : `${nonce}/${k + 1}`,
      signal: o.signal,
      ...(mode === 'regenerate' && last ? { previous_draft: last.raw, spans: repair?.spans } : {}),
      ...(mode === 'punch_up' && last
        ? { keep_text: keepOpening(last.text, repair?.keep_fraction), keep_claims_json: JSON.stringify(last.claims), keep_events_json: JSON.stringify(last.events) }
        : {}),
    });
    const res = await llm.complete(req);
    // A draft whose form alone is broken gets the episode run's one format-fix call first (issue 13).
    const fixEnv: AttemptEnv = { llm, style, seed: st.review.seed, references, sceneCount: st.planning.packets.length, base: ctx, draftDir: st.runDir, signal: o.signal };
    const { raw, v, fix } = await readOrFix(fixEnv, packet, id, n, mode, res, verifySceneOutput(res.text, ctx));
    const findings = [...v.findings];
    let critic: SceneAttempt['critic'] = null;
    if (!v.hard) {
      const c = await runCritic(llm, buildCriticRequest(packet, v.parsed.scene_text, v.parsed.claims, v.parsed.events, n, o.signal, style.lexicon_md ?? renderLexiconMd(style.lexicon), style.guide));
      critic = criticNotes(c.verdict);
      findings.push(...c.findings);
    }
    const verdict = !v.hard && critic?.verdict === 'PASS' ? 'PASS' : 'FAIL';
    const attempt = recordVersion(st, id, {
      raw,
      verification: { ...v, findings },
      attempt: { model: res.model, mode, ...(o.note ? { note: o.note } : {}), ...fix, findings, critic, verdict },
      adopt: verdict === 'PASS',
    });
    attempts.push(attempt);
    await runLog.flush();
    if (verdict === 'PASS') return { scene: id, adopted: true, attempts, findings };
    last = { raw, text: v.parsed.scene_text, claims: v.parsed.claims, events: v.parsed.events, findings };
    repair = planRepair(findings, k + 2, config.budgets.per_scene);
  }
  return { scene: id, adopted: false, attempts, findings: last?.findings ?? [] };
}

/**
 * The draft as it is judged: the model's answer, or — when only its form is broken — the format
 * fixer's, taken only with the prose unchanged (stages/scene-attempt.ts). With a fix taken, the
 * model's own answer is kept beside it as drafts/SCxx.n.model.txt (`model_file`).
 */
async function readOrFix(
  env: AttemptEnv,
  packet: Parameters<typeof formatFix>[1]['packet'],
  id: string,
  n: number,
  mode: SceneAttempt['mode'],
  res: { text: string; model: string },
  v: ReturnType<typeof verifySceneOutput>,
): Promise<{ raw: string; v: ReturnType<typeof verifySceneOutput>; fix: Partial<SceneAttempt> }> {
  if (!onlyFormBroken(v)) return { raw: res.text, v, fix: {} };
  const draft = { attempt: { attempt: n, model: res.model, mode, raw_file: `drafts/${id}.${n}.txt`, findings: [], critic: null, verdict: 'FAIL' as const }, packet, raw: res.text, v, refused: false };
  const fixed = await formatFix(env, draft);
  const record = fixed.attempt.format_fix!;
  if (record.outcome !== 'accepted') return { raw: res.text, v, fix: { format_fix: record } };
  const modelFile = `drafts/${id}.${n}.model.txt`;
  await writeFile(path.join(env.draftDir!, modelFile), res.text);
  return { raw: fixed.raw, v: fixed.v, fix: { format_fix: record, model_file: modelFile } };
}
