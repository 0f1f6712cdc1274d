import fs from 'node:fs';
import path from 'node:path';
import type { Claim, Finding } from '../domain/scene.js';
import type { World } from '../domain/world.js';
import { round } from '../core/json.js';
import { isAureusError } from '../errors.js';
import { formatUsd } from '../core/readable.js';
import type { RunLogEntry } from '../providers/run-log.js';
import { verifySceneOutput } from '../stages/f-verifier/verify.js';
import { authorRaw, loadStaged, verifyContext, type StagedEpisode } from './scene-ops.js';
import { sceneState, type ReviewState } from './review-state.js';
import { inspectStagedEdits, scriptSections } from './staged-edits.js';
import { stagedFiles } from './planning-checkpoint.js';
import { episodeRef } from '../domain/context.js';
import type { Diagnostic } from '../diagnostics/index.js';
import { lowerBoundNote, runLogDamage, runLogRel } from './run-log-damage.js';

/**
 * `aureus episode review [--json]`: the staged episode as the showrunner reads it — the beat
 * sheet, each scene with its author, pin, attempts, findings, manual-review flag and the fate of
 * its claims (accepted into canon, downgraded to rumour, rejected), and the cost so far.
 */
export interface ReviewView {
  episode: string;
  title: string;
  seed: string;
  run_dir: string;
  script: string | null;
  steering: unknown;
  scenes: {
    id: string;
    act: number;
    day: number;
    time_of_day: string;
    location: string;
    cast: string[];
    beats: string[];
    author: 'model' | 'human';
    /**
     * The scene was changed by hand in the staged script and not adopted yet (`episode commit` adopts it, AUR6107):
     * its verdict, findings and claims are those of the text as it stands in the script, verified as an author's edit.
     */
    edited_in_script: boolean;
    pinned: boolean;
    rewrites: number;
    attempts: number;
    verdict: 'PASS' | 'FAIL';
    manual_review: boolean;
    findings: Pick<Finding, 'code' | 'severity' | 'message'>[];
    claims: { accepted: Claim[]; downgraded: Claim[]; rejected: Claim[] };
  }[];
  episode_findings: Pick<Finding, 'code' | 'severity' | 'message'>[];
  /**
   * `lower_bound`: run log lines that are no entries were not counted (null: every line was), said
   * as the commit's trailers will say it; each line is among `warnings` (AUR4499, file:line:column).
   */
  cost: { calls: number; input_tokens: number; output_tokens: number; cost_usd: number; lower_bound: string | null };
  /** What the review could not read: damaged run log lines (AUR4499), a damaged stage H checkpoint (AUR6098). */
  warnings: Diagnostic[];
}

export async function reviewView(root: string, world: World): Promise<ReviewView> {
  const st = loadStaged(root);
  const { plan } = st.planning;
  const { committedRunLogLines, readRunLog, summarizeRunLog } = await import('../providers/index.js');
  // Counted as the commit will record them (a second `episode plan` journals its calls again), and a
  // line that is no entry named as the commit names it (run-log-damage.ts): dropped here without a
  // word, "cost so far" was less than was spent, and less than the commit's "lower bound" said.
  const read = readRunLog(path.join(st.runDir, 'run_log.jsonl'), runLogRel(st.review.run_dir));
  const damage = runLogDamage(read, runLogRel(st.review.run_dir), st.review.episode);
  const log = committedRunLogLines(read.entries).map((l) => JSON.parse(l) as RunLogEntry);
  const total = summarizeRunLog(log).total;
  const scenes: ReviewView['scenes'] = [];
  const pending = pendingScriptEdits(root, st.review);
  for (const sc of plan.scenes) {
    const sr = st.scenes.report.scenes.find((s) => s.scene === sc.id);
    const last = sr ? [...sr.attempts].reverse().find((a) => a.verdict === sr.final_verdict) ?? sr.attempts[sr.attempts.length - 1] : undefined;
    const edit = pending.get(sc.id);
    const read = edit !== undefined ? await readEdit(st, world, sc.id, edit) : await readDraft(st, world, sc.id, last?.raw_file);
    const state = sceneState(st.review, sc.id);
    const beats = plan.beats.filter((b) => b.scene === sc.id);
    scenes.push({
      id: sc.id,
      act: sc.act,
      day: sc.day,
      time_of_day: sc.time_of_day,
      location: sc.location,
      cast: sc.cast,
      beats: beats.flatMap((b) => b.applications.map((a) => `${a.id} ${a.operator_id} by ${a.bindings.actor} → ${a.outcome}${b.tag ? ` [${b.tag}]` : ''}`)),
      author: edit !== undefined ? 'human' : state.author,
      edited_in_script: edit !== undefined,
      pinned: state.pinned,
      rewrites: state.rewrites,
      attempts: sr?.attempts.length ?? 0,
      verdict: read.verdict ?? sr?.final_verdict ?? 'FAIL',
      manual_review: sr?.manual_review ?? false,
      findings: (read.findings ?? last?.findings ?? []).map((f) => ({ code: f.code, severity: f.severity, message: f.message })),
      claims: read.claims,
    });
  }
  const scriptRel = Object.keys(stagedFiles(st.cp, episodeRef(st.review.season, st.review.episode_number)) ?? {}).find((f) => f.endsWith('/episode_script.md'));
  return {
    episode: st.review.episode,
    title: plan.title,
    seed: st.review.seed,
    run_dir: st.review.run_dir,
    script: scriptRel ? path.posix.join(st.review.run_dir, 'stage', scriptRel) : null,
    steering: st.review.steering,
    scenes,
    episode_findings: st.scenes.report.episode_findings.map((f) => ({ code: f.code, severity: f.severity, message: f.message })),
    cost: { calls: log.length, input_tokens: total.input_tokens, output_tokens: total.output_tokens, cost_usd: round(total.cost_usd, 6), lower_bound: damage.lines.length ? lowerBoundNote(damage) : null },
    // The checkpoints' after the run log's: stagedFiles above has read the stage H checkpoint by now.
    warnings: [...damage.warnings, ...st.warnings],
  };
}

