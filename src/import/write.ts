import '../diagnostics/codes/cli.js';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { createGit } from '../git/adapter.js';
import { ENTITY_DIFF_CONFIG } from '../git/attributes.js';
import { diag } from '../diagnostics/index.js';
import { AureusError, ExitCode } from '../errors.js';
import type { RepoFiles } from './files.js';

/** The commit identity when the machine resolves none (a fresh CI machine). */
const IMPORT_IDENTITY = { name: 'Aureus import', email: 'aureus@localhost' };

async function isEmptyDirOrMissing(dir: string): Promise<boolean> {
  try {
    const s = await stat(dir);
    if (!s.isDirectory()) return false;
    return (await readdir(dir)).length === 0;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return true;
    // A parent that is a file: the path can never be a world directory.
    if (code === 'ENOTDIR') return false;
    throw e;
  }
}

/**
 * Write a whole world repository and make its first commit, all or nothing: the files and the
 * git repository are built in a sibling staging folder, which is renamed onto the target only when
 * complete (rename(2) replaces a missing or empty directory atomically). A failure leaves the
 * target exactly as it was.
 */
export async function writeWorldRepo(target: string, files: RepoFiles, commitMessage: string): Promise<void> {
  const dir = path.resolve(target);
  if (!(await isEmptyDirOrMissing(dir))) {
    throw new AureusError(`refusing to import into ${target}`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7904', { dir: target })] });
  }
  const staging = `${dir}.aureus-import-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  // The place must be writable before any work: a parent that is a file, a missing permission or a
  // pseudo file system (/proc) is the user's path problem (exit 2), not an internal error.
  try {
    await mkdir(path.dirname(dir), { recursive: true });
    await mkdir(staging);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const reason = code === 'ENOTDIR' || code === 'EEXIST' ? `a parent of ${target} is not a directory`
      : code === 'EACCES' || code === 'EPERM' ? `permission denied in ${path.dirname(dir)}`
      : code === 'EROFS' ? 'the file system is read-only'
      : `${code ?? 'error'}: cannot create a directory there`;
    throw new AureusError(`cannot write ${target}`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7005', { file: target, reason }, { hint: 'pass a new or empty directory whose parent exists and is writable' })] });
  }
  try {
    for (const [rel, content] of files) {
      const abs = path.join(staging, rel);
      if (!abs.startsWith(staging + path.sep)) throw new Error(`import produced an unsafe path ${rel}`);
      await mkdir(path.dirname(abs), { recursive: true });
      await writeFileAtomic(abs, content);
    }
    // Through the one git port, as `aureus init` does: its environment hygiene (no caller GIT_DIR,
    // editor or pager; GIT_AUTHOR_*/GIT_COMMITTER_* identity and dates passed through), exactly
    // the written files staged (never `add -A`), and the repository's identity, else ours.
    const git = createGit(staging);
    await git.init({ branch: 'main' });
    await git.ensureIdentity(IMPORT_IDENTITY);
    await git.setConfig(ENTITY_DIFF_CONFIG);
    await git.add([...files.keys()].sort());
    await git.commit(commitMessage);
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
