import fs from 'node:fs';
import path from 'node:path';
import type { ResolvedDelta } from '../domain/delta.js';
import type { ApprovedScene, Finding, SceneAttempt, VerifierReport } from '../domain/scene.js';
import type { World } from '../domain/world.js';
import { episodeRef } from '../domain/context.js';
import { stateHash } from '../core/state-hash.js';
import { stableStringify } from '../core/json.js';
import { AureusError, ExitCode } from '../errors.js';
import { diag, type Diagnostic } from '../diagnostics/index.js';
import { SECTION } from '../stages/e-writer/types.js';
import { parseWriterOutput } from '../stages/e-writer/parse.js';
import type { VerifyContext } from '../stages/f-verifier/context.js';
import { verifySceneOutput, type SceneVerification } from '../stages/f-verifier/verify.js';
import { worldVerifyContext } from '../stages/f-verifier/world-context.js';
import { planPrereqs } from '../stages/scenes.js';
import type { Checkpoints } from './checkpoint.js';
import { damagedStaged, stagedCheckpoints } from './staged-checkpoints.js';
import { adoptIntoBaseline, loadPlanning, retireStageH } from './planning-checkpoint.js';
import { adoptableEdits, scriptSections } from './staged-edits.js';
import { stagedFindingPlace } from './finding-place.js';
import type { PlanningOutput } from './planning-adapter.js';
import { durableBarrier, writeVisible } from '../store/durable.js';
import { requireReview, sceneState, withRecordedAuthors, writeReview, type ReviewState } from './review-state.js';
import { testKillHook } from './checkpoint.js';

/**
 * The scene operations on a staged episode (issue 16): load it, verify a new version of a scene
 * (an author's edit, a rewrite) with the verifier a model's draft goes through, record it in the
 * run's checkpoint and verifier report, and the checks `episode commit` makes. The scenes live in
 * the run's `checkpoints/scenes.json`: the pipeline then stages and commits them like any other.
 */
export interface StagedEpisode {
  root: string;
  review: ReviewState;
  runDir: string;
  cp: Checkpoints;
  planning: PlanningOutput;
  scenes: { scenes: ApprovedScene[]; report: VerifierReport };
  /** Damaged checkpoints met reading it, now or later through `cp` (AUR6098, staged-checkpoints.ts): for the command to say. */
  warnings: Diagnostic[];
}

