import fs from 'node:fs';
import path from 'node:path';
import type { CliffhangerConstraints, EpisodeRef } from '../domain/context.js';
import type { EpisodeContext } from '../domain/episode-context.js';
import type { AgentProposals } from '../domain/proposals.js';
import type { EpisodePlan } from '../domain/plan.js';
import type { ScenePacket } from '../domain/packet.js';
import type { SeasonGoals, World } from '../domain/world.js';
import type { Llm } from '../ports/llm.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { diag } from '../diagnostics/catalog.js';
import './../diagnostics/codes/planning.js';
import { AureusError, ExitCode } from '../errors.js';
import { stableStringify } from '../core/json.js';
import { episodeRef } from '../domain/context.js';
import { cliffhangerRel, episodeDirName, episodePlanRel, seasonDirName, seasonGoalsRel } from '../paths.js';
import { buildEpisodeContext } from './a-snapshot/index.js';
import { StateHasher } from '../core/state-hash.js';
import { proposeSymbolic, proposeWithLlm } from './b-proposals/index.js';
import { planSymbolic } from './c-director/plan.js';
import { COOLDOWN_EPISODES, recentMovesOf, type RecentMove } from './c-director/memory.js';
import { directWithLlm, DIRECTOR_RETRIES } from './c-director/llm.js';
import { buildPackets, type PacketOptions } from './d-packets/index.js';
import { checkPlanAnchors, dueAnchors, requiredAnchors } from './c-director/anchors.js';
import { DEFAULT_EPISODES_PLANNED } from '../core/threads.js';
import type { Anchor } from '../domain/anchors.js';
import { checkPlanSteering, checkSteering, isSteered, showrunnerBrief, type Steering } from './c-director/steering.js';
import { writeVisible } from '../store/durable.js';
import { readJsonFileSafe } from '../store/read.js';

/**
 * Planning stages A–D (docs/planning.md). `planEpisode` is pure apart from the LLM port; the
 * file helpers below are the I/O edge (reading the previous cliffhanger, writing the artifacts).
 */
export interface PlanningInput {
  world: World;
  ref: EpisodeRef;
  seed: string;
  previousCliffhanger: CliffhangerConstraints | null;
  /** Through the port for roles `proposals` and `director`; without it, the symbolic answers are used directly. */
  llm?: Llm;
  packets?: Partial<PacketOptions>;
  directorRetries?: number;
  /** The season's goals: thread progress is paced to episodes_planned and finale_threads (core/threads.ts threadPace). */
  seasonGoals?: SeasonGoals | null;
  /** The moves of the season's recent episodes (readRecentMoves): the Director's cooldown. */
  recentMoves?: readonly RecentMove[];
  /** The showrunner's steering and the notes addressed to this episode (c-director/steering.ts). */
  steering?: Steering | null;
  /** world/anchors.json (readAnchors) and the operators the season's earlier episodes played (readPlayedOperators). */
  anchors?: readonly Anchor[] | null;
  playedOperators?: ReadonlySet<string>;
  /** Told when each of A–D really starts and ends (progress). */
  onStage?: (stage: 'A' | 'B' | 'C' | 'D', state: 'running' | 'done') => void;
  /**
   * The state hasher that took the default seed's hash of this world (deriveSeed), so stage A finds
   * its chunk digests made. The world must not have been changed in place since (copy-on-write
   * changes are safe: a replaced element misses the hasher's cache).
   */
  hasher?: StateHasher;
}

export interface PlanningArtifacts {
  context: EpisodeContext;
  proposals: AgentProposals;
  plan: EpisodePlan;
  packets: ScenePacket[];
  diagnostics: Diagnostic[];
}

