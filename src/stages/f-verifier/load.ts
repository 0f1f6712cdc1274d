import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { AureusError, ExitCode } from '../../errors.js';
import { diag } from '../../diagnostics/catalog.js';
import type { Diagnostic } from '../../diagnostics/index.js';
import '../../diagnostics/codes/verify.js';
import type { ScenePacket } from '../../domain/packet.js';
import type { Operator } from '../../domain/world.js';
import type { LexiconEntry } from '../e-writer/types.js';
import { parseLexicon } from '../../style/lexicon.js';
import type { KnownCharacter, VerifyContext } from './context.js';
import { travelMatrix } from './world-context.js';
import { packageRoot } from '../../paths.js';
import { readRegularFileBytesSync, RegularFileError } from '../../store/regular-file.js';
import { MAX_FILE_BYTES, parseJsonBytesSafe } from '../../store/read.js';
import { formatAndSchemaDiagnostics } from '../../store/load.js';

/** I/O edge of `scene verify`: reads a packet, a lexicon and (optionally) the world around them. */
export function readTextFile(file: string, what: string): string {
  return readFileBytes(file, what).toString('utf8');
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

const PACKET_SCHEMA = 'scene_packet.schema.json';

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
 * Parses a lexicon: JSON ([{forbidden, replacement}]) or the markdown of style/lexicon.md
 * (read by src/style/lexicon.ts, the one lexicon parser).
 */
export function parseLexiconText(text: string, file: string): LexiconEntry[] {
  const t = text.trim();
  if (t.startsWith('[')) {
    let arr: { forbidden?: string; word?: string; replacement?: string }[];
    try {
      arr = JSON.parse(t);
    } catch (e) {
      throw new AureusError('invalid lexicon', { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR5080', { what: 'lexicon', file, detail: (e as Error).message })] });
    }
    return arr.map((e) => ({ forbidden: String(e.forbidden ?? e.word ?? ''), replacement: String(e.replacement ?? '') })).filter((e) => e.forbidden);
  }
  return parseLexicon(text, file).entries;
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
 * package: outside a world the anachronism check must still run rather than silently pass.
 */
export function resolveLexicon(root: string, file?: string): LoadedLexicon {
  if (file) return { entries: parseLexiconText(readTextFile(file, 'lexicon'), file), file, source: 'option' };
  const world = path.join(root, 'style', 'lexicon.md');
  const [f, source] = existsSync(world) ? [world, 'world' as const] : [path.join(packageRoot(), 'style', 'lexicon.md'), 'package' as const];
  return { entries: parseLexiconText(readTextFile(f, 'lexicon'), f), file: f, source };
}

/** The entries of resolveLexicon (kept for callers that only need the words). */
export function loadLexicon(root: string, file?: string): LexiconEntry[] {
  return resolveLexicon(root, file).entries;
}

/**
 * The plan's evaluated prerequisites, when the packet sits in a run or episode folder
 * (`<folder>/packets/SC04.json` beside `<folder>/episode_plan.json`). Absent or unreadable: none.
 */
export function loadPlanPrereqs(packetFile: string): VerifyContext['prereqs'] {
  const planFile = path.join(path.dirname(packetFile), '..', 'episode_plan.json');
  try {
    const plan = JSON.parse(readFileSync(planFile, 'utf8')) as { beats?: { applications?: { id: string; prereqs?: { expr: string; holds: boolean }[] }[] }[] };
    const out: NonNullable<VerifyContext['prereqs']> = {};
    for (const b of plan.beats ?? []) for (const a of b.applications ?? []) if (Array.isArray(a.prereqs)) out[a.id] = a.prereqs;
    return out;
  } catch {
    return undefined;
  }
}

/**
 * The world around a packet, when the command runs inside a world repository: characters (for
 * names, the dead and where non-cast speakers are) and the travel matrix (teleportation).
 * Unreadable files are skipped: the packet alone is enough to verify.
 */
export function loadWorldContext(root: string): Omit<VerifyContext, 'packet' | 'lexicon'> {
  const read = (rel: string): unknown => {
    try {
      return JSON.parse(readFileSync(path.join(root, rel), 'utf8'));
    } catch {
      return undefined;
    }
  };
  const out: Omit<VerifyContext, 'packet' | 'lexicon'> = {};
  const w = read('world/world.json') as { locations?: unknown[]; travel?: unknown[] } | undefined;
  if (w && Array.isArray(w.locations) && Array.isArray(w.travel)) out.travelDays = travelMatrix({ world: w as never });
  const c = read('world/characters.json') as { characters?: KnownCharacter[] } | undefined;
  if (c && Array.isArray(c.characters)) out.characters = c.characters.map((x) => ({ id: x.id, name: x.name, cue: x.cue, status: x.status, location: x.location }));
  // Operators by name and description, so an operator written that way resolves (issue 13).
  const ops = read('operators/operators.json') as { operators?: Partial<Operator>[] } | undefined;
  if (ops && Array.isArray(ops.operators)) {
    out.operators = ops.operators
      .filter((o) => typeof o.id === 'string' && typeof o.name === 'string')
      .map((o) => ({ id: o.id!, name: o.name!, descriptions: [o.writer_guidance?.success_beat, o.writer_guidance?.fail_beat].filter((d): d is string => typeof d === 'string') }));
  }
  return out;
}