export function loadStaged(root: string, review: ReviewState = requireReview(root)): StagedEpisode {
  const runDir = path.join(root, review.run_dir);
  const { cp, warnings, damaged } = stagedCheckpoints(runDir);
  const planning = loadPlanning(cp, episodeRef(review.season, review.episode_number))?.output;
  const scenes = cp.load<{ scenes: ApprovedScene[]; report: VerifierReport }>('scenes');
  // Damaged, not missing: the staged episode is there, and what the review did is in it.
  if ((!planning || !scenes) && damaged.length) throw damagedStaged(review, damaged);
  if (!planning || !scenes) throw new AureusError('no episode is staged for review', { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR6101')] });
  // Each scene's author and adopted rewrites as the checkpoint records them with its text (review-state.ts withRecordedAuthors).
  return { root, review: withRecordedAuthors(review, scenes.scenes, scenes.report), runDir, cp, planning, scenes, warnings };
}

/** "sc4", "SC04", "4" → "SC04", checked against the staged plan. */
export function sceneIdOf(st: StagedEpisode, raw: string): string {
  const m = /^(?:sc)?(\d{1,3})$/i.exec(raw.trim());
  const ids = st.planning.plan.scenes.map((s) => s.id);
  const id = m ? `SC${m[1]!.padStart(2, '0')}` : raw;
  if (!ids.includes(id)) {
    throw new AureusError(`unknown scene ${raw}`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR6103', { scene: raw, episode: st.review.episode, scenes: `${ids[0]}…${ids[ids.length - 1]}` })] });
  }
  return id;
}

export function requireUnpinned(st: StagedEpisode, id: string): void {
  if (sceneState(st.review, id).pinned) throw new AureusError(`scene ${id} is pinned`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR6104', { scene: id })] });
}

export async function verifyContext(root: string, world: World, st: StagedEpisode, id: string, minSceneWords?: number): Promise<VerifyContext> {
  const { loadStyle } = await import('../style/index.js');
  // The scene length floor is the project's (verifier.min_scene_words), for an author's edit too.
  const min_scene_words = minSceneWords ?? (await import('../config/index.js')).loadConfigOrThrow(root).config.verifier.min_scene_words;
  const style = await loadStyle(root);
  const packet = st.planning.packets.find((p) => p.scene_id === id)!;
  const lexicon = style.lexicon.map((e) => ({ forbidden: e.forbidden, replacement: e.replacement }));
  return { ...worldVerifyContext(world, lexicon), prereqs: planPrereqs(st.planning.plan), packet, min_scene_words };
}

/** A scene in the writer's three-section format (what $EDITOR shows, and what an edit of the prose alone keeps). */
export function sceneAsRaw(text: string, scene: ApprovedScene | undefined): string {
  const claims = scene ? [...scene.accepted_claims, ...scene.downgraded_claims] : [];
  return `${SECTION.text}\n${text.trim()}\n\n${SECTION.claims}\n${JSON.stringify(claims, null, 2)}\n\n${SECTION.events}\n${JSON.stringify(scene?.events ?? [], null, 2)}\n`;
}

/** An author's text: the three sections as given, or the prose alone with the scene's claims and events kept. */
export function authorRaw(st: StagedEpisode, id: string, input: string): string {
  const text = input.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const approved = st.scenes.scenes.find((s) => s.scene === id);
  if (parseWriterOutput(text).found.text) return text;
  if (!text.trim()) throw new AureusError(`the edit of ${id} is empty`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR6110', { scene: id, detail: 'the text is empty' })] });
  return sceneAsRaw(text, approved);
}

/** The approved scene a verified output becomes (application ids stripped from event deltas, as stage G does). */
function approvedFrom(id: string, v: SceneVerification, attempts: number, model: string, human: boolean): ApprovedScene {
  const a: ApprovedScene = {
    scene: id,
    text: v.parsed.scene_text,
    events: v.parsed.events.map((e) => ({ ...e, deltas: (e.deltas ?? []).map(({ application_id: _a, ...d }: ResolvedDelta & { application_id?: string }) => d) })),
    accepted_claims: v.accepted_claims,
    downgraded_claims: v.downgraded_claims,
    attempts,
    model,
    simplified: false,
  };
  if (human) a.author = 'human';
  return a;
}

export interface NewVersion {
  raw: string;
  verification: SceneVerification;
  /** With a raw_file, the version's drafts were saved by the draft steps (a rewrite); without, `raw` is saved as drafts/SCxx.n.txt. */
  attempt: Omit<SceneAttempt, 'attempt' | 'raw_file'> & { raw_file?: string };
  /** Replace the scene's text with this version (false: a failed rewrite is kept in the report only). */
  adopt: boolean;
}

/** Record one new version of a scene: its draft file, its attempt in the report and (if adopted) the scene. */
export function recordVersion(st: StagedEpisode, id: string, nv: NewVersion): SceneAttempt {
  const report = st.scenes.report;
  const sr = report.scenes.find((s) => s.scene === id)!;
  const n = sr.attempts.length + 1;
  const rawFile = nv.attempt.raw_file ?? `drafts/${id}.${n}.txt`;
  // The version's files are written without fsync, then made durable together by one barrier
  // (store/durable.ts): an fsync per file cost a disk flush each (issue 18).
  const written: string[] = [];
  if (!nv.attempt.raw_file) {
    writeVisible(path.join(st.runDir, rawFile), nv.raw);
    written.push(path.join(st.runDir, rawFile));
    testKillHook('scene-version-draft');
  }
  const attempt: SceneAttempt = { ...nv.attempt, attempt: n, raw_file: rawFile };
  sr.attempts.push(attempt);
  if (nv.adopt) {
    sr.final_verdict = attempt.verdict;
    sr.manual_review = false;
    const human = attempt.author === 'human';
    const next = approvedFrom(id, nv.verification, n, attempt.model, human);
    const order = st.planning.plan.scenes.map((s) => s.id);
    st.scenes.scenes = [...st.scenes.scenes.filter((s) => s.scene !== id), next].sort((a, b) => order.indexOf(a.scene) - order.indexOf(b.scene));
  }
  // The record follows the checkpoint: the scene's author, and its rewrites counted once one is adopted.
  st.review = withRecordedAuthors(st.review, st.scenes.scenes, report);
  report.verdict = report.scenes.every((s) => s.final_verdict === 'PASS') ? 'PASS' : 'FAIL';
  // The scene's text and its author in one atomic write: the checkpoint is the record of both (the
  // review file written below only follows it; loadStaged and the commit's trailers read the author here).
  st.cp.save('scenes', st.scenes);
  const reportFile = path.join(st.runDir, 'verifier_report.json');
  writeVisible(reportFile, stableStringify(report));
  testKillHook('scene-version-report');
  retireStageH(st.cp); // stage H is computed again; what stage/ holds stays known (staged-edits.ts)
  written.push(st.cp.file('scenes'), reportFile);
  // The version's files first, with one barrier; then the review state that points at them, so a
  // power cut never leaves the review state ahead of the draft, checkpoint and report it names.
  durableBarrier(written);
  writeReview(st.root, st.review);
  testKillHook('scene-version-review');
  return attempt;
}

/** An author's edit of one scene: verified by the deterministic rules, recorded as `author: human`. */
export async function editScene(root: string, world: World, rawId: string, input: string): Promise<{ scene: string; attempt: SceneAttempt }> {
  const st = loadStaged(root);
  const id = sceneIdOf(st, rawId);
  requireUnpinned(st, id);
  return { scene: id, attempt: await applyHumanText(st, world, id, input) };
}

async function applyHumanText(st: StagedEpisode, world: World, id: string, input: string): Promise<SceneAttempt> {
  const raw = authorRaw(st, id, input);
  const v = verifySceneOutput(raw, await verifyContext(st.root, world, st, id));
  // The critic's taste is a model's opinion: an author's text is judged by the rules that guard canon.
  const attempt = { model: 'human', mode: 'edit' as const, author: 'human' as const, findings: v.findings, critic: null, verdict: v.hard ? ('FAIL' as const) : ('PASS' as const) };
  return recordVersion(st, id, { raw, verification: v, attempt, adopt: true });
}

export function setPinned(root: string, rawId: string, pinned: boolean): string {
  const st = loadStaged(root);
  const id = sceneIdOf(st, rawId);
  st.review.scenes[id] = { ...sceneState(st.review, id), pinned };
  writeReview(root, st.review);
  return id;
}

/**
 * Hand edits in the run's stage/ folder (staged files differ from what stage H staged): a scene
 * changed in the script is adopted as the author's edit of that scene. Anything that cannot be
 * adopted (staged-edits.ts) refuses before any scene is touched.
 */
export async function adoptStagedEdits(root: string, review: ReviewState, world: World, warnings: Diagnostic[]): Promise<void> {
  const scripts = adoptableEdits(root, review, warnings);
  if (!scripts.length) return;
  const st = loadStaged(root, review);
  for (const { rel, staged, now } of scripts) {
    const before = scriptSections(staged);
    const changed = [...scriptSections(now)].filter(([id, text]) => before.get(id) !== text);
    // Pins first: a refused pinned scene must not leave the others adopted.
    for (const [id] of changed) requireUnpinned(st, id);
    for (const [id, text] of changed) {
      await applyHumanText(st, world, id, text);
      warnings.push(diag('AUR6107', { scene: id }));
    }
    // The author's copy is now what stage/ holds as adopted: a later edit of it (a refused commit's
    // finding fixed in place) is compared with this, not with the text stage H once staged.
    adoptIntoBaseline(st.cp, rel, now);
  }
}

/**
 * Before a reviewed episode is committed: every scene must stand on the current world. Scenes an
 * author touched are verified again, and all of them when the world changed since planning. Every
 * failing scene's hard findings are told at once (one AUR6105 each), placed in the staged script
 * the author edits, so one commit attempt shows all there is to fix.
 */
export async function verifyForCommit(root: string, review: ReviewState, world: World, warnings: Diagnostic[]): Promise<void> {
  const st = loadStaged(root, review);
  const changed = stateHash(world) !== st.planning.context.state_hash;
  if (changed) warnings.push(diag('AUR6108', { episode: review.episode }));
  const refusals: Diagnostic[] = [];
  const failing: string[] = [];
  for (const sr of st.scenes.report.scenes) {
    const touched = sceneState(st.review, sr.scene).author === 'human' || sr.attempts.some((a) => a.mode === 'edit' || a.mode === 'rewrite');
    const last = [...sr.attempts].reverse().find((a) => a.verdict === sr.final_verdict) ?? sr.attempts[sr.attempts.length - 1];
    if (!last) continue;
    let findings = last.findings;
    if (changed || touched) {
      const raw = fs.readFileSync(path.join(st.runDir, last.raw_file), 'utf8');
      findings = verifySceneOutput(raw, await verifyContext(root, world, st, sr.scene)).findings;
    }
    const hard = findings.filter((f) => f.severity === 'hard');
    if (!hard.length && sr.final_verdict !== 'FAIL') continue;
    failing.push(sr.scene);
    for (const f of hard.length ? hard : [last.findings[0]]) refusals.push(commitRefusal(root, review, sr.scene, f, last.raw_file));
  }
  if (!refusals.length) return;
  const what = failing.length === 1 ? `scene ${failing[0]} breaks a check` : `scenes ${failing.join(', ')} break checks`;
  throw new AureusError(what, { exitCode: ExitCode.VERIFY_FAILED, diagnostics: refusals });
}

/** One finding refusing the commit (AUR6105), at its place in the staged script, with its fix. */
function commitRefusal(root: string, review: ReviewState, scene: string, f: Finding | undefined, rawFile: string): Diagnostic {
  const place = f ? stagedFindingPlace(root, review, scene, f, rawFile) : null;
  const d = diag('AUR6105', {
    scene,
    code: f?.code ?? 'FAIL',
    message: f?.message ?? 'the scene did not pass verification',
    where: f?.span ? `: ${f.span.text.trim().slice(0, 100)}` : '',
    fix: `${f?.fix ? `${f.fix.replace(/\.$/, '')}; ` : ''}change it in the staged script, or with \`aureus scene edit ${scene}\` or \`aureus scene rewrite ${scene}\``,
  });
  return place ? { ...d, file: place.file, line: place.line, column: place.column } : d;
}