export async function planEpisode(input: PlanningInput): Promise<PlanningArtifacts> {
  const steering = isSteered(input.steering) ? input.steering : null;
  if (steering) checkSteering(input.world, steering);
  const on = input.onStage ?? (() => {});
  on('A', 'running');
  // One state hasher for A and D: D's states share A's snapshot elements, whose texts it keeps.
  const hasher = input.hasher ?? new StateHasher();
  const { context, diagnostics } = buildEpisodeContext({ ...input, hasher });
  on('A', 'done');
  on('B', 'running');
  let proposals: AgentProposals;
  if (input.llm) {
    const r = await proposeWithLlm(input.world, context, input.llm);
    proposals = r.proposals;
    diagnostics.push(...r.diagnostics);
  } else {
    proposals = proposeSymbolic(input.world, context);
  }
  on('B', 'done');
  on('C', 'running');
  const symbolic = planSymbolic({
    world: input.world, context, proposals, seed: input.seed, seasonGoals: input.seasonGoals ?? null, recentMoves: input.recentMoves ?? [], steering,
    anchors: input.anchors ?? null, playedOperators: input.playedOperators,
  });
  let plan = symbolic;
  if (input.llm) {
    const r = await directWithLlm(symbolic, input.world, context, proposals, input.llm, input.directorRetries ?? DIRECTOR_RETRIES, input.seasonGoals ?? null, steering ? showrunnerBrief(steering) : null);
    plan = r.plan;
    // A model's plan that ignores the showrunner's request gives way to the symbolic one, which honours it.
    if (steering && plan !== symbolic) {
      try { checkPlanSteering(plan, steering); } catch { plan = { ...symbolic, director: { ...symbolic.director, fallback_reason: 'the model plan did not honour the steering' } }; }
    }
    // Likewise a model's plan that breaks a historical anchor (world/anchors.json).
    if (input.anchors?.length && plan !== symbolic) {
      const due = dueAnchors(input.anchors, context.date, input.playedOperators ?? new Set());
      const required = requiredAnchors(due, context.episode, input.seasonGoals?.episodes_planned ?? DEFAULT_EPISODES_PLANNED);
      try { checkPlanAnchors(plan, input.anchors, context.date, required); } catch { plan = { ...symbolic, director: { ...symbolic.director, fallback_reason: 'the model plan did not keep the historical anchors' } }; }
    }
    diagnostics.push(...r.diagnostics);
  }
  on('C', 'done');
  on('D', 'running');
  const packets = buildPackets(plan, input.world, context, input.packets, hasher);
  on('D', 'done');
  return { context, proposals, plan, packets, diagnostics };
}

/** The artifacts as files (relative path -> canonical JSON), in a stable order. */
export function planningFiles(a: Omit<PlanningArtifacts, 'diagnostics'>): [string, string][] {
  return [
    ['episode_context.json', stableStringify(a.context)],
    ['agent_proposals.json', stableStringify(a.proposals)],
    ['episode_plan.json', stableStringify(a.plan)],
    ...a.packets.map((p): [string, string] => [`packets/${p.scene_id}.json`, stableStringify(p)]),
  ];
}

/** Write the artifacts under `dir` (the run's draft folder), each file atomically. Returns the relative paths. */
export async function writePlanningArtifacts(dir: string, a: PlanningArtifacts): Promise<string[]> {
  const files = planningFiles(a);
  await fs.promises.mkdir(path.join(dir, 'packets'), { recursive: true });
  // Packets of an earlier plan with more scenes would be stale: remove the ones this plan has not.
  const keep = new Set(files.map(([f]) => f));
  for (const f of await fs.promises.readdir(path.join(dir, 'packets'))) {
    if (/^SC\d{2}\.json$/.test(f) && !keep.has(`packets/${f}`)) await fs.promises.rm(path.join(dir, 'packets', f));
  }
  for (const [rel, text] of files) writeVisible(path.join(dir, rel), text); // a draft lost to a power cut is rewritten by the resumed run
  return files.map(([f]) => f);
}

/** The previous episode's cliffhanger_constraints.json, or null when there is none (episode 1, or not written). */
export async function readPreviousCliffhanger(root: string, ref: EpisodeRef): Promise<CliffhangerConstraints | null> {
  if (ref.episode <= 1) return null;
  const rel = cliffhangerRel(episodeRef(ref.season, ref.episode - 1));
  const v = readPlanningInput(root, rel, 'AUR3003', 'cannot read the previous cliffhanger');
  if (v === NONE) return null;
  const c = v as Partial<CliffhangerConstraints>;
  const kinds = ['physical_danger', 'revelation', 'political', 'emotional'];
  if (!c || typeof c !== 'object' || !kinds.includes(String(c.kind)) || typeof c.location !== 'string' || !Array.isArray(c.characters)) {
    throw new AureusError('cannot read the previous cliffhanger', { exitCode: ExitCode.INVALID_WORLD, diagnostics: [diag('AUR3003', { detail: 'it needs kind, location and characters', file: rel }, { file: rel })] });
  }
  return {
    format: 1, episode_id: String(c.episode_id ?? ''), kind: c.kind as CliffhangerConstraints['kind'],
    must_start_immediately: c.must_start_immediately === true, time_skip_allowed: c.time_skip_allowed === true,
    scene: String(c.scene ?? ''), location: c.location, characters: c.characters.map(String),
    operator_id: String(c.operator_id ?? ''), application_id: String(c.application_id ?? ''),
    summary: String(c.summary ?? ''), open_question: String(c.open_question ?? ''),
  };
}

