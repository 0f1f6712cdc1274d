import { existsSync, realpathSync, statSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { diag, severityCounts, type Diagnostic } from '../diagnostics/index.js';
import { WORLD_FILES, type SeasonGoals, type World } from '../domain/world.js';
import { AureusError, ExitCode } from '../errors.js';
import { seasonGoalsRel } from '../paths.js';
import { parseJsonBytesSafe, readFileBytesSafe, type SafeBytes } from './read.js';
import { linkedPath } from './symlinks.js';
import { jsonLayout, layoutWarning, rewriteWarning } from './text-form.js';
import { noteJsonLayout } from '../core/json-layout.js';
import type { JsonPosition } from './json-parse.js';
import { checkNameCharacters, checkStringLengths, mayHoldUnseen, MAX_STRING_CHARS } from './limits.js';
import { checkWorldReferences, type SeasonGoalsInput } from './references.js';
import { checkEffectValues } from './effect-values.js';
import { checkFormat, SCHEMA_FILES, validateSchemaFile, type SchemaKind } from './schema.js';
import { ANCHORS_REL, type Anchor, type AnchorsFile } from '../domain/anchors.js';
import { checkAnchorReferences, hasAnchorsFile } from './anchors.js';
import { isParsedCanonical } from '../core/json.js';
import { buildId } from './derived-index/build-id.js';
import { indexEnabled, readEntry, type IndexEntry } from './derived-index/entry.js';
import { parseVouched, worldKey } from './derived-index/key.js';
import { noteLoaded } from '../core/finished-lists.js';

/**
 * The world store adapter, reading side: every file of WORLD_FILES plus each season's goals,
 * each through the same pipeline (safe read → format → schema), then the cross-file reference
 * checks once every file is schema-valid (their findings would be noise on malformed data).
 */

export interface LoadedSeasonGoals {
  season: number;
  file: string;
  goals: SeasonGoals;
}

export interface LoadedWorld {
  /** The world when there is no error-severity diagnostic; null otherwise. */
  world: World | null;
  /**
   * The world as soon as every file is schema-valid, even when reference checks failed: for
   * further static checks (expressions) that only need well-typed data. Null otherwise.
   */
  parsed: World | null;
  /** Season goals of every seasons/season_NN/ folder, in season order (empty when invalid). */
  seasonGoals: LoadedSeasonGoals[];
  /** world/anchors.json's live and waived anchors ([] when the optional file is absent or invalid). */
  anchors?: Anchor[];
  diagnostics: Diagnostic[];
  /**
   * When the load could use the derived index: the key of these files, the entry that vouched for
   * them (null: a miss, every check ran), and per file whether its value is canonical (for an entry).
   */
  index?: { key: string; entry: IndexEntry | null; canonical: boolean[] };
}

/** Read, format-check and schema-validate one file; the value only when all of it passed. */
type Locate = (pointer: string) => JsonPosition | null;

/** A diagnostic on a JSON pointer gets the line:column of that pointer as well (momoa keeps them). */
export function withLocation(d: Diagnostic, locate: Locate | undefined): Diagnostic {
  if (!locate || d.pointer === undefined || d.line !== undefined) return d;
  const at = locate(d.pointer);
  return at ? { ...d, line: at.line, column: at.column } : d;
}

/**
 * What is wrong with a parsed JSON file against a package schema, located: its `format` first (one
 * "incompatible format" instead of a cascade), then every schema error with pointer, line:column
 * and hint. World files, season notes and scene packets all go through it.
 */
export function formatAndSchemaDiagnostics(value: unknown, locate: Locate | undefined, schemaFile: string, file: string): Diagnostic[] {
  const format = checkFormat(value, file);
  return (format ? [format] : validateSchemaFile(schemaFile, value, file)).map((d) => withLocation(d, locate));
}

type LoadedFile = { value: unknown; diagnostics: Diagnostic[]; locate?: Locate };

/** One world file: read, parsed and schema-checked; synchronous (read.ts readJsonFileSafe says why). */
export function loadJsonFile(root: string, rel: string, kind: SchemaKind): LoadedFile {
  const r = readWorldBytes(root, rel);
  return r.ok ? parseWorldBytes(rel, kind, r.bytes) : { value: undefined, diagnostics: r.diagnostics };
}

/** A world file's bytes, refused when it is (or lies under) a link leaving the repository. */
export function readWorldBytes(root: string, rel: string): SafeBytes {
  const escape = linkLeavingRoot(root, rel) ?? linkedPath(root, rel);
  return escape ? { ok: false, diagnostics: [escape] } : readFileBytesSafe(path.join(root, rel), rel);
}

/** Parsed, format-checked and schema-checked: the value only when all of it passed. */
export function parseWorldBytes(rel: string, kind: SchemaKind, bytes: Buffer): LoadedFile {
  const r = parseJsonBytesSafe(bytes, rel);
  if (!r.ok) return { value: undefined, diagnostics: r.diagnostics };
  const form = rewriteWarning(rel, r.foreignForm);
  // Walk the value only when some string literal of the text is long enough to be over the limit.
  const tooLong = (r.longestString ?? Infinity) > MAX_STRING_CHARS ? checkStringLengths(r.value, rel) : [];
  if (tooLong.length) return { value: undefined, diagnostics: [...form, ...tooLong] };
  const schema = formatAndSchemaDiagnostics(r.value, r.locate, SCHEMA_FILES[kind], rel);
  if (schema.length) return { value: undefined, diagnostics: [...form, ...schema] };
  // Walk the value only when the bytes may hold such a character at all (mayHoldUnseen).
  const unseen = mayHoldUnseen(bytes) ? checkNameCharacters(r.value, rel).map((d) => withLocation(d, r.locate)) : [];
  if (unseen.length) return { value: undefined, diagnostics: [...form, ...unseen] };
  // How the author laid the file out, so a commit writes it back so (core/json-layout.ts), and whether it can.
  const layout = jsonLayout(bytes, r.value);
  noteJsonLayout(r.value, layout);
  return { value: r.value, diagnostics: [...form, ...layoutWarning(rel, bytes, r.value, layout)], locate: r.locate };
}

/**
 * AUR1050: a world file that is (or lies under) a symbolic link resolving outside the repository.
 * Reading it would import foreign data, and a commit would write through it (issue 12).
 */
function linkLeavingRoot(root: string, rel: string): Diagnostic | null {
  let target: string;
  try {
    target = realpathSync.native(path.join(root, rel));
  } catch {
    return null; // missing or unreadable: the safe reader reports it
  }
  let base: string;
  try {
    base = realpathSync.native(root);
  } catch {
    base = path.resolve(root);
  }
  const inside = path.relative(base, target);
  if (inside && !inside.startsWith('..') && !path.isAbsolute(inside)) return null;
  return diag('AUR1050', { file: rel, target }, { file: rel });
}

async function isDir(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isDirectory();
  } catch {
    return false;
  }
}

