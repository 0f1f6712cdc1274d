import path from 'node:path';
import type { AppliedDelta, Provenance, ResolvedDelta } from '../../domain/delta.js';
import type { CliffhangerConstraints, EpisodeRef } from '../../domain/context.js';
import type { EpisodeContext } from '../../domain/episode-context.js';
import type { AgentProposals } from '../../domain/proposals.js';
import type { EpisodePlan } from '../../domain/plan.js';
import type { ScenePacket } from '../../domain/packet.js';
import type { ApprovedScene, VerifierReport } from '../../domain/scene.js';
import { WORLD_FILES, type InWorldDate, type World } from '../../domain/world.js';
import { stableStringify } from '../../core/json.js';
import { worldFileText } from '../../core/json-layout.js';
import { addDays } from '../../core/roman-date.js';
import { applyDeltas, DATE_FIELDS } from '../../core/deltas/index.js';
import { decayDeltas } from '../../core/decay.js';
import { coolingDeltas } from '../../core/cooling.js';
import { threadProgressDeltas } from '../../core/threads.js';
import { toldInDeltas } from '../../core/secrets-told.js';
import { AureusError, ExitCode } from '../../errors.js';
import { diag } from '../../diagnostics/index.js';
import { episodeRelDir } from '../../paths.js';
import { applyApprovedScenes } from './apply.js';
import { extractCliffhanger } from './cliffhanger.js';
import { episodeMetrics } from './metrics.js';
import type { EpisodeMetrics } from './metrics-model.js';
import { buildDashboard, recapEvents, renderRecapMarkdown, type RecapPayload } from './recap-model.js';
import { buildScript } from './script.js';

/**
 * Stage H (spec §5.2 H, §8, §11), the pure part: approved scenes → the committed world and every
 * artifact of the episode folder. Order: canon (scene deltas + claims, scene by scene), then the
 * decay pass, then thread progress, then the world's cooling, then the calendar. The recap TEXT comes from the `recap` LLM
 * role and is passed to `episodeFiles`; everything else here is deterministic.
 */
export interface StageHInput {
  ref: EpisodeRef;
  seed: string;
  world: World;
  context: EpisodeContext;
  proposals: AgentProposals;
  plan: EpisodePlan;
  packets: ScenePacket[];
  scenes: ApprovedScene[];
  report: VerifierReport;
  runDir?: string;
}

export interface StageHResult {
  world: World;
  applied: AppliedDelta[];
  metrics: EpisodeMetrics;
  cliffhanger: CliffhangerConstraints;
  script: string;
  recap: RecapPayload;
}

/** The deltas that move the calendar from one date to another: a `set` per field that changes, year first. */
export function dateDeltas(from: InWorldDate, to: InWorldDate): ResolvedDelta[] {
  return DATE_FIELDS.filter((f) => from[f] !== to[f]).map((f) => ({ path: `world.date.${f}`, op: 'set' as const, value: to[f] }));
}

function applySystem(world: World, deltas: readonly ResolvedDelta[], prov: Provenance, runDir: string): { world: World; applied: AppliedDelta[] } {
  if (!deltas.length) return { world, applied: [] };
  const r = applyDeltas(world, deltas, () => prov);
  if (!r.ok) {
    throw new AureusError(`the ${prov.event} pass could not be applied`, {
      exitCode: ExitCode.INTERNAL,
      diagnostics: [diag('AUR6016', { scene: prov.event, message: r.diagnostics.map((d) => d.message).join('; '), run: runDir }), ...r.diagnostics],
    });
  }
  return { world: r.world, applied: r.applied };
}

