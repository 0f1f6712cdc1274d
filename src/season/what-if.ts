import path from 'node:path';
import type { AppliedDelta, ResolvedDelta } from '../domain/delta.js';
import { WORLD_FILES, type World } from '../domain/world.js';
import { stableStringify } from '../core/json.js';
import { applyDeltas } from '../core/deltas/index.js';
import { AureusError, ExitCode } from '../errors.js';
import { diag } from '../diagnostics/index.js';
import { stripControl } from '../diagnostics/sanitize.js';
import { seasonDirName } from '../paths.js';
import { createGit } from '../git/adapter.js';
import { validateSchema, type SchemaKind } from '../store/schema.js';
import { checkWorldReferences } from '../store/references.js';
import { checkStateInvariants } from '../core/invariants.js';
import { writeTextFile, writeWorld } from '../store/write.js';
import { readWorldAt } from './world-at.js';
import { checkBranchArgs, refuseLostEdits, switchToWhatIfBranch } from './branch.js';
import { halfMadeBranch, removeBranchJournal, writeBranchJournal } from './branch-journal.js';
import { testKillHook } from '../pipeline/checkpoint.js';
import { commitOrPutBack } from './undoable-commit.js';
import { ANCHORS_REL, type AnchorsFile } from '../domain/anchors.js';
import { nextEpisode } from './episodes.js';

/**
 * `aureus branch <name> --set <path>=<value>…` (issue 16): a what-if that changes the world. The
 * changes are `set` deltas through the core's delta engine (paths of docs/paths.md), with provenance
 * {episode: "what-if:<name>", event: "set"}; they are recorded in seasons/season_NN/what_if/<name>.json
 * and committed on the new branch with the world files, so the next episode there differs.
 */
