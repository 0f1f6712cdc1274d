import { episodeRef, type EpisodeRef } from '../domain/context.js';
import { WORLD_FILES, type World } from '../domain/world.js';
import type { ConfigFile } from '../config/load.js';
import { AureusError, ExitCode } from '../errors.js';
import { diag, type Diagnostic } from '../diagnostics/index.js';
import { createGit } from '../git/adapter.js';
import type { GitPort } from '../git/port.js';
import { episodesInTree, findCommittedEpisode, nextEpisode, refuseTakenTag } from '../season/episodes.js';
import { requireSeasonGoals } from '../season/require-season.js';
import { refuseInterruptedRollback } from '../season/rollback-journal.js';
import { refuseHalfMadeBranch } from '../season/branch-journal.js';
import { allowedDirtyWarning, requireCleanWorld } from './clean-world.js';
import { episodeInputPaths } from './planning-inputs.js';
import { refuseNewEpisodeFiles } from './commit-safety.js';
import { refuseLeftoverEpisodes } from './leftover-episode.js';
import { episodeRelDir } from '../paths.js';

/**
 * Which episode a run compiles, with which seed, and the read-only checks made before it may
 * write anything (dirty world, the episode asked for, validation).
 */
export interface EpisodeChoiceOptions {
  root: string;
  season?: number;
  episode?: number;
  allowDirty?: boolean;
  /** false: the command has no --allow-dirty (`episode commit`), so the refusal must not suggest it. */
  allowDirtyFlag?: boolean;
  noCommit?: boolean;
}

/** The episode asked for (--season, --episode), else the next one; not checked yet (chooseEpisode). */
function askedEpisode(root: string, o: Pick<EpisodeChoiceOptions, 'season' | 'episode'>): { next: EpisodeRef; ref: EpisodeRef } {
  const next = nextEpisode(root, o.season);
  return { next, ref: o.episode === undefined ? next : episodeRef(o.season ?? next.season, o.episode) };
}

