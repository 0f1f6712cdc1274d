import { lstat, mkdir, readdir, readFile, readlink, rename, rm, rmdir, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { diag } from '../diagnostics/index.js';
import { AureusError, ExitCode } from '../errors.js';
import { ENTITY_DIFF_CONFIG, WORLD_GITATTRIBUTES } from '../git/attributes.js';
import { createGit, UNSIGNED_ENV, unsignedFirstCommit } from '../git/adapter.js';
import { enclosingWorldFolder } from './nested-world.js';
import { copyKitIndex } from './derived-index/kit.js';
import { inStaging, signalAt, stagingFolder, stopIfAborted } from './staging.js';
import { claimStaging, sweepDeadStaging } from './staging-owner.js';
import { AUREUS_DIR, CONFIG_FILE, packageRoot, seasonGoalsRel } from '../paths.js';

/**
 * `aureus init`: a new world repository from the starter kit. Built in a hidden sibling folder
 * and renamed into place at the end, so a failure at any step (copy, git) leaves nothing behind:
 * not the folder, not a half-made repository. Ctrl-C too (exit 130, AUR7008): the staging is
 * the one import uses (store/staging.ts).
 */

/** The hidden sibling an init builds in: `.<target>.aureus-init-<pid>`. */
const STAGING_INFIX = '.aureus-init-';

/** AUR7008 (exit 130): init of `target` was interrupted; nothing of it is on disk. */
export function initInterrupted(target: string): AureusError {
  return new AureusError(`interrupted: no world created at ${target}`, { exitCode: ExitCode.INTERRUPTED, diagnostics: [diag('AUR7008', { dir: target })] });
}

/** What a world repository gets from the package (directories copied whole). */
export const KIT_DIRS = ['world', 'operators', 'style', 'schemas'] as const;
export const KIT_FILES = [seasonGoalsRel(1)] as const;
/** Copied when the package has it. */
export const KIT_OPTIONAL_FILES = [CONFIG_FILE] as const;

export const WORLD_GITIGNORE = `# Aureus run state: drafts, checkpoints, the replay cache and the run lock.\n${AUREUS_DIR}/\nnode_modules/\n`;

export const INITIAL_COMMIT_MESSAGE = 'Create the world from the Aureus starter kit';

export interface ScaffoldResult {
  root: string;
  commit: string;
  /** Files committed, relative, sorted. */
  files: string[];
}

async function exists(p: string): Promise<boolean> {
  try {
    await lstat(p);
    return true;
  } catch {
    return false;
  }
}

/** Refuse anything but a missing path or an empty directory, saying why. */
async function checkTarget(target: string): Promise<void> {
  const around = enclosingWorldFolder(path.resolve(target));
  if (around) throw new AureusError(`refusing to create a world in ${target}`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7910', { dir: target, ...around })] });
  let st;
  try {
    st = await stat(target);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw usage(diag('AUR7004', { dir: target, reason: (e as Error).message }));
  }
  if (!st.isDirectory()) throw usage(diag('AUR7002', { dir: target }));
  const entries = await readdir(target);
  if (entries.length > 0) {
    const shown = entries.sort().slice(0, 5).join(', ') + (entries.length > 5 ? `, … (${entries.length} entries)` : '');
    throw usage(diag('AUR7001', { dir: target, entries: shown }));
  }
}

function usage(d: ReturnType<typeof diag>): AureusError {
  return new AureusError(d.message, { exitCode: ExitCode.USAGE, diagnostics: [d] });
}

async function listFiles(dir: string, base = dir): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const abs = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name === '.git') continue;
      out.push(...(await listFiles(abs, base)));
    } else out.push(path.relative(base, abs).split(path.sep).join('/'));
  }
  return out.sort();
}

/**
 * Copy a kit file or folder (recursively) as new files, never over an existing one. Not fs.cp: it
 * gives each copy the package's mode (755/644 whatever the umask), while the files a program creates
 * follow the user's umask, as .gitignore and .aureus/ do. Only the executable bit is kept (git
 * records it); a link is copied as a link, as fs.cp did.
 */
async function copyKitEntry(from: string, to: string): Promise<void> {
  const st = await lstat(from);
  if (st.isDirectory()) {
    await mkdir(to);
    for (const name of await readdir(from)) await copyKitEntry(path.join(from, name), path.join(to, name));
  } else if (st.isSymbolicLink()) {
    await symlink(await readlink(from), to);
  } else {
    await writeFile(to, await readFile(from), { flag: 'wx', mode: st.mode & 0o111 ? 0o777 : 0o666 });
  }
}

