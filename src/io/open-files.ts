import { AureusError, ExitCode } from '../errors.js';
import { diag } from '../diagnostics/catalog.js';
import '../diagnostics/codes/safety.js';

/**
 * Too many open files (EMFILE: this process's limit, `ulimit -n`; ENFILE: the whole system's) is
 * the user's environment, not a bug: AUR1054, exit 11 with the other refusals of the file system,
 * naming what could not be opened (`file`: the one being written, not its temp file) and the limit
 * to raise. Found on the error itself or on its cause (a failure wrapped by the step that met it).
 */
export function tooManyOpenFiles(e: unknown, file?: string): AureusError | undefined {
  for (let err = e, depth = 0; err instanceof Error && depth < 4; err = err.cause, depth++) {
    const { code, path, syscall } = err as NodeJS.ErrnoException;
    if (code !== 'EMFILE' && code !== 'ENFILE') continue;
    const what = file ?? (syscall?.startsWith('spawn ') ? `a process (${syscall.slice(6)})` : (path ?? 'a file'));
    const limit = code === 'EMFILE' ? "this process's limit of open files" : "the system's limit of open files";
    const hint =
      code === 'EMFILE'
        ? `raise the limit (\`ulimit -n\` shows it; \`ulimit -n 1024\` in the shell that runs aureus), then re-run`
        : 'close some programs, or raise the system limit (fs.file-max), then re-run';
    return new AureusError(`too many open files: cannot open ${what}`, {
      exitCode: ExitCode.FILESYSTEM,
      diagnostics: [diag('AUR1054', { what, reason: `${limit} is reached (${code})` }, { hint })],
      cause: e,
    });
  }
  return undefined;
}
