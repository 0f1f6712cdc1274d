import fs from 'node:fs';
import path from 'node:path';
import { WORLD_FILES, type World } from '../domain/world.js';
import { AureusError, ExitCode } from '../errors.js';
import { diag } from '../diagnostics/index.js';
import { createGit } from '../git/adapter.js';
import { parseJsonTextSafe } from '../store/read.js';
import { jsonLayout } from '../store/text-form.js';
import { noteJsonLayout } from '../core/json-layout.js';
import { isCanonical } from '../core/json.js';
import { SCHEMA_FILES } from '../store/schema.js';
import { formatAndSchemaDiagnostics, withLocation } from '../store/load.js';

/**
 * Read the world files as they are in the working tree (ref = null) or at a commit, through
 * `git show`. The files are JSON aureus committed (validated then), so plain JSON.parse is enough here;
 * a missing part (canon.json before the first episode) reads as empty.
 */
const EMPTY: Partial<Record<keyof World, unknown>> = {
  canon: { format: 1, facts: [] },
  constraints: { format: 1, constraints: [] },
};

export async function readWorldAt(root: string, ref: string | null, o: { checked?: boolean } = {}): Promise<World> {
  const out: Record<string, unknown> = {};
  for (const [key, rel] of Object.entries(WORLD_FILES) as [keyof World, string][]) {
    let text: string | null;
    if (ref === null) {
      try {
        text = fs.readFileSync(path.join(root, rel), 'utf8');
      } catch {
        text = null;
      }
    } else text = await createGit(root).showFile(ref, rel);
    if (text === null) {
      if (EMPTY[key] !== undefined) {
        out[key] = EMPTY[key];
        continue;
      }
      const hint = 'run the command inside a world repository (aureus init), or pass -C <dir>';
      throw new AureusError(`${rel} is missing${ref ? ` at ${ref.slice(0, 12)}` : ''}: not an Aureus world`, {
        exitCode: ExitCode.INVALID_WORLD,
        diagnostics: [diag('AUR1001', { file: ref ? `${rel} (at ${ref.slice(0, 12)})` : rel }, { hint })],
      });
    }
    const value = parseFileAt(text, rel, ref, 'fix the file (`aureus validate` lists every problem), then run the command again');
    if (o.checked) requireSchema(key, value, text, rel, ref);
    // How the file is laid out, for a command that writes it back (what-if.ts): core/json-layout.ts.
    noteJsonLayout(value, jsonLayout(Buffer.from(text, 'utf8'), value, isCanonical(value)));
    out[key] = value;
  }
  return out as unknown as World;
}

/**
 * The JSON of a file read from the working tree (ref = null) or a commit; invalid JSON is exit 3
 * naming the file (and the commit) with the store's line:col and what, as `aureus validate` does:
 * JSON.parse's own message quoted the text around the error, control characters and all.
 */
export function parseFileAt(text: string, rel: string, ref: string | null, hint: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const { diagnostics } = parseJsonTextSafe(text, rel);
    throw new AureusError(`${rel}${ref ? ` at ${ref.slice(0, 12)}` : ''} is not valid JSON`, { exitCode: ExitCode.INVALID_WORLD, diagnostics, hint });
  }
}

/** A file of an episode folder in the working tree (ref = null) or at a commit: its bytes, for a reader that decodes them strictly. */
export async function readEpisodeBytes(root: string, ref: string | null, rel: string): Promise<Buffer | null> {
  if (ref === null) {
    try {
      return fs.readFileSync(path.join(root, rel));
    } catch {
      return null;
    }
  }
  return createGit(root).showFileBytes(ref, rel);
}

/**
 * A file whose JSON does not fit its schema ("fama": "lots"), for a reader that would misread it rather than fail:
 * `aureus diff` took a stat that is not a number for no change. Exit 3 with each problem at its line:column and
 * pointer, as `aureus validate` gives them, naming the commit.
 */
function requireSchema(key: keyof World, value: unknown, text: string, rel: string, ref: string | null): void {
  const file = ref ? `${rel} (at ${ref.slice(0, 12)})` : rel;
  // The store's own sequence (its format first, then the schema); placed at line:column only when there is a problem.
  const problems = formatAndSchemaDiagnostics(value, undefined, SCHEMA_FILES[key], file);
  if (!problems.length) return;
  const parsed = parseJsonTextSafe(text, rel);
  const locate = parsed.ok ? parsed.locate : undefined;
  throw new AureusError(`${rel}${ref ? ` at ${ref.slice(0, 12)}` : ''} does not fit its schema`, {
    exitCode: ExitCode.INVALID_WORLD,
    diagnostics: problems.map((d) => withLocation(d, locate)),
    hint: 'a world file committed with a value of the wrong kind: fix it in a new commit (`aureus validate` on the working tree lists every problem)',
  });
}