/** The kit, the .gitignore and .gitattributes, and the first commit, in `staging`; stops between steps once `signal` is aborted. */
async function fillStaging(staging: string, kit: string, signal: AbortSignal | undefined): Promise<{ commit: string; files: string[] }> {
  for (const rel of KIT_DIRS) {
    await copyKitEntry(path.join(kit, rel), path.join(staging, rel));
    if (rel === KIT_DIRS[0]) signalAt('init-copy'); // once: a second signal would quit at once
    stopIfAborted(signal);
  }
  for (const rel of [...KIT_FILES, ...KIT_OPTIONAL_FILES]) {
    const from = path.join(kit, rel);
    if (!(await exists(from))) continue;
    await mkdir(path.dirname(path.join(staging, rel)), { recursive: true });
    await copyKitEntry(from, path.join(staging, rel));
  }
  await writeFile(path.join(staging, '.gitignore'), WORLD_GITIGNORE);
  await writeFile(path.join(staging, '.gitattributes'), WORLD_GITATTRIBUTES);
  stopIfAborted(signal);

  const git = createGit(staging);
  await git.init({ branch: 'main', signal });
  await git.setConfig(ENTITY_DIFF_CONFIG);
  const files = await listFiles(staging);
  signalAt('init-git-add');
  await git.add(['.'], { signal });
  const commit = await git.commit(INITIAL_COMMIT_MESSAGE, { signal });
  stopIfAborted(signal);
  return { commit, files };
}

/**
 * Create a world repository at `target` (absolute): the starter kit from `kitRoot` (default:
 * the aureus package), a .gitignore, `git init` on branch main and a first commit. `signal` aborted
 * (Ctrl-C) stops it at the next step, the git command under way included: AUR7008, nothing left.
 */
export async function scaffoldWorld(target: string, opts: { kitRoot?: string; signal?: AbortSignal } = {}): Promise<ScaffoldResult> {
  const kit = opts.kitRoot ?? packageRoot();
  await checkTarget(target);
  if (opts.signal?.aborted) throw initInterrupted(target);

  const missing: string[] = [];
  for (const rel of [...KIT_DIRS, ...KIT_FILES]) if (!(await exists(path.join(kit, rel)))) missing.push(rel);
  if (missing.length) {
    const d = diag('AUR7003', { missing: missing.join(', '), kit });
    throw new AureusError(d.message, { exitCode: ExitCode.INTERNAL, diagnostics: [d] });
  }

  const parent = path.dirname(target);
  // mkdir returns the first directory it had to create: that is what to remove on failure.
  let createdParent: string | undefined;
  try {
    createdParent = await mkdir(parent, { recursive: true });
  } catch (e) {
    throw usage(diag('AUR7004', { dir: target, reason: (e as Error).message }));
  }
  let removedEmptyTarget = false;
  try {
    // Every dead build's staging folder beside it goes, whatever name it was for (staging-owner.ts).
    await sweepDeadStaging(parent, '.', STAGING_INFIX);
    const staging = stagingFolder(target, STAGING_INFIX, { hidden: true });
    const release = await claimStaging(staging);
    const stagingOpts = { signal: opts.signal, interrupted: () => initInterrupted(target), removeOnExit: createdParent ?? staging, release };
    return await inStaging(staging, stagingOpts, async () => {
      const { commit, files } = await fillStaging(staging, kit, opts.signal);
      // After the commit (.aureus/ is git-ignored, and not one of the files listed): the package's own
      // kit comes with its derived-index entry (derived-index/kit.ts); another kit root does not.
      if (!opts.kitRoot || path.resolve(opts.kitRoot) === packageRoot()) copyKitIndex(staging);

      // Nothing in .git records the absolute path, so the finished repository can move into place.
      // An empty target directory is replaced (rename(2) allows that); it was checked empty above.
      if (await exists(target)) {
        await rmdir(target);
        removedEmptyTarget = true;
      }
      await rename(staging, target);
      return { root: target, commit, files };
    });
  } catch (e) {
    if (removedEmptyTarget) await mkdir(target).catch(() => undefined);
    if (createdParent) await rm(createdParent, { recursive: true, force: true });
    if (e instanceof AureusError) throw unsignedFirstCommit(e, target, `create this world unsigned with \`${UNSIGNED_ENV} aureus init ${target}\``);
    // A path the user cannot write to is a usage problem; anything else is unexpected.
    // Any errno from the file system (ENOENT under /proc, EACCES, EROFS, ENOSPC…) is about the
    // target, not a bug: a usage error. Only a failure without one is internal.
    const userSide = /^E[A-Z]+$/.test((e as NodeJS.ErrnoException).code ?? '');
    throw new AureusError(`cannot create a world at ${target}: ${(e as Error).message}`, {
      exitCode: userSide ? ExitCode.USAGE : ExitCode.INTERNAL,
      diagnostics: [diag('AUR7004', { dir: target, reason: (e as Error).message })],
      cause: e,
    });
  }
}