/**
 * The (operator, actor, target) moves of the committed episodes the cooldown still covers (the
 * last COOLDOWN_EPISODES of the season, from their episode_plan.json). A missing or unreadable
 * plan counts as no moves: the memory only steers, the committed world is the truth.
 */
export async function readRecentMoves(root: string, ref: EpisodeRef): Promise<RecentMove[]> {
  const plans: Pick<EpisodePlan, 'episode' | 'beats'>[] = [];
  for (let e = Math.max(1, ref.episode - COOLDOWN_EPISODES); e < ref.episode; e++) {
    const rel = episodePlanRel(episodeRef(ref.season, e));
    // No plan there, or one that cannot be read (a FIFO is refused, not waited on): nothing to remember.
    const v = readJsonFileSafe(path.join(root, rel), rel).value as Partial<EpisodePlan> | null | undefined;
    if (Array.isArray(v?.beats)) plans.push({ episode: e, beats: v.beats });
  }
  return recentMovesOf(plans);
}

const NONE: unique symbol = Symbol('no such file');

/**
 * A committed input planning reads beside the world (the previous cliffhanger, the season goals)
 * as `aureus validate` reads it, through the store's reader (store/read.ts): a BOM dropped, a
 * syntax error at its line:column, a FIFO refused rather than waited on. JSON.parse took a file with
 * a BOM validate passed for invalid and quoted the raw text in its message. NONE when the file is
 * missing; each problem is `code` (exit 3) naming the file.
 */
function readPlanningInput(root: string, rel: string, code: 'AUR3003' | 'AUR3009', what: string): unknown {
  const r = readJsonFileSafe(path.join(root, rel), rel);
  if (r.ok) return r.value;
  if (r.diagnostics.every((d) => d.code === 'AUR1001')) return NONE;
  const diagnostics = r.diagnostics.map((d) => diag(code, { detail: d.message, file: rel }, { file: rel, pointer: d.pointer, line: d.line, column: d.column }));
  throw new AureusError(what, { exitCode: ExitCode.INVALID_WORLD, diagnostics });
}

/**
 * The season's goals (seasons/season_NN/season_goals.json) that pace thread progress, or null when
 * the season has none. A malformed file is AUR3003 (exit 3); `aureus validate` checks its schema.
 */
export async function readSeasonGoals(root: string, season: number): Promise<SeasonGoals | null> {
  const rel = seasonGoalsRel(season);
  const read = readPlanningInput(root, rel, 'AUR3009', 'cannot read the season goals');
  if (read === NONE) return null;
  const v = read as Partial<SeasonGoals>;
  if (!v || typeof v !== 'object' || typeof v.episodes_planned !== 'number' || !Array.isArray(v.finale_threads)) {
    throw new AureusError('cannot read the season goals', { exitCode: ExitCode.INVALID_WORLD, diagnostics: [diag('AUR3009', { detail: 'it needs episodes_planned and finale_threads', file: rel }, { file: rel })] });
  }
  return v as SeasonGoals;
}

/** The next episode to plan: one after the last committed episode folder of the latest season (s01e01 in a new world). */
export async function nextEpisodeRef(root: string, season?: number): Promise<EpisodeRef> {
  const seasonsDir = path.join(root, 'seasons');
  const list = async (dir: string, re: RegExp) => {
    try { return (await fs.promises.readdir(dir)).map((f) => re.exec(f)).filter((m): m is RegExpExecArray => !!m).map((m) => Number(m[1])); } catch { return []; }
  };
  const s = season ?? Math.max(1, ...(await list(seasonsDir, /^season_(\d{2,})$/)));
  const eps = [];
  for (const e of await list(path.join(seasonsDir, seasonDirName(s)), /^episode_(\d{2,})$/)) {
    // Committed = has its plan (stage H writes the whole folder at once).
    if (fs.existsSync(path.join(seasonsDir, seasonDirName(s), episodeDirName(e), 'episode_plan.json'))) eps.push(e);
  }
  return episodeRef(s, eps.length ? Math.max(...eps) + 1 : 1);
}