export function stageH(input: StageHInput): StageHResult {
  const { plan, ref } = input;
  const runDir = input.runDir ?? '';
  const canon = applyApprovedScenes(input.world, plan, input.packets, input.scenes, runDir);
  const lastScene = plan.scenes[plan.scenes.length - 1]?.id ?? '';
  const system = (event: string): Provenance => ({ episode: plan.episode_id, scene: lastScene, event, operator: null });

  const decay = applySystem(canon.world, decayDeltas(canon.world), system('decay'), runDir);
  const approvedIds = new Set(input.scenes.map((s) => s.scene));
  const advanced = new Set(
    plan.beats.filter((b) => approvedIds.has(b.scene)).flatMap((b) => b.applications.flatMap((a) => a.threads_advanced)),
  );
  const progressed = applySystem(decay.world, threadProgressDeltas(decay.world, ref.episode, [...advanced].sort()), system('threads'), runDir);
  // Secrets the approved scenes put into words, first told in this episode: later episodes refer to them.
  const approvedApps = plan.beats.filter((b) => approvedIds.has(b.scene)).flatMap((b) => b.applications);
  const told = applySystem(progressed.world, toldInDeltas(progressed.world, plan.episode_id, approvedApps), system('secrets'), runDir);

  const cliffhanger = extractCliffhanger(plan, input.packets, told.world);
  // The calendar (core/roman-date: 355-day Republican, then Julian): the episode ends on its last
  // scene's day; unless the cliffhanger forbids it, the usual gap between episodes passes before the next one.
  // A recorded change like any other (world.date.<field> set deltas, event "date"), so every
  // committed change is in episode_deltas.json with its provenance.
  const lastDay = Math.max(0, ...plan.scenes.map((s) => s.day));
  const gap = cliffhanger.time_skip_allowed ? told.world.world.days_per_episode : 0;
  // The world cools over those days (core/cooling.ts: metrics that declare a rest level).
  const cooling = applySystem(told.world, coolingDeltas(told.world, lastDay + gap), system('cooling'), runDir);
  const calendar = applySystem(cooling.world, dateDeltas(cooling.world.world.date, addDays(cooling.world.world.date, lastDay + gap)), system('date'), runDir);
  const world: World = calendar.world;

  const applied = [...canon.applied, ...decay.applied, ...progressed.applied, ...told.applied, ...cooling.applied, ...calendar.applied];
  const metrics = episodeMetrics(plan, input.world, canon.sceneWorlds, canon.applied);
  const recap: RecapPayload = {
    task: 'recap',
    episode_id: plan.episode_id,
    title: plan.title,
    world_title: world.world.title,
    events: recapEvents(canon.applied, input.world, world),
    dashboard: buildDashboard(input.world, world, ref.episode),
    cliffhanger: { summary: cliffhanger.summary, open_question: cliffhanger.open_question },
  };
  return { world, applied, metrics, cliffhanger, script: buildScript(plan, input.packets, input.scenes), recap };
}

/**
 * Every file the episode commit writes: the world files the episode changed (laid out as their
 * authors laid them out, core/json-layout.ts; canonical JSON for a file aureus wrote) and the episode folder. A world file no delta touched is left as it is on disk: the engine copies a
 * file on write (core/deltas/apply.ts), so an untouched one is the very object that was loaded, and
 * rewriting it would put only the author's own formatting (indentation, key order) into the
 * episode's diff as changes. `carried`: world files written all the same, the author's uncommitted
 * edits that `--allow-dirty` folds into the commit (AUR6061 says so). Keys are repository-relative POSIX paths.
 * `planned`: the planning files (context, proposals, plan, packets) as the caller already serialised
 * them (episode run's planning checkpoint holds these texts, pipeline/planning-checkpoint.ts).
 */
export function episodeFiles(
  input: StageHInput,
  h: StageHResult,
  recapText: string,
  runLogText: string,
  drafts: Record<string, string>,
  planned: Record<string, string> | null = null,
  carried: readonly string[] = [],
): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [key, rel] of Object.entries(WORLD_FILES) as [keyof World, string][]) {
    if (h.world[key] !== input.world[key] || carried.includes(rel)) files[rel] = worldFileText(h.world[key], input.world[key]);
  }
  const dir = episodeRelDir(input.ref);
  const put = (rel: string, content: string) => {
    files[path.posix.join(dir, rel)] = content;
  };
  if (planned) Object.assign(files, planned);
  else {
    put('episode_context.json', stableStringify(input.context));
    put('agent_proposals.json', stableStringify(input.proposals));
    put('episode_plan.json', stableStringify(input.plan));
    for (const p of input.packets) put(`packets/${p.scene_id}.json`, stableStringify(p));
  }
  put('episode_script.md', h.script);
  put('episode_deltas.json', stableStringify({ format: 1, episode_id: input.plan.episode_id, deltas: h.applied }));
  put('verifier_report.json', stableStringify(input.report));
  put('cliffhanger_constraints.json', stableStringify(h.cliffhanger));
  put('episode_metrics.json', stableStringify(h.metrics));
  put('recap.md', renderRecapMarkdown(h.recap, recapText));
  put('run_log.jsonl', runLogText);
  for (const [rel, text] of Object.entries(drafts)) put(rel, text);
  return files;
}

export interface CommitTrailers {
  provider: string;
  models: string;
  seed: string;
  tokens: string;
  cost: string;
}

/** `S01E03: <title>`, blank line, the recap text, blank line, the Aureus-* trailers. */
export function commitMessage(ref: EpisodeRef, title: string, recapText: string, t: CommitTrailers): string {
  return [
    `${ref.id.toUpperCase()}: ${title}`,
    '',
    recapText.trim(),
    '',
    `Aureus-Provider: ${t.provider}`,
    `Aureus-Models: ${t.models}`,
    `Aureus-Seed: ${t.seed}`,
    `Aureus-Tokens: ${t.tokens}`,
    `Aureus-Cost: ${t.cost}`,
    '',
  ].join('\n');
}
