import fs from 'node:fs';
import path from 'node:path';
import type { EpisodeRef } from '../domain/context.js';
import { RUNS_DIR, episodeRelDir } from '../paths.js';
import { writeVisibleAsync } from '../store/durable.js';
import { stableStringify } from '../core/json.js';
import { Checkpoints, STAGED_BASELINE, testKillHook } from './checkpoint.js';
import type { PlanningOutput } from './planning-adapter.js';
import { damagedPlanningPart } from './planning-shapes.js';
import { manualReviewWarnings, type StageHCheckpoint } from './run-summary.js';
import type { VerifierReport } from '../domain/scene.js';
import { diag, type Diagnostic } from '../diagnostics/index.js';
import { parseEpisodeId } from '../season/episode-id.js';
import type { PlanningDigest } from './planning-inputs.js';

/**
 * The planning checkpoint of `episode run` as the files the commit holds (issue 18).
 *
 * Stages A–D decide the episode's context, proposals, plan and packets alone; the commit writes each
 * as canonical JSON (episode_context.json, agent_proposals.json, episode_plan.json, packets/SCxx.json).
 * The checkpoint is those very texts, each in its file under `checkpoints/planning/`, and a small
 * `checkpoints/planning.json` naming them, written last (its presence means the files are there).
 * So the ~1 MB of planning is serialised once per run, not twice (once nested in one checkpoint
 * file, again by stage H for the commit), stage H takes the texts as they are, and git can store
 * their blobs from these files while the scenes are written (pipeline/early-blobs.ts).
 *
 * The run goes on with the texts parsed back, as before: an uninterrupted run and a resumed one feed
 * later stages the very same data, key order included. A checkpoint from an older aureus (the four
 * parts nested in planning.json) still loads; stage H then serialises it as before.
 */
export interface PlanningCheckpoint {
  output: PlanningOutput;
  /** The committed planning files: repository path → exact text (null: an older checkpoint, stage H makes them). */
  files: Record<string, string> | null;
  /** The folder the texts are in, with their names relative to it (null: no files, an older checkpoint). */
  stored: { dir: string; names: string[] } | null;
  /**
   * The warnings planning gave (a model answer cleaned of control characters, AUR4211; a Director
   * that fell back): the run says them at its end, so a resumed run, which does not plan again,
   * says them from here. An older checkpoint has none.
   */
  warnings: Diagnostic[];
  /**
   * What planning was made from (planning-inputs.ts), compared on a resume: a checkpoint of another
   * world is set aside (AUR6065). Absent in an older checkpoint: its context's state hash is compared.
   */
  inputs?: PlanningDigest;
}

interface Index {
  format: 2;
  context: string;
  proposals: string;
  plan: string;
  packets: string[];
  warnings?: Diagnostic[];
  inputs?: PlanningDigest;
}

/** The files planning decides, by their path in the episode folder, in a stable order. */
async function planningTexts(output: PlanningOutput): Promise<[string, string][]> {
  const { planningFiles } = await import('../stages/planning.js');
  return planningFiles(output);
}

/**
 * The planning checkpoint of this planning, as a resumed run loads it, and its writing: the files
 * are written off this thread (libuv's pool), then the index; `written` resolves once the index is
 * (it never rejects: a checkpoint that could not be written only means planning is redone on a
 * resume). Await it before anything that relies on the checkpoint (stage H's names its files).
 */
export async function savePlanning(cp: Checkpoints, ref: EpisodeRef, output: PlanningOutput, warnings: Diagnostic[], inputs?: PlanningDigest): Promise<PlanningCheckpoint & { written: Promise<void> }> {
  const texts = await planningTexts(output);
  const dir = path.join(cp.dir, 'planning');
  const names = texts.map(([rel]) => rel);
  const index: Index = { format: 2, context: names[0]!, proposals: names[1]!, plan: names[2]!, packets: names.slice(3), warnings, ...(inputs ? { inputs } : {}) };
  const written = Promise.all(texts.map(([rel, text]) => writeVisibleAsync(path.join(dir, rel), text)))
    .then(() => writeVisibleAsync(cp.file('planning'), stableStringify(index)))
    .then(() => testKillHook('planning'), () => undefined);
  return { ...fromTexts(ref, dir, new Map(texts)), warnings, ...(inputs ? { inputs } : {}), written };
}

