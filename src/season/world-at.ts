import { WORLD_FILES, type World } from '../domain/world.js';
import { AureusError, ExitCode } from '../errors.js';
import { diag, type Diagnostic } from '../diagnostics/index.js';
import { createGit } from '../git/adapter.js';
import { maxFileBytes, parseJsonTextSafe } from '../store/read.js';
import { parseWorldBytes, readWorldBytes } from '../store/load.js';

/**
 * Read the world files as they are in the working tree (ref = null) or at a commit, through
 * `git show`, as the store reads them (store/read.ts, load.ts): a FIFO or other non-regular file is
 * refused rather than waited on, a BOM is dropped, bad UTF-8 or JSON is placed at its line:column,
 * and every file is checked against its schema. Status, export and branch --set index into the
 * values (`c.stats.dignitas`): a file validate refuses must be exit 3 here, not a TypeError (exit 1),
 * a stack overflow, a hang, or a NaN printed. A missing part (canon.json before the first episode)
 * reads as empty.
 */
const EMPTY: Partial<Record<keyof World, unknown>> = {
  canon: { format: 1, facts: [] },
  constraints: { format: 1, constraints: [] },
};

const FIX_HINT = 'fix the file, in a new commit if it is committed (`aureus validate` checks the working tree), then run the command again';

export async function readWorldAt(root: string, ref: string | null): Promise<World> {
  const out: Record<string, unknown> = {};
  for (const [key, rel] of Object.entries(WORLD_FILES) as [keyof World, string][]) {
    const bytes = await worldFileBytes(root, ref, rel);
    if (bytes === null) {
      if (EMPTY[key] !== undefined) {
        out[key] = EMPTY[key];
        continue;
      }
      const hint = 'run the command inside a world repository (aureus init), or pass -C <dir>';
      throw new AureusError(`${rel} is missing${ref ? ` at ${ref.slice(0, 12)}` : ''}: not an Aureus world`, {
        exitCode: ExitCode.INVALID_WORLD,
        diagnostics: [diag('AUR1001', { file: fileAt(rel, ref) }, { hint })],
      });
    }
    // As every world load reads a file (load.ts): parsed (a BOM dropped, bad JSON at its line:column), then its
    // string lengths, format and schema, and its layout noted for a command that writes it back (what-if.ts).
    const loaded = parseWorldBytes(fileAt(rel, ref), key, bytes);
    if (loaded.value === undefined) throw notReadable(rel, ref, 'is not a valid world file', loaded.diagnostics, FIX_HINT);
    out[key] = loaded.value;
  }
  return out as unknown as World;
}

/** How a diagnostic names a file: the path, and the commit when it was read from one. */
const fileAt = (rel: string, ref: string | null): string => (ref ? `${rel} (at ${ref.slice(0, 12)})` : rel);

function notReadable(rel: string, ref: string | null, what: string, diagnostics: Diagnostic[], hint: string): AureusError {
  return new AureusError(`${rel}${ref ? ` at ${ref.slice(0, 12)}` : ''} ${what}`, { exitCode: ExitCode.INVALID_WORLD, diagnostics, hint });
}

/**
 * A world file's bytes, or null when it is missing. From the working tree through the store's
 * reader: fs.readFileSync on a FIFO blocked `aureus status` for ever, Ctrl-C included. At a commit
 * the blob, under the same size cap.
 */
async function worldFileBytes(root: string, ref: string | null, rel: string): Promise<Buffer | null> {
  if (ref !== null) {
    const bytes = await createGit(root).showFileBytes(ref, rel);
    const limit = maxFileBytes();
    if (bytes !== null && bytes.length > limit) throw notReadable(rel, ref, 'cannot be read', [diag('AUR1002', { size: bytes.length, limit }, { file: fileAt(rel, ref) })], FIX_HINT);
    return bytes;
  }
  // A link (or one out of the repository) is refused as every world load refuses it (AUR1052, AUR1050).
  const r = readWorldBytes(root, rel);
  if (r.ok) return r.bytes;
  if (r.diagnostics.every((d) => d.code === 'AUR1001')) return null;
  throw notReadable(rel, ref, 'cannot be read', r.diagnostics, FIX_HINT);
}

/**
 * The JSON of a file read from the working tree (ref = null) or a commit; invalid JSON is exit 3
 * naming the file (and the commit) with the store's line:col and what, as `aureus validate` does:
 * JSON.parse's own message quoted the text around the error, control characters and all, and
 * overflowed the stack on deep nesting later.
 */
export function parseFileAt(text: string, rel: string, ref: string | null, hint: string): unknown {
  const r = parseJsonTextSafe(text, rel);
  if (!r.ok) throw notReadable(rel, ref, 'is not valid JSON', r.diagnostics, hint);
  return r.value;
}

/**
 * A file of a committed episode's folder, at that commit: its bytes (null when the commit has no such
 * file), for a reader that decodes them strictly. Only ever read from a commit (export and recap read
 * an episode at its tag), so a hand edit of the working tree, or a FIFO put there, is never read.
 */
export async function readEpisodeBytes(root: string, commit: string, rel: string): Promise<Buffer | null> {
  return createGit(root).showFileBytes(commit, rel);
}