async function chooseEpisode(root: string, o: Pick<EpisodeChoiceOptions, 'season' | 'episode'>): Promise<EpisodeRef> {
  const { next, ref } = askedEpisode(root, o);
  requireSeasonGoals(root, next.season);
  if (o.episode === undefined) return next;
  if ((await findCommittedEpisode(root, ref)) || episodesInTree(root).some((r) => r.id === ref.id)) {
    throw new AureusError(`episode ${ref.id} is already committed`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR6009', { episode: ref.id, tag: ref.id })] });
  }
  refuseOutOfOrder(root, ref, next);
  return ref;
}

/**
 * AUR6015 (usage, exit 2): episodes are compiled in order, so one whose previous episode is not
 * committed is refused. `episode plan` refuses the same way: its plan previews the run (README).
 */
export function refuseOutOfOrder(root: string, ref: EpisodeRef, next: EpisodeRef): void {
  if (ref.episode > 1 && !episodesInTree(root).some((r) => r.season === ref.season && r.episode === ref.episode - 1)) {
    throw new AureusError(`episode ${ref.id} cannot be compiled yet`, {
      exitCode: ExitCode.USAGE,
      diagnostics: [diag('AUR6015', { episode: ref.id, reason: `the previous episode ${episodeRef(ref.season, ref.episode - 1).id} is not committed (next is ${next.id})` })],
    });
  }
}

/**
 * What a run checks before it may write anything: the dirty world (exit 8), the episode asked for
 * (usage, exit 2) and the whole of `aureus validate` (exit 3), in that order. Read-only, so it runs
 * before the lock and a refused run leaves no trace, not even an empty .aureus/.
 */
export interface RunPreflight {
  ref: EpisodeRef;
  world: World;
  /** HEAD when the checks ran: a commit made since (another run) means they must be made again. */
  head: string | null;
  /** aureus.config.yaml as read for the checks; the run applies its flags over it (config/load.ts). */
  configFile: ConfigFile;
  /** Validation's warnings the run prints: what its commit will do to the author's files (AUR1040). */
  warnings: Diagnostic[];
  /** Keep the checks' verdict in the derived index (loadValidatedWorld): called once the run goes ahead. */
  remember: () => void;
}

export async function preflightEpisode(o: EpisodeChoiceOptions, git: GitPort = createGit(o.root)): Promise<RunPreflight> {
  const root = o.root;
  // A rollback a kill cut (its journal left): the work tree and tags may be half moved, so neither
  // the world read nor a dirty-files refusal would say what is wrong (AUR6037 says how to finish it).
  refuseInterruptedRollback(root);
  // The git queries start now and are read when their answer is due: the git processes run while
  // this process reads the config and loads the world (issue 18). Both are read-only: HEAD, and a
  // `git status` that does not refresh .git/index (a refused run writes nothing, not even the index).
  const headQuery = git.head();
  // Refuse to run on top of uncommitted world edits (they would be committed as the episode's) or
  // uncommitted edits of its other inputs (season goals, notes, the episodes before it, style,
  // config: the committed episode could not be reproduced from its commit). The episode asked for
  // names them; chooseEpisode checks it below, after this refusal, which comes first.
  const asked = askedEpisode(root, o).ref;
  const inputs = episodeInputPaths(asked);
  const cleanQuery = !o.allowDirty && !o.noCommit ? requireCleanWorld(git, inputs, { readOnly: true, allowDirtyFlag: o.allowDirtyFlag }) : null;
  cleanQuery?.catch(() => undefined); // awaited below, after the config check
  // Allowed, the edits are still said: the episode's commit carries them (AUR6061).
  const allowedQuery = o.allowDirty && !o.noCommit ? allowedDirtyWarning(git, inputs) : null;
  allowedQuery?.catch(() => undefined); // awaited below
  // A merge (rebase, …) half done or a world file git ignores would fail the commit after all the
  // work (git/state.ts), and a file git has no copy of where the episode writes would be replaced
  // (AUR6066; the commit checks again): refused now. A --no-commit run commits nothing, so it is not asked.
  const gitState = o.noCommit ? null : Promise.all([git.refuseOperationInProgress(), git.refuseIgnored(Object.values(WORLD_FILES)), refuseNewEpisodeFiles(git, episodeRelDir(asked))]);
  // An earlier episode's folder git has no copy of (an abandoned commit's, AUR6067): the episode
  // asked for was chosen after it, on the world its unfinished apply left. Refused, committed or not.
  const leftover = refuseLeftoverEpisodes(git, episodeRelDir(asked));
  leftover.catch(() => undefined); // awaited below, after the dirty check
  gitState?.catch(() => undefined); // awaited below, after the dirty check
  // A what-if branch a kill left half made (`branch --set` cut off before its commit, AUR6035): an
  // episode compiled there would miss the change its author believes is made, committed or staged.
  const halfMade = refuseHalfMadeBranch(root, 'an episode cannot be compiled on it', git);
  halfMade.catch(() => undefined); // awaited below, after the dirty check
  // A broken config is reported as broken (exit 3) even when it is also uncommitted: fixing it comes first.
  // Read once here: validation and the run resolve their flags over this same read.
  const { readConfigFile, resolveConfig, configOrThrow } = await import('../config/load.js');
  const configFile = readConfigFile(root);
  configOrThrow(resolveConfig(configFile));
  // The episode and the world are worked out while `git status` runs and HEAD is read (HEAD is
  // awaited last: the load does not wait for it, issue 18); a dirty world is still the refusal
  // reported first (exit 8), then the episode asked for (exit 2), then validation (exit 3).
  const chosen = chooseAndLoad(root, o, configFile, git);
  chosen.catch(() => undefined); // awaited below, after the dirty check
  await cleanQuery;
  await gitState;
  await leftover;
  await halfMade;
  const { ref, world, warnings, remember } = await chosen;
  return { ref, world, head: await headQuery, configFile, warnings: [...warnings, ...((await allowedQuery) ?? [])], remember };
}

async function chooseAndLoad(root: string, o: EpisodeChoiceOptions, configFile: ConfigFile, git: GitPort): Promise<{ ref: EpisodeRef; world: World; warnings: Diagnostic[]; remember: () => void }> {
  // Not a world repository at all: say that (exit 3), not that season 1 has no goals (exit 2).
  (await import('../store/load.js')).requireWorldFolder(root);
  const ref = await chooseEpisode(root, o);
  // The tag its commit will get, if left by a deleted branch or an earlier detached run, would fail
  // the commit after all the work (AUR6033): refused now. A detached HEAD's qualified tag is said (AUR6034).
  const { tag, detached } = await refuseTakenTag(root, ref, git);
  const notices = detached && tag !== ref.id ? [diag('AUR6034', { episode: ref.id, tag })] : [];
  // The episode folder the commit will write (or its season folder) behind a symbolic link: refused
  // now (AUR1052, exit 3), as a linked world or season file is, not at the commit after all the work.
  const linked = (await import('../store/symlinks.js')).linkedPath(root, episodeRelDir(ref));
  if (linked) throw new AureusError(`${episodeRelDir(ref)} is behind a symbolic link`, { exitCode: ExitCode.INVALID_WORLD, diagnostics: [linked] });
  const { loadValidatedWorld } = await import('../store/validate.js');
  const { world, diagnostics, remember } = await loadValidatedWorld(root, configFile);
  // Only the rewrite warning: validate's others (a soft constraint that does not hold) are for validate.
  const { isRewriteWarning } = await import('../store/text-form.js');
  return { ref, world, warnings: [...notices, ...diagnostics.filter(isRewriteWarning)], remember };
}