/** The planning checkpoint, or null when there is none (or a part of it cannot be read: planning is redone). */
export function loadPlanning(cp: Checkpoints, ref: EpisodeRef): PlanningCheckpoint | null {
  const saved = cp.load<Index | PlanningOutput>('planning');
  if (!saved) return null;
  if (!('format' in saved)) {
    // An older aureus nested the four parts in planning.json: stage H serialises them itself.
    return { output: saved, files: null, stored: null, warnings: [] };
  }
  if (saved.format !== 2) return null;
  const dir = path.join(cp.dir, 'planning');
  const texts = new Map<string, string>();
  let part = '';
  try {
    for (const rel of [saved.context, saved.proposals, saved.plan, ...saved.packets]) texts.set((part = rel), fs.readFileSync(path.join(dir, rel), 'utf8'));
    const made = fromTexts(ref, dir, texts, (rel) => (part = rel));
    part = '';
    const bad = damagedPlanningPart(dir, [...texts.keys()], made.output); // a text of another shape: planning is redone
    if (bad) return cp.ignored(bad.file, bad.detail), null;
    const inputs = isDigest(saved.inputs) ? { inputs: saved.inputs } : {};
    return { ...made, warnings: Array.isArray(saved.warnings) ? saved.warnings : [], ...inputs };
  } catch (e) {
    // A part missing or not JSON (a power cut before it reached the disk, a hand edit): planning is redone, and said so.
    if (part) cp.ignored(path.join(dir, part), (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'the file is missing' : `not JSON: ${(e as Error).message}`);
    return null;
  }
}

/** A digest as savePlanning writes it (an index edited by hand to anything else: none, the state hash is compared). */
function isDigest(v: unknown): v is PlanningDigest {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string');
}

/**
 * Every stage checkpoint of the run folder removed: each later one (the scenes, stage H) was made from
 * the planning, so without a planning checkpoint to resume, or with one made on another world, none of
 * them may be. The call journal (calls/) and the run log stay: a paid answer serves the same request.
 */
export function dropCheckpoints(cp: Checkpoints): void {
  fs.rmSync(cp.dir, { recursive: true, force: true });
}

/** The output parsed from the texts (context, proposals, plan, then the packets in order). */
function fromTexts(ref: EpisodeRef, dir: string, texts: Map<string, string>, parsing: (rel: string) => void = () => {}): Omit<PlanningCheckpoint, 'warnings'> {
  const names = [...texts.keys()];
  // `parsing` is told each text before it is parsed, so that one that is not JSON can be named.
  const parsed = names.map((rel) => (parsing(rel), JSON.parse(texts.get(rel)!) as unknown));
  const output = { context: parsed[0], proposals: parsed[1], plan: parsed[2], packets: parsed.slice(3) } as PlanningOutput;
  const files: Record<string, string> = {};
  for (const rel of names) files[path.posix.join(episodeRelDir(ref), rel)] = texts.get(rel)!;
  return { output, files, stored: { dir, names } };
}

/**
 * The stage H checkpoint without the planning files it shares with the planning checkpoint: their
 * paths are listed under `planned` instead (~0.9 MB of a starter episode's ~1.3 MB, serialised,
 * written and read back a second time before, issue 18). Written without reading it back: every
 * value in it is plain JSON already (strings, rounded numbers), so the run goes on with `h` itself.
 */
export function saveStageH(cp: Checkpoints, h: StageHCheckpoint, planned: Record<string, string> | null): StageHCheckpoint {
  const shared = planned ? Object.keys(h.files).filter((rel) => planned[rel] === h.files[rel]) : [];
  const skip = new Set(shared);
  const own = shared.length ? Object.fromEntries(Object.entries(h.files).filter(([rel]) => !skip.has(rel))) : h.files;
  cp.write('stage-h', shared.length ? { ...h, files: own, planned: shared } : h);
  testKillHook('stage-h');
  return h;
}

/** The stage H checkpoint with its files whole, or null (none, or its planning files cannot be had: stage H is redone). */
export function loadStageH(cp: Checkpoints, planned: Record<string, string> | null, name = 'stage-h'): StageHCheckpoint | null {
  const saved = cp.load<StageHCheckpoint & { planned?: string[] }>(name);
  if (!saved?.planned) return saved;
  if (!Array.isArray(saved.planned)) return null; // not what a run writes (edited by hand): stage H is redone
  const { planned: shared, files: own, ...rest } = saved;
  const files: Record<string, string> = {};
  for (const rel of shared) {
    const text = planned?.[rel];
    if (text === undefined) return null;
    files[rel] = text;
  }
  return { ...rest, files: Object.assign(files, own) };
}

/**
 * What the files in the run's stage/ folder were staged as (the review commands compare the author's
 * copy with it, staged-edits.ts): the stage H checkpoint, or, once a scene changed and stage H must
 * be computed again, the checkpoint it retired (STAGED_BASELINE) until stage/ is written anew. Without
 * it, an edit made after a refused commit (stage H dropped, nothing staged again) had nothing to be
 * compared with, and was ignored, then overwritten.
 */
export function stagedFiles(cp: Checkpoints, ref: EpisodeRef): Record<string, string> | null {
  const name = cp.has(STAGED_BASELINE) ? STAGED_BASELINE : 'stage-h';
  return loadStageH(cp, loadPlanning(cp, ref)?.files ?? null, name)?.files ?? null;
}

/**
 * Stage H dropped (a scene changed): it is computed again before the next staging. What stage/
 * holds is kept as the baseline: the stage H checkpoint is moved there, unless a baseline is there
 * already (stage/ has not been written since: it still describes it).
 */
export function retireStageH(cp: Checkpoints): void {
  const h = cp.file('stage-h');
  if (!fs.existsSync(h)) return;
  if (cp.has(STAGED_BASELINE)) fs.rmSync(h, { force: true });
  else fs.renameSync(h, cp.file(STAGED_BASELINE));
}

/** A staged file's hand edit adopted: the baseline takes its text, so only a later edit counts as new. */
export function adoptIntoBaseline(cp: Checkpoints, rel: string, text: string): void {
  const saved = cp.load<StageHCheckpoint & { planned?: string[] }>(STAGED_BASELINE);
  if (!saved) return;
  const planned = Array.isArray(saved.planned) ? saved.planned.filter((p) => p !== rel) : undefined;
  cp.write(STAGED_BASELINE, { ...saved, ...(planned ? { planned } : {}), files: { ...saved.files, [rel]: text } });
}

/**
 * The warnings a run keeps in its checkpoints (planning's, with the planning checkpoint; the
 * scenes accepted for manual review, AUR5097, from E–G's report; the recap's, with stage H's), in
 * the order the run says them: a commit rolled forward from its journal reports them as its run
 * would have, since the run that planned it was cut before it said them. Nothing for a checkpoint
 * without them (an older aureus's). `episode`: the journal's id of the episode it commits.
 */
export function keptWarnings(runDir: string, episode: string): Diagnostic[] {
  // A damaged checkpoint's warnings cannot be repeated: said so (AUR6096), not left out without a word.
  const lost: Diagnostic[] = [];
  const cp = new Checkpoints(runDir, (_d, { file, detail }) => lost.push(diag('AUR6096', { file, detail }, { file })));
  const listed = (name: string): Diagnostic[] => {
    const warnings = cp.load<{ warnings?: unknown }>(name)?.warnings;
    return Array.isArray(warnings) ? (warnings as Diagnostic[]) : [];
  };
  const report = cp.load<{ report?: VerifierReport }>('scenes')?.report;
  // Worded as the committed run words it: the roll-forward commits the episode and deletes the run
  // folder, so the report named is the committed copy in the episode folder (a journal's id not an
  // episode's, edited by hand: the run folder's, as before).
  const ref = parseEpisodeId(episode);
  const review = report?.scenes ? manualReviewWarnings(report, ref ? episodeRelDir(ref) : path.posix.join(RUNS_DIR, path.basename(runDir))) : [];
  return [...listed('planning'), ...review, ...listed('stage-h'), ...lost];
}