type SceneRead = { claims: ReviewView['scenes'][number]['claims']; findings?: Finding[]; verdict?: 'PASS' | 'FAIL' };
const NO_CLAIMS: SceneRead['claims'] = { accepted: [], downgraded: [], rejected: [] };

/**
 * The scenes changed by hand in the staged script, by id, with their text as it stands: what `episode commit` will
 * adopt as the author's edits (scene-ops.ts adoptStagedEdits). Shown as the model's, with the model's verdict, a
 * showrunner who edited the script and then read the review was told every scene passed.
 */
function pendingScriptEdits(root: string, review: ReviewState): Map<string, string> {
  const out = new Map<string, string>();
  for (const { staged, now } of inspectStagedEdits(root, review).scripts) {
    const before = scriptSections(staged);
    for (const [id, text] of scriptSections(now)) if (before.get(id) !== text) out.set(id, text);
  }
  return out;
}

/** The last draft's claims, read again on the world as it is (a draft file gone: none to show). */
async function readDraft(st: StagedEpisode, world: World, id: string, rawFile: string | undefined): Promise<SceneRead> {
  if (!rawFile) return { claims: NO_CLAIMS };
  try {
    const v = verifySceneOutput(fs.readFileSync(path.join(st.runDir, rawFile), 'utf8'), await verifyContext(st.root, world, st, id));
    return { claims: { accepted: v.accepted_claims, downgraded: v.downgraded_claims, rejected: v.rejected_claims } };
  } catch {
    return { claims: NO_CLAIMS };
  }
}

/** A hand edit of the script verified as `episode commit` will verify it: by the deterministic rules, as an author's. */
async function readEdit(st: StagedEpisode, world: World, id: string, text: string): Promise<SceneRead> {
  try {
    const v = verifySceneOutput(authorRaw(st, id, text), await verifyContext(st.root, world, st, id));
    return { claims: { accepted: v.accepted_claims, downgraded: v.downgraded_claims, rejected: v.rejected_claims }, findings: v.findings, verdict: v.hard ? 'FAIL' : 'PASS' };
  } catch (e) {
    // An emptied scene (AUR6110) is refused by the commit: shown as failing, with the refusal's words.
    if (!isAureusError(e)) throw e;
    return { claims: NO_CLAIMS, findings: [{ code: e.diagnostics[0]?.code ?? 'AUR6110', severity: 'hard', message: e.message } as Finding], verdict: 'FAIL' };
  }
}

/** The review as text: one block per scene. */
export function renderReview(v: ReviewView, ch: { bold: (s: string) => string; dim: (s: string) => string; yellow: (s: string) => string; red: (s: string) => string; cyan: (s: string) => string; green: (s: string) => string }): string {
  const out: string[] = [ch.bold(`${v.episode.toUpperCase()}: ${v.title}`) + ch.dim(`  (staged in ${v.run_dir}, seed ${v.seed})`)];
  let act = 0;
  for (const s of v.scenes) {
    if (s.act !== act) { act = s.act; out.push('', ch.bold(`ACT ${act}`)); }
    const flags = [s.edited_in_script ? ch.yellow('edited by you in the staged script (adopted at `episode commit`)') : s.author === 'human' ? ch.yellow('edited by you') : '', s.rewrites ? ch.cyan(`rewritten ×${s.rewrites}`) : '', s.pinned ? ch.green('pinned') : '', s.manual_review ? ch.yellow('MANUAL REVIEW') : '', s.verdict === 'FAIL' ? ch.red('FAILS VERIFICATION') : ''].filter(Boolean).join(', ');
    out.push(`${ch.cyan(s.id)} day ${s.day} ${s.time_of_day}, ${s.location} — ${s.cast.join(', ')}${flags ? `  ${flags}` : ''}`);
    for (const b of s.beats) out.push(`    ${b}`);
    out.push(ch.dim(`    ${s.attempts} attempt(s); claims: ${s.claims.accepted.length} accepted, ${s.claims.downgraded.length} downgraded to rumour, ${s.claims.rejected.length} rejected`));
    for (const f of s.findings) out.push(`    ${f.severity === 'hard' ? ch.red(f.code) : ch.yellow(f.code)} ${f.message}`);
  }
  for (const f of v.episode_findings) out.push(`episode: ${f.code} ${f.message}`);
  out.push('', `cost so far: ${v.cost.calls} calls, ${v.cost.input_tokens + v.cost.output_tokens} tokens, ${formatUsd(v.cost.cost_usd)}${v.cost.lower_bound ? ch.yellow(` (${v.cost.lower_bound})`) : ''}`);
  if (v.script) out.push(`script: ${v.script}`);
  out.push(ch.dim('next: aureus scene edit|rewrite|pin <SCxx>, then aureus episode commit'));
  return out.join('\n') + '\n';
}