/** Seasons that have a folder (seasons/season_NN); season 1 is always expected. */
export async function seasonNumbers(root: string): Promise<number[]> {
  const found = new Set<number>([1]);
  try {
    for (const e of await readdir(path.join(root, 'seasons'), { withFileTypes: true })) {
      const m = /^season_(\d{2,})$/.exec(e.name);
      if (e.isDirectory() && m) found.add(Number(m[1]));
    }
  } catch {
    // No seasons/ folder: season 1's goals are reported missing below.
  }
  return [...found].sort((a, b) => a - b);
}

/**
 * AUR1000 for a folder that has no world/. Started inside a world repository (its world/ or seasons/
 * folder, say), the hint names the repository to run in instead of suggesting `aureus init`.
 */
export function notAWorld(root: string): Diagnostic {
  for (let dir = path.dirname(root); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'world', 'world.json'))) return diag('AUR1000', { root }, { hint: `${root} is inside the world repository ${dir}: run aureus there, or pass -C ${dir}` });
  }
  return diag('AUR1000', { root });
}

/** The same check as a thrown error (exit 3), for commands that must know before anything else. */
export function requireWorldFolder(root: string): void {
  // A folder, as loadWorld asks (isDir): a file named world is no world either.
  if (!statSync(path.join(root, 'world'), { throwIfNoEntry: false })?.isDirectory()) throw new AureusError(`not a world repository: ${root}`, { exitCode: ExitCode.INVALID_WORLD, diagnostics: [notAWorld(root)] });
}

