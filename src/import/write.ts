import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { simpleGit } from 'simple-git';
import { diag } from '../diagnostics/index.js';
import { AureusError, ExitCode } from '../errors.js';
import type { RepoFiles } from './files.js';

async function isEmptyDirOrMissing(dir: string): Promise<boolean> {
  try {
    const s = await stat(dir);
    if (!s.isDirectory()) return false;
    return (await readdir(dir)).length === 0;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw e;
  }
}

/**
 * Write a whole world repository and make its first commit, all or nothing: the files and the
 * git repository are built in a sibling staging folder, which is renamed onto the target only when
 * complete (rename(2) replaces a missing or empty directory atomically). A failure leaves the
 * target exactly as it was.
 */
export async function writeWorldRepo(target: string, files: RepoFiles, commitMessage: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const dir = path.resolve(target);
  if (!(await isEmptyDirOrMissing(dir))) {
    throw new AureusError(`refusing to import into ${target}`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7904', { dir: target })] });
  }
  await mkdir(path.dirname(dir), { recursive: true });
  const staging = `${dir}.aureus-import-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  try {
    for (const [rel, content] of files) {
      const abs = path.join(staging, rel);
      if (!abs.startsWith(staging + path.sep)) throw new Error(`import produced an unsafe path ${rel}`);
      await mkdir(path.dirname(abs), { recursive: true });
      await writeFileAtomic(abs, content);
    }
    const identity = {
      GIT_AUTHOR_NAME: env.GIT_AUTHOR_NAME ?? 'Aureus import',
      GIT_AUTHOR_EMAIL: env.GIT_AUTHOR_EMAIL ?? 'aureus@localhost',
      GIT_COMMITTER_NAME: env.GIT_COMMITTER_NAME ?? 'Aureus import',
      GIT_COMMITTER_EMAIL: env.GIT_COMMITTER_EMAIL ?? 'aureus@localhost',
    };
    const git = simpleGit({ baseDir: staging }).env({ ...pickGitEnv(env), ...identity });
    try {
      await git.init(['--initial-branch=main']);
      await git.add(['-A']);
      await git.commit(commitMessage);
    } catch (e) {
      throw new AureusError(`git failed while creating the world repository: ${(e as Error).message.split('\n')[0]}`, { exitCode: ExitCode.GIT, cause: e });
    }
    if (!(await isEmptyDirOrMissing(dir))) {
      throw new AureusError(`refusing to import into ${target}`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7904', { dir: target })] });
    }
    await rm(dir, { recursive: true, force: true }); // empty or missing: nothing of the user's is lost
    await rename(staging, dir);
  } catch (e) {
    await rm(staging, { recursive: true, force: true });
    throw e;
  }
}

/** PATH and HOME for git itself; nothing else of the caller's environment leaks into the child. */
function pickGitEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TMPDIR', 'GIT_CONFIG_NOSYSTEM']) if (env[k] !== undefined) out[k] = env[k]!;
  return out;
}
