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
  const state = sceneState(st.review, id);
  const nonce = `rewrite/${state.rewrites + 1}`;
  // The nonce is spent before the call: a crash mid-rewrite never makes the next one a replay.
  st.review.scenes[id] = { ...state, rewrites: state.rewrites + 1, notes: [...state.notes, o.note ?? ''] };
  writeReview(o.root, st.review);

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