/** One file the world is loaded from: a WORLD_FILES entry, a season's goals or the anchors. */
interface Source {
  rel: string;
  kind: SchemaKind;
}

/**
 * Every file of the world, read, parsed and checked (schema, then references once all are
 * schema-valid). With `index`, a world whose bytes an entry of the derived index names
 * (store/derived-index) is parsed without the checks that entry vouches for: the result is the
 * same world, with the warnings the full load gave, and `index` says which entry it was.
 */
export async function loadWorld(root: string, opts: { index?: boolean } = {}): Promise<LoadedWorld> {
  if (!(await isDir(path.join(root, 'world')))) {
    return { world: null, parsed: null, seasonGoals: [], diagnostics: [notAWorld(root)] };
  }
  const keys = Object.keys(WORLD_FILES) as (keyof World)[];
  const seasons = await seasonNumbers(root);
  // world/anchors.json is optional (historical anchors, issue 17).
  const sources: Source[] = [
    ...keys.map((k) => ({ rel: WORLD_FILES[k], kind: k })),
    ...seasons.map((n) => ({ rel: seasonGoalsRel(n), kind: 'season_goals' as const })),
    ...((await hasAnchorsFile(root)) ? [{ rel: ANCHORS_REL, kind: 'anchors' as const }] : []),
  ];
  const reads = sources.map((s) => readWorldBytes(root, s.rel));
  const known = opts.index ? lookUp(root, sources, reads) : null;
  const vouched = known?.entry ? parseAllVouched(reads, known.entry) : null;
  if (known && !vouched) known.entry = null;
  const parts: LoadedFile[] = vouched ?? sources.map((s, i) => { const r = reads[i]!; return r.ok ? parseWorldBytes(s.rel, s.kind, r.bytes) : { value: undefined, diagnostics: r.diagnostics }; });
  const loaded = assemble(keys, seasons, parts, known?.entry ? known.entry.diagnostics.load : null);
  if (known) loaded.index = { key: known.key, entry: known.entry, canonical: parts.map((p) => isParsedCanonical(p.value)) };
  return loaded;
}

/** The index entry for these bytes (null on a miss), and the key to write one under; null when the index cannot be used. */
function lookUp(root: string, sources: Source[], reads: SafeBytes[]): { key: string; entry: IndexEntry | null } | null {
  const build = buildId();
  if (!build || !indexEnabled() || !reads.every((r) => r.ok)) return null;
  const key = worldKey(build, sources.map((s, i) => ({ rel: s.rel, bytes: (reads[i] as { bytes: Buffer }).bytes })));
  const entry = readEntry(root, key, build);
  return { key, entry: entry && entry.canonical.length === sources.length ? entry : null };
}

/**
 * Every file parsed as an entry vouches for it; null when one does not parse (an entry forged for
 * other bytes: the full load then says what is wrong with them, instead of a crash).
 */
