import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Finding, SceneAttempt } from '../domain/scene.js';
import type { World } from '../domain/world.js';
import type { ConfigOverrides } from '../config/types.js';
import type { ConfigFile } from '../config/load.js';
import type { Diagnostic } from '../diagnostics/index.js';
import { renderLexiconMd, writerReferences, writerStyleFrom } from '../stages/e-writer/prompt.js';
import { buildCriticRequest, criticNotes, runCritic } from '../stages/f-verifier/critic.js';
import { planRepair, type RepairPlan } from '../stages/g-repair/policy.js';
import { attemptFindings, formatFix, holdOpening, onlyFormBroken, writeDraft, type AttemptEnv, type WriteStep } from '../stages/scene-attempt.js';
import { JournaledLlm, journalSalt } from './call-journal.js';
import { loadStaged, recordVersion, requireUnpinned, sceneIdOf, verifyContext, type StagedEpisode } from './scene-ops.js';
import { testKillHook } from './checkpoint.js';
import { interruptedDuring } from '../diagnostics/interrupted.js';
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

export interface RewriteOptions {
  root: string;
  world: World;
  scene: string;
  note?: string;
  overrides?: ConfigOverrides;
  configFile?: ConfigFile;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /** Told the config's warnings (a model at its end-of-life, AUR4010) before the first model call, and a corrupt cache entry (AUR4302) when read. */
  onWarnings?: (list: Diagnostic[]) => void;
}

export async function rewriteScene(o: RewriteOptions): Promise<RewriteResult> {
  const st = loadStaged(o.root);
  const id = sceneIdOf(st, o.scene);
  requireUnpinned(st, id);
  try {
    if (o.signal?.aborted) throw o.signal.reason;
    return await rewrite(o, st, id);
  } catch (e) {
    // Ctrl-C or SIGTERM aborts the call under way with the signal's name: that is an interrupt
    // (exit 130), not a bug; so is any failure after it (a git the Ctrl-C stopped says AUR6008 with a
    // run's hint). No draft of this rewrite passed, so the scene keeps its text.
    if (!o.signal?.aborted) throw e;
    const hint = `${id} keeps its text (a draft judged before the stop is kept in the run folder's drafts/ and counted in its attempts); run \`aureus scene rewrite ${id}\` again: it asks anew`;
    throw interruptedDuring(`the rewrite of ${id}`, { hint, cause: e });
  }
}

async function rewrite(o: RewriteOptions, st: StagedEpisode, id: string): Promise<RewriteResult> {
  const state = sceneState(st.review, id);
  const n = (state.nonce ?? state.rewrites) + 1;
  const nonce = `rewrite/${n}`;
  // The nonce is spent before the call: a crash mid-rewrite never makes the next one a replay. The
  // rewrite itself (its count, its note) is recorded only with its first draft (recordVersion): a
  // rewrite interrupted before any changed nothing, and must not read as done in the trailers.
  st.review.scenes[id] = { ...state, nonce: n };
  writeReview(o.root, st.review);
  testKillHook('rewrite-nonce');

  // The config file as the caller's validation read it (else read here), with the flags over it.
  const { readConfigFile, resolveConfig, configOrThrow, configWarnings } = await import('../config/load.js');
  const loaded = configOrThrow(resolveConfig(o.configFile ?? readConfigFile(o.root), o.overrides));
  const { config } = loaded;
  // They concern the calls this rewrite makes: said now, as `episode run` and `episode plan` say them.
  const warned = configWarnings(loaded);
  if (warned.length) o.onWarnings?.(warned);
  const { JsonlRunLog, openLlm } = await import('../providers/index.js');
  const { loadStyle } = await import('../style/index.js');
  const runLog = new JsonlRunLog(path.join(st.runDir, 'run_log.jsonl'));
  const router = openLlm({ root: o.root, config, seed: st.review.seed, runLog, signal: o.signal, env: o.env ?? process.env, onWarning: (d) => o.onWarnings?.([d]) });
  const llm = new JournaledLlm(router, st.runDir, () => runLog.flush(), () => {}, journalSalt(router.providerId, config), (d) => o.onWarnings?.([d]));
  const s = await loadStyle(o.root);
  const style = writerStyleFrom(s);
  const packet = st.planning.packets.find((p) => p.scene_id === id)!;
  // The same reference as the run's own calls, so a rewrite reads the episode's cached prefix.
  const references = writerReferences(st.planning.packets);
  const ctx = await verifyContext(o.root, o.world, st, id, config.verifier.min_scene_words);

  // The run's own steps (stages/scene-attempt.ts): one way to ask the Writer, the note and nonce its parameters.
  const env: AttemptEnv = { llm, style, seed: st.review.seed, references, sceneCount: st.planning.packets.length, base: ctx, draftDir: st.runDir, signal: o.signal };
  await mkdir(path.join(st.runDir, 'drafts'), { recursive: true });
  const attempts: SceneAttempt[] = [];
  let repair: RepairPlan | null = null;
  let previous: WriteStep['previous'] = null;
  let findings: Finding[] = [];
  for (let k = 0; k <= config.budgets.per_scene; k++) {
    const n = st.scenes.report.scenes.find((x) => x.scene === id)!.attempts.length + 1;
    const rewrite = { nonce: k === 0 ? nonce : `${nonce}/${k + 1}`, ...(o.note !== undefined ? { note: o.note } : {}) };
    const drafted = await writeDraft(env, { scene: packet, attempt: n, plan: repair, previous, rewrite });
    // A draft whose form alone is broken gets the one format-fix call first (issue 13).
    const d = await holdOpening(env, onlyFormBroken(drafted.v) ? await formatFix(env, drafted) : drafted);
    let critic: SceneAttempt['critic'] = null;
    let criticFindings: Finding[] = [];
    if (!d.refused && !d.v.hard) {
      const c = await runCritic(llm, buildCriticRequest(d.packet, d.v.parsed.scene_text, d.v.parsed.claims, d.v.parsed.events, n, o.signal, style.lexicon_md ?? renderLexiconMd(style.lexicon), style.guide));
      critic = criticNotes(c.verdict);
      criticFindings = c.findings;
    }
    findings = attemptFindings(d, criticFindings);
    const verdict = !d.refused && !d.v.hard && critic?.verdict === 'PASS' ? 'PASS' : 'FAIL';
    const notes = d.v.normalisations;
    if (k === 0) st.review.scenes[id] = { ...sceneState(st.review, id), notes: [...state.notes, o.note ?? ''] };
    const attempt = recordVersion(st, id, {
      raw: d.raw,
      verification: { ...d.v, findings },
      attempt: { ...d.attempt, ...(o.note ? { note: o.note } : {}), findings, critic, verdict, ...(notes.length ? { normalisations: notes } : {}) },
      adopt: verdict === 'PASS',
    });
    attempts.push(attempt);
    await runLog.flush();
    if (verdict === 'PASS') return { scene: id, adopted: true, attempts, findings };
    // A refused punch-up leaves the previous draft as the one to repair, as in the episode run.
    if (!d.refused) previous = { raw: d.raw, v: d.v };
    repair = planRepair(findings, k + 2, config.budgets.per_scene);
  }
  return { scene: id, adopted: false, attempts, findings };
}
