import { existsSync } from 'node:fs';
import path from 'node:path';
import { AureusError, ExitCode } from '../../errors.js';
import { diag } from '../../diagnostics/catalog.js';
import type { Diagnostic } from '../../diagnostics/index.js';
import '../../diagnostics/codes/verify.js';
import type { ScenePacket } from '../../domain/packet.js';
import type { LexiconEntry } from '../e-writer/types.js';
import { parseLexicon } from '../../style/lexicon.js';
import type { VerifyContext } from './context.js';
import { worldPartsContext, type WorldVerifySource } from './world-context.js';
import { packageRoot } from '../../paths.js';
import { readRegularFileBytesSync, RegularFileError } from '../../store/regular-file.js';
import { decodeStrictUtf8, MAX_FILE_BYTES, notUtf8Diagnostic, parseJsonBytesSafe, parseJsonTextSafe } from '../../store/read.js';
import { formatAndSchemaDiagnostics, withLocation } from '../../store/load.js';

/**
 * I/O edge of `scene verify`: reads a packet, a lexicon and (optionally) the world around them.
 * A text file (the scene) is strict UTF-8, as every text aureus trusts: a byte that breaks it would
 * otherwise become U+FFFD and be checked as prose. It is refused (exit 3) with the line:column of
 * its first bad byte (AUR1003, which says how to re-save it).
 */
export function readTextFile(file: string, what: string): string {
  const bytes = readFileBytes(file, what);
  const text = decodeStrictUtf8(bytes);
  if (text !== null) return text;
  throw new AureusError(`the ${what} ${file} is not UTF-8`, { exitCode: ExitCode.INVALID_WORLD, diagnostics: [notUtf8Diagnostic(bytes, file)] });
}