function parseAllVouched(reads: SafeBytes[], entry: IndexEntry): LoadedFile[] | null {
  try {
    return reads.map((r, i) => {
      const bytes = (r as { bytes: Buffer }).bytes;
      const value = parseVouched(bytes, entry.canonical[i]!);
      // The layout as the full load notes it; its warning (AUR1041) is among the entry's kept ones.
      noteJsonLayout(value, jsonLayout(bytes, value));
      return { value, diagnostics: [] };
    });
  } catch {
    return null;
  }
}

/**
 * The LoadedWorld of parsed files (WORLD_FILES, then the seasons' goals, then the anchors when
 * present). `vouched`: the warnings an index entry kept, in place of the reference checks.
 */
function assemble(keys: (keyof World)[], seasons: number[], parts: LoadedFile[], vouched: Diagnostic[] | null): LoadedWorld {
  const goals = parts.slice(keys.length, keys.length + seasons.length);
  const anchorsPart = parts[keys.length + seasons.length];
  const diagnostics = parts.flatMap((p) => p.diagnostics);
  if (diagnostics.some((d) => d.severity === 'error')) return { world: null, parsed: null, seasonGoals: [], diagnostics };

  const world = Object.fromEntries(keys.map((k, i) => [k, parts[i]!.value])) as unknown as World;
  // Nothing edits a loaded world in place: lookups and hashes kept over its lists check their length only.
  noteLoaded(parts.slice(0, keys.length).map((p) => p.value));
  const seasonGoals: LoadedSeasonGoals[] = seasons.map((season, i) => ({ season, file: seasonGoalsRel(season), goals: goals[i]!.value as SeasonGoals }));
  const anchorsFile = anchorsPart?.value as AnchorsFile | undefined;
  if (vouched) return { world, parsed: world, seasonGoals, anchors: anchorsFile?.anchors ?? [], diagnostics: [...vouched] };
  // Reference errors name a file and a pointer: add the line:column from that file's parse.
  const locators = new Map<string, Locate | undefined>([...keys.map((k, i) => [WORLD_FILES[k], parts[i]!.locate] as const), ...seasons.map((n, i) => [seasonGoalsRel(n), goals[i]!.locate] as const)]);
  if (anchorsPart) locators.set(ANCHORS_REL, anchorsPart.locate);
  // The operators' literal effect values against the schema of the field each writes: here, not with
  // the expressions, so that each finding is located in operators.json like a reference error.
  const refs = [...checkWorldReferences(world, seasonGoals satisfies SeasonGoalsInput[]), ...(anchorsFile ? checkAnchorReferences(world, anchorsFile) : []), ...checkEffectValues(world)];
  diagnostics.push(...refs.map((d) => (d.file ? withLocation(d, locators.get(d.file)) : d)));
  const ok = !diagnostics.some((d) => d.severity === 'error');
  return { world: ok ? world : null, parsed: world, seasonGoals: ok ? seasonGoals : [], anchors: ok ? anchorsFile?.anchors ?? [] : [], diagnostics };
}

/**
 * For commands that need a valid world to proceed (plan, episode run): the world, or an
 * AureusError with exit code 3 carrying every diagnostic.
 */
export async function loadWorldOrThrow(root: string): Promise<{ world: World; seasonGoals: LoadedSeasonGoals[]; diagnostics: Diagnostic[] }> {
  // Not a world at all: AUR1000 alone, without the hint to run validate and fix the files.
  requireWorldFolder(root);
  // An entry of the derived index vouches for these very files' load checks (play starts faster on a large world).
  const r = await loadWorld(root, { index: true });
  if (!r.world) {
    const n = severityCounts(r.diagnostics).error;
    throw new AureusError(`the world in ${root} is invalid (${n} error${n === 1 ? '' : 's'})`, {
      exitCode: ExitCode.INVALID_WORLD,
      diagnostics: r.diagnostics,
      hint: 'fix the files (`aureus validate` checks them again as you go: every file, warnings too, 50 problems a file at most), then re-run',
    });
  }
  return { world: r.world, seasonGoals: r.seasonGoals, diagnostics: r.diagnostics };
}
