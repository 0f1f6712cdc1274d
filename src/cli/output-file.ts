import fs from 'node:fs';
import path from 'node:path';
import { AureusError, ExitCode } from '../errors.js';
import { diag } from '../diagnostics/catalog.js';
import '../diagnostics/codes/cli.js';
import { writeRefusal } from '../store/write-refusal.js';
import { writeWholeAsync } from '../store/durable.js';

/** Why a path cannot be written, in words (never the atomic writer's temp-file name). */
function reasonFor(file: string, code: string | undefined): string {
  const dir = path.dirname(file);
  switch (code) {
    case 'ENOENT':
      return `the directory ${dir} does not exist`;
    case 'ENOTDIR':
      return `a parent of ${file} is not a directory`;
    case 'EISDIR':
      return 'it is a directory';
    case 'EACCES':
    case 'EPERM':
      return `permission denied in ${dir}`;
    case 'EROFS':
      return 'the file system is read-only';
    case 'ENOSPC':
      return 'no space left on the device';
    default:
      return code ?? 'unknown error';
  }
}

/** Where a symbolic link points, as written in it (a dangling one says so). */
function linkTarget(file: string): string {
  let to: string;
  try {
    to = fs.readlinkSync(file);
  } catch {
    return 'an unreadable target';
  }
  return fs.existsSync(file) ? to : `${to}, which does not exist`;
}

/** Why this user may not write the existing file in place (what the shell's `>` needs), or null. */
function writeDenied(file: string): string | null {
  try {
    fs.accessSync(file, fs.constants.W_OK);
    return null;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code ?? 'EACCES';
  }
}

function badOutput(file: string, reason: string): AureusError {
  return new AureusError(`cannot write ${file}`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7005', { file, reason })] });
}

/**
 * Writes a command's -o/--output file atomically. A bad path is a usage error (exit 2) naming the
 * path and why; the checks come first so the message names the user's path, not a temp file.
 */
export async function writeOutputFile(file: string, content: string): Promise<void> {
  const dir = path.dirname(file);
  let st: fs.Stats;
  try {
    st = fs.statSync(dir);
  } catch (e) {
    throw badOutput(file, reasonFor(file, (e as NodeJS.ErrnoException).code));
  }
  if (!st.isDirectory()) throw badOutput(file, `${dir} is not a directory`);
  // Only a regular file or a new path: an atomic write renames over the path, so -o /dev/null
  // (or a FIFO, a socket) would be replaced by a regular file. `-o -` is stdout.
  // A symbolic link is refused too, dangling or not: an atomic write renames over a dangling link
  // (the link is gone, a file in its place) and writes through a live one to its target; either
  // way the command would change something the user did not name. lstat: the link itself.
  let target: fs.Stats | null = null;
  try {
    target = fs.lstatSync(file);
  } catch {
    target = null;
  }
  if (target?.isSymbolicLink()) throw badOutput(file, `it is a symbolic link (to ${linkTarget(file)}); -o never writes through or replaces a link: name the file itself, or remove the link`);
  if (target?.isDirectory()) throw badOutput(file, 'it is a directory');
  if (target && !target.isFile()) throw badOutput(file, 'it is not a regular file (a device, FIFO or socket); use -o - for standard output');
  // The atomic write renames a new file over the path, which needs only the directory's write
  // permission: a file the user made read-only (chmod 444) was replaced where the shell's `>` refuses
  // it. Asked as the shell asks (access(2) for this user; root may write it, as with `>`).
  const denied = target ? writeDenied(file) : null;
  if (denied === 'EROFS') throw badOutput(file, reasonFor(file, denied));
  if (denied) throw badOutput(file, `it is read-only for this user (mode ${(target!.mode & 0o777).toString(8).padStart(4, '0')}); -o does not replace a file you may not write: make it writable (chmod u+w) or name another path`);
  try {
    await writeWholeAsync(file, content, target ? target.mode & 0o7777 : undefined);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // A full disk or a file past the size limit (`ulimit -f`) is the file system refusing the
    // write, exit 11 as README says, not a bad path (exit 2).
    if (code === 'ENOSPC' || code === 'EDQUOT' || code === 'EFBIG') throw writeRefusal(e, file) ?? e;
    // The directory was there (checked above): ENOENT now is a file system that takes no new file
    // (/proc, /sys), not a missing directory.
    throw badOutput(file, code === 'ENOENT' && fs.existsSync(dir) ? `no new file can be created in ${dir}` : reasonFor(file, code));
  }
}