function readFileBytes(file: string, what: string): Buffer {
  try {
    // A FIFO or /dev/zero given as a packet must be refused, not read forever.
    return readRegularFileBytesSync(file, MAX_FILE_BYTES);
  } catch (e) {
    const detail = e instanceof RegularFileError ? e.reason : String(e);
    throw new AureusError(`cannot read ${what}`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR5080', { what, file, detail })] });
  }
}

export const PACKET_SCHEMA = 'scene_packet.schema.json';

/**
 * A packet is a user-supplied file (any path on the command line), so it is read like a world
 * file: strict UTF-8 and JSON with line:column, then the format and the packet schema with a JSON
 * pointer and its line:column for each problem. The verifier's rules index its fields freely
 * (`cast.map`, `for … of dead`); a packet of the wrong shape must stop here, with exit 3.
 */
export function readPacket(file: string): ScenePacket {
  const r = parseJsonBytesSafe(readFileBytes(file, 'packet'), file);
  if (!r.ok) throw badPacket(file, 'it is not valid JSON', r.diagnostics);
  const problems = formatAndSchemaDiagnostics(r.value, r.locate, PACKET_SCHEMA, file);
  if (problems.length) {
    const n = problems.length;
    throw badPacket(file, `${n} problem${n === 1 ? '' : 's'} against schemas/${PACKET_SCHEMA} (listed below)`, problems);
  }
  return r.value as ScenePacket;
}

function badPacket(file: string, detail: string, problems: Diagnostic[]): AureusError {
  return new AureusError('invalid scene packet', { exitCode: ExitCode.INVALID_WORLD, diagnostics: [diag('AUR5081', { file, detail }, { file }), ...problems] });
}

/**
 * Parses a lexicon: JSON ([{forbidden, replacement}], `word` for `forbidden` accepted) or the
 * markdown of style/lexicon.md (read by src/style/lexicon.ts, the one lexicon parser). A `.json`
 * file, or text that opens like JSON, is JSON: a broken JSON lexicon read as markdown would give no
 * table and, before, silently no entries. Problems come back as data; resolveLexicon decides.
 */
export function parseLexiconText(bytes: Uint8Array, file: string): { entries: LexiconEntry[]; diagnostics: Diagnostic[] } {
  // Strict for markdown as for JSON: a byte that breaks UTF-8 would be a U+FFFD inside a forbidden word, never matched.
  const text = decodeStrictUtf8(bytes);
  if (text === null) return { entries: [], diagnostics: [notUtf8Diagnostic(bytes, file)] };
  if (!file.toLowerCase().endsWith('.json') && !/^\s*[[{]/.test(text)) return parseLexicon(text, file);
  const r = parseJsonTextSafe(text, file);
  if (!r.ok) return { entries: [], diagnostics: r.diagnostics };
  if (!Array.isArray(r.value)) return { entries: [], diagnostics: [diag('AUR5083', { where: 'file', detail: `is ${r.value === null ? 'null' : typeof r.value}, not an array of entries` }, { file, line: 1, column: 1 })] };
  const entries: LexiconEntry[] = [];
  const diagnostics: Diagnostic[] = [];
  r.value.forEach((e: unknown, i: number) => {
    const o = (e !== null && typeof e === 'object' && !Array.isArray(e) ? e : null) as { forbidden?: unknown; word?: unknown; replacement?: unknown } | null;
    const forbidden = o?.forbidden ?? o?.word;
    const detail = !o ? 'is not an object' : typeof forbidden !== 'string' || !forbidden.trim() ? 'has no "forbidden" word (a non-empty string)' : o.replacement !== undefined && typeof o.replacement !== 'string' ? 'has a "replacement" that is not a string' : null;
    if (detail) diagnostics.push(withLocation(diag('AUR5083', { where: `entry /${i}`, detail }, { file, pointer: `/${i}` }), r.locate));
    else entries.push({ forbidden: (forbidden as string).trim(), replacement: String(o!.replacement ?? '') });
  });
  return { entries, diagnostics };
}

/** Which lexicon a verification used, so the output can say so. */
export interface LoadedLexicon {
  entries: LexiconEntry[];
  file: string;
  /** 'option': --lexicon; 'world': the world's style/lexicon.md; 'package': the one shipped with aureus. */
  source: 'option' | 'world' | 'package';
}

/**
 * The lexicon from --lexicon, else the world's style/lexicon.md, else the lexicon shipped with the
 * package: outside a world the anachronism check must still run rather than silently pass. A
 * lexicon with problems is refused (exit 3, every problem listed, as a packet is): a row that does
 * not parse would otherwise be a word silently not checked. Play's canonization checks its
 * proposals against the same lexicon (no `file`), refused the same way (src/play/run.ts, canonize.ts).
 */
export function resolveLexicon(root: string, file?: string): LoadedLexicon {
  const world = path.join(root, 'style', 'lexicon.md');
  const [f, source] = file ? [file, 'option' as const] : existsSync(world) ? [world, 'world' as const] : [path.join(packageRoot(), 'style', 'lexicon.md'), 'package' as const];
  const { entries, diagnostics } = parseLexiconText(readFileBytes(f, 'lexicon'), f);
  refuseLexicon(f, diagnostics.filter((d) => d.severity === 'error'));
  return { entries, file: f, source };
}

/** A lexicon with these errors is refused: exit 3, AUR5082 and every problem listed. None: nothing. */
function refuseLexicon(file: string, errors: Diagnostic[]): void {
  if (!errors.length) return;
  const n = errors.length;
  throw new AureusError('invalid lexicon', { exitCode: ExitCode.INVALID_WORLD, diagnostics: [diag('AUR5082', { file, detail: `${n} problem${n === 1 ? '' : 's'} (listed below)` }, { file }), ...errors] });
}

/**
 * A file that gives `scene verify` more to check against (the plan beside a packet, the world
 * around it): absent is fine, silently; present but unreadable is a warning (AUR5084) naming what
 * was skipped, since a broken characters.json must not quietly turn off the dead-speaker check.
 */
function readOptionalJson(file: string, skipped: string, warnings: Diagnostic[]): unknown {
  if (!existsSync(file)) return undefined;
  let bytes: Buffer;
  try {
    bytes = readRegularFileBytesSync(file, MAX_FILE_BYTES);
  } catch (e) {
    warnings.push(diag('AUR5084', { file, detail: e instanceof RegularFileError ? e.reason : String(e), skipped }, { file }));
    return undefined;
  }
  const r = parseJsonBytesSafe(bytes, file);
  if (r.ok) return r.value;
  const d = r.diagnostics[0];
  warnings.push(diag('AUR5084', { file, detail: d?.message ?? 'not valid JSON', skipped }, { file, ...(d?.line ? { line: d.line, column: d.column ?? 1 } : {}) }));
  return undefined;
}

/** Warns (AUR5084) when a file that was read is not of the shape the checks need. */
function shapeWarning(file: string, expected: string, skipped: string, warnings: Diagnostic[]): undefined {
  warnings.push(diag('AUR5084', { file, detail: `expected ${expected}`, skipped }, { file }));
  return undefined;
}

/**
 * The plan's evaluated prerequisites, when the packet sits in a run or episode folder
 * (`<folder>/packets/SC04.json` beside `<folder>/episode_plan.json`). Absent: none; present but
 * unreadable: none, with a warning.
 */
export function loadPlanPrereqs(packetFile: string, warnings: Diagnostic[] = []): VerifyContext['prereqs'] {
  const planFile = path.join(path.dirname(packetFile), '..', 'episode_plan.json');
  const skipped = "the prerequisites' check";
  const plan = readOptionalJson(planFile, skipped, warnings) as { beats?: unknown } | undefined;
  if (plan === undefined) return undefined;
  if (plan === null || typeof plan !== 'object' || !Array.isArray(plan.beats)) return shapeWarning(planFile, 'an episode plan with a "beats" array', skipped, warnings);
  const out: NonNullable<VerifyContext['prereqs']> = {};
  for (const b of plan.beats as { applications?: unknown }[]) {
    if (!b || !Array.isArray(b.applications)) continue;
    for (const a of b.applications as { id?: unknown; prereqs?: unknown }[]) if (a && typeof a.id === 'string' && Array.isArray(a.prereqs)) out[a.id] = a.prereqs as { expr: string; holds: boolean }[];
  }
  return out;
}

/** An array's entries that are objects with a string `id` (and a string `name`, when asked): what the checks can use of a file not validated. */
function withIds<T>(list: unknown[], named = false): T[] {
  return list.filter((x) => !!x && typeof x === 'object' && typeof (x as { id?: unknown }).id === 'string' && (!named || typeof (x as { name?: unknown }).name === 'string')) as T[];
}

/**
 * The parts of a world the verifier reads (world-context.ts WorldVerifySource), from the files of
 * a world repository: each part whose file is there and of the right shape; an absent file is
 * skipped, an unreadable one too, with a warning. Entries without an id are dropped.
 */
function readWorldSource(root: string, warnings: Diagnostic[]): Partial<WorldVerifySource> {
  // The parts of a file the checks use, each an array; anything else is skipped with a warning.
  const read = (rel: string, keys: string[], skipped: string): Record<string, unknown[]> | undefined => {
    const file = path.join(root, rel);
    const v = readOptionalJson(file, skipped, warnings) as Record<string, unknown> | undefined;
    if (v === undefined) return undefined;
    if (v && typeof v === 'object' && keys.every((k) => Array.isArray(v[k]))) return v as Record<string, unknown[]>;
    return shapeWarning(file, `an object with ${keys.map((k) => `a "${k}" array`).join(' and ')}`, skipped, warnings);
  };
  const out: Partial<WorldVerifySource> = {};
  const w = read('world/world.json', ['locations', 'travel'], 'the travel-time check');
  if (w) out.world = { locations: withIds(w.locations, true), travel: w.travel as WorldVerifySource['world']['travel'] };
  const c = read('world/characters.json', ['characters'], "the world's characters' check");
  if (c) out.characters = { characters: withIds(c.characters) };
  const canon = read('world/canon.json', ['facts'], 'the canon check');
  if (canon) out.canon = { facts: withIds(canon.facts) };
  const ops = read('operators/operators.json', ['operators'], 'resolving operators by name');
  if (ops) out.operators = { operators: withIds(ops.operators, true) };
  const rels = read('world/relationships.json', ['relationships'], 'reading family ties (who is whose wife or brother)');
  if (rels) out.relationships = { relationships: rels.relationships.filter((r): r is { from: string; to: string; flags?: string[] } => !!r && typeof r === 'object' && typeof (r as { from?: unknown }).from === 'string' && typeof (r as { to?: unknown }).to === 'string' && Array.isArray((r as { flags?: unknown }).flags)) };
  // The other entities a claim's subject may name: judged only when every list is there (canonSubjects).
  const subject = 'checking what claims name';
  const f = read('world/factions.json', ['factions'], subject);
  const sec = read('world/secrets.json', ['secrets'], subject);
  const t = read('world/threads.json', ['threads'], subject);
  const a = read('world/assets.json', ['cash_ledger', 'goods', 'contracts', 'networks'], subject);
  if (f && sec && t && a) {
    Object.assign(out, { factions: { factions: withIds(f.factions) }, secrets: { secrets: withIds(sec.secrets) }, threads: { threads: withIds(t.threads) } });
    out.assets = { cash_ledger: withIds(a.cash_ledger), goods: withIds(a.goods), contracts: withIds(a.contracts), networks: withIds(a.networks) };
  }
  return out;
}

/**
 * The world around a packet, when the command runs inside a world repository: characters (names,
 * the dead, where non-cast speakers are, office and gender), the travel matrix and the locations'
 * names (teleportation), canon, operators and the entities a claim may name, built as the pipeline
 * builds them (world-context.ts worldPartsContext) from the parts that could be read.
 * Absent files are skipped (the packet alone is enough to verify); unreadable ones too, with a warning.
 */
export function loadWorldContext(root: string, warnings: Diagnostic[] = []): Omit<VerifyContext, 'packet' | 'lexicon'> {
  return worldPartsContext(readWorldSource(root, warnings));
}
