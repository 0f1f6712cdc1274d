import { AureusError, ExitCode } from '../errors.js';
import { diag } from '../diagnostics/index.js';
import { decodeStrictUtf8, utf8Breaks } from '../store/read.js';

/** How to undo a hand edit of a file an episode's commit wrote: its history. */
export function restoreHint(file: string, rel: string): string {
  return `restore ${file} as the episode's commit wrote it (git log -- ${rel})`;
}

/** What a command reads a committed episode file for: names it, says what it does with it ("exported", "printed"). */
export interface CommittedFile {
  /** Its name in the episode folder (recap.md). */
  file: string;
  /** Its path in the repository. */
  rel: string;
  episode: string;
  use: string;
  /** How to restore it; restoreHint's when absent. */
  hint?: string;
}

/** Why a committed episode file is not text a command can use: empty, or a byte that breaks UTF-8 at line:column. */
type CommittedProblem = 'empty' | { byte: number; line: number; column: number };

/** AUR6025 on a committed episode file a command cannot use as text: exit 3, with how to restore it. */
function unusableCommitted(f: CommittedFile, problem: CommittedProblem): AureusError {
  const reason = problem === 'empty' ? 'it is empty' : `byte 0x${problem.byte.toString(16).toUpperCase().padStart(2, '0')} is not UTF-8`;
  const at = problem === 'empty' ? {} : { line: problem.line, column: problem.column };
  const d = diag('AUR6025', { file: f.file, use: f.use, reason }, { file: f.rel, ...at, hint: f.hint ?? restoreHint(f.file, f.rel) });
  return new AureusError(`${f.rel} of ${f.episode} ${problem === 'empty' ? 'is empty' : 'is not UTF-8'}`, { exitCode: ExitCode.INVALID_WORLD, diagnostics: [d] });
}

/**
 * A committed file's bytes as text, decoded strictly: a byte that breaks UTF-8 (a hand edit in
 * another encoding, a disk error) is exit 3 at its line:column, not U+FFFD garbage exported or
 * printed as if the episode had said it.
 */
export function committedText(bytes: Buffer, f: CommittedFile): string {
  const text = decodeStrictUtf8(bytes);
  if (text !== null) return text;
  const at = utf8Breaks(bytes)[0]!;
  throw unusableCommitted(f, { byte: bytes[at.offset]!, line: at.line, column: at.column });
}

/**
 * committedText for a file a command hands on as it is (a script exported, a recap printed): one
 * with nothing but whitespace in it is refused too (AUR6025 "it is empty", exit 3), not printed or
 * exported as nothing with exit 0, as if the episode had said nothing.
 */
export function committedNonEmptyText(bytes: Buffer, f: CommittedFile): string {
  const text = committedText(bytes, f);
  if (text.trim() === '') throw unusableCommitted(f, 'empty');
  return text;
}