export function parseSets(values: string[]): ResolvedDelta[] {
  return values.map((v) => {
    const eq = v.indexOf('=');
    const p = eq > 0 ? v.slice(0, eq).trim() : '';
    const raw = eq > 0 ? v.slice(eq + 1).trim() : '';
    if (!p || !raw) throw new AureusError(`bad --set ${v}`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR6109', { value: v, detail: 'expected <path>=<value>' })] });
    // A --set goes into the world and, as typed, into the commit's Aureus-Set trailer: a line break
    // there would forge a trailer, an escape would drive the terminal of whoever runs `git log`.
    const control = [...(/[\t\n]/.test(v) ? ['line breaks or tabs'] : []), ...stripControl(v).removed];
    if (control.length) throw new AureusError(`bad --set ${v}`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR6109', { value: v, detail: `it holds control characters (${control.join(', ')}): a --set is one line of plain text` })] });
    // JSON when it parses (numbers, true, "quoted"), else the bare text (an id, a status).
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      /* a bare word */
    }
    return { path: p, op: 'set' as const, value } as ResolvedDelta;
  });
}

/** A --set as the user writes it, for a message: a text value bare (it is quoted as a whole: `bad --set "x.status=exiled"`). */
const setText = (d: ResolvedDelta): string => `${d.path}=${typeof d.value === 'string' ? d.value : JSON.stringify(d.value)}`;

/** The deltas applied to the world at `from`, checked against the schemas, before anything is written. */
export async function whatIfWorld(root: string, name: string, fromCommit: string, deltas: ResolvedDelta[]): Promise<{ world: World; applied: AppliedDelta[]; base: World }> {
  const base = await readWorldAt(root, fromCommit);
  const r = applyDeltas(base, withConsequences(base, deltas), () => ({ episode: `what-if:${name}`, scene: '', event: 'set', operator: null }));
  if (!r.ok) {
    const d = deltas[r.failedIndex ?? 0];
    throw new AureusError('the --set change cannot be applied', {
      exitCode: ExitCode.USAGE,
      // One diagnostic naming the --set: the engine's messages are its detail (listing them again
      // printed each twice), and the engine's hint (the valid paths) is the more useful one.
      diagnostics: [diag('AUR6109', { value: d ? setText(d) : '', detail: r.diagnostics.map((x) => x.message).join('; ') }, r.diagnostics[0]?.hint ? { hint: r.diagnostics[0].hint } : {})],
    });
  }
  for (const [key, rel] of Object.entries(WORLD_FILES) as [keyof World, string][]) {
    const problems = validateSchema(key as SchemaKind, r.world[key], rel);
    if (problems.length) throw new AureusError('the --set change makes the world invalid', { exitCode: ExitCode.USAGE, diagnostics: problems });
  }
  // References, the ledger and the hard constraints (e.g. "the consul survives"): a what-if stays a valid world.
  const refs = [...checkWorldReferences(r.world), ...checkStateInvariants(r.world)].filter((d) => d.severity === 'error');
  if (refs.length) throw new AureusError('the --set change makes the world invalid', { exitCode: ExitCode.USAGE, diagnostics: refs });
  return { world: r.world, applied: r.applied, base };
}

/** What a what-if branch will write, worked out from the world at `from` before anything is written. */
interface WhatIf {
  at: { label: string; commit: string };
  world: World;
  base: World;
  applied: AppliedDelta[];
  anchors: { file: AnchorsFile; applied: AppliedDelta[] } | null;
  /** Whether it writes this file: a world file a --set changes, world/anchors.json when waived, the record. */
  writes: (file: string) => boolean;
}

async function planWhatIf(root: string, name: string, from: string, sets: string[]): Promise<WhatIf> {
  const parsed = parseSets(sets);
  const at = await checkBranchArgs(root, name, from, { resume: true });
  const anchors = await waivedAnchors(root, name, at.commit, parsed.filter((d) => isAnchorPath(d.path)));
  const { world, applied, base } = await whatIfWorld(root, name, at.commit, parsed.filter((d) => !isAnchorPath(d.path)));
  const files = (Object.keys(WORLD_FILES) as (keyof World)[]).filter((k) => world[k] !== base[k]).map((k) => WORLD_FILES[k]);
  if (anchors) files.push(ANCHORS_REL);
  // The record's season is the next episode's at `from`, known once it is checked out: any season's.
  const record = new RegExp(`^seasons/season_\\d+/what_if/${recordName(name).replace(/\./g, '\\.')}$`);
  return { at, world, base, applied, anchors, writes: (f) => files.includes(f) || record.test(f) };
}

const recordName = (branch: string): string => `${branch.replace(/[^A-Za-z0-9_.-]/g, '_')}.json`;

/**
 * Every check of `branch --set` without writing anything (the command runs it before it takes the
 * lock, branchWithSets again under it): the --set values, the name and `from`, the changed world,
 * and no uncommitted edit to a file the branch writes or switches (AUR6032, even with --allow-dirty).
 */
export async function checkWhatIf(root: string, name: string, from: string, sets: string[]): Promise<void> {
  const w = await planWhatIf(root, name, from, sets);
  await refuseLostEdits(root, name, w.at, w.writes);
}

export async function branchWithSets(root: string, name: string, from: string, sets: string[]): Promise<{ branch: string; from: string; commit: string; record: string; deltas: AppliedDelta[] }> {
  const { at, world, base, applied, anchors, writes } = await planWhatIf(root, name, from, sets);
  const git = createGit(root);
  // A re-run after a kill finishes the half-made branch that kill left (planWhatIf accepted it):
  // back to where the first run started when git refuses the commit, not to that branch.
  const half = await halfMadeBranch(root, git);
  const resume = half?.branch === name;
  const branch = await git.currentBranch();
  const back = resume ? half.back : branch !== null ? { branch } : { commit: (await git.head())! };
  // Written before the switch: a kill from there on leaves a branch that reads as half made (AUREUS_TEST_KILL_AT=branch-switched).
  const journal = () => writeBranchJournal(root, { version: 1, branch: name, from: at.commit, label: at.label, back, sets });
  await switchToWhatIfBranch(root, name, from, { writes, resume, journal });
  testKillHook('branch-switched');
  const record = path.posix.join('seasons', seasonDirName(nextEpisode(root).season), 'what_if', recordName(name));
  const rels = [...Object.values(WORLD_FILES).filter(writes), ...(anchors ? [ANCHORS_REL] : []), record];
  let paths: string[] = [];
  // A commit git refuses (a signing program that fails, a terminal's Ctrl-C) leaves no branch and no written file.
  const commit = await commitOrPutBack(git, root, rels, {
    write: async () => {
      // Each file as its author laid it out at `from`: the files no --set touched are left as they are.
      const changed = await writeWorld(root, world, base);
      if (anchors) {
        await writeTextFile(path.join(root, ANCHORS_REL), stableStringify(anchors.file));
        changed.push(ANCHORS_REL);
        applied.push(...anchors.applied);
      }
      await writeTextFile(path.join(root, record), stableStringify({ format: 1, branch: name, from: at.label, deltas: applied }));
      paths = [...changed, record];
    },
    commit: async () => {
      await git.add(paths);
      const message = [`What if: ${name}`, '', ...applied.map((d) => `${d.path}: ${JSON.stringify(d.before)} -> ${JSON.stringify(d.after)}`), '', `Aureus-Branch: ${name}`, ...sets.map((s) => `Aureus-Set: ${s}`), ''].join('\n');
      return git.commit(message, { paths });
    },
    undo: async () => {
      await git.dropNewBranch(name, back);
      removeBranchJournal(root);
    },
  });
  removeBranchJournal(root);
  return { branch: name, from: at.label, commit, record, deltas: applied };
}

/** What a change implies for the world to stay valid, as recorded deltas too: the dead drop their intentions. */
function withConsequences(world: World, deltas: ResolvedDelta[]): ResolvedDelta[] {
  const out: ResolvedDelta[] = [];
  for (const d of deltas) {
    out.push(d);
    const m = /^characters\.([a-z0-9_]+)\.status$/.exec(d.path);
    if (!m || d.value !== 'dead') continue;
    const c = world.characters.characters.find((x) => x.id === m[1]);
    for (const i of c?.bdi.intentions ?? []) out.push({ path: `characters.${m[1]}.bdi.intentions`, op: 'subtract', value: i });
  }
  return out;
}

/**
 * History changed on this branch (issue 17, item 4): `--set anchors.<id>.waived=true` turns a dated
 * fixed point of world/anchors.json off (false turns it back on), so the Director neither holds its
 * operators back nor requires them. Checked before anything is written: an unknown anchor, another
 * field or a value that is not a boolean is AUR6109. Recorded like any other --set.
 */
const isAnchorPath = (p: string): boolean => p === 'anchors' || p.startsWith('anchors.');

async function waivedAnchors(root: string, name: string, commit: string, sets: ResolvedDelta[]): Promise<{ file: AnchorsFile; applied: AppliedDelta[] } | null> {
  if (sets.length === 0) return null;
  const bad = (d: ResolvedDelta, detail: string) =>
    new AureusError('the --set change cannot be applied', { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR6109', { value: setText(d), detail })] });
  const text = await createGit(root).showFile(commit, ANCHORS_REL);
  if (text === null) throw bad(sets[0]!, `${ANCHORS_REL} does not exist in this world`);
  const file = JSON.parse(text) as AnchorsFile;
  const applied: AppliedDelta[] = [];
  for (const d of sets) {
    const m = /^anchors\.([a-z0-9_]+)\.waived$/.exec(d.path);
    if (!m) throw bad(d, 'only anchors.<id>.waived can be set (true: history changed, the anchor is ignored)');
    const a = file.anchors.find((x) => x.id === m[1]);
    if (!a) throw bad(d, `no anchor ${m[1]} in ${ANCHORS_REL} (known: ${file.anchors.map((x) => x.id).join(', ')})`);
    if (typeof d.value !== 'boolean') throw bad(d, 'waived is true or false');
    const before = a.waived ?? false;
    if (d.value) a.waived = true;
    else delete a.waived;
    applied.push({ path: d.path, op: 'set', value: d.value, before, after: d.value, provenance: { episode: `what-if:${name}`, scene: '', event: 'set', operator: null } });
  }
  return { file, applied };
}
