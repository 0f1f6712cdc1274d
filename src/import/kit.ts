import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { diag } from '../diagnostics/index.js';
import type { Character, ConstraintsFile, OperatorsFile, SeasonGoals, ThreadsFile, WorldFile, AssetsFile } from '../domain/world.js';
import { AureusError, ExitCode } from '../errors.js';
import { packageRoot, seasonGoalsRel } from '../paths.js';
import { compareText } from '../core/text-order.js';

/**
 * The starter season kit an imported world borrows: operators, style, locations, global metrics,
 * threads, constraints and season goals are authored content that no prosopography supplies.
 * Threads and constraints name the starter cast, so they are adapted to the imported cast by
 * `adaptKit`; everything else is copied as is.
 */
export interface StarterKit {
  world: WorldFile;
  characters: Character[];
  threads: ThreadsFile;
  constraints: ConstraintsFile;
  operators: OperatorsFile;
  assets: AssetsFile;
  seasonGoals: SeasonGoals;
  /** `$schema` of each world file in the kit, reused so editors validate imported files too. */
  schemaRefs: Record<string, string | undefined>;
  /** Files copied verbatim: style guide, lexicon, schemas, config. Relative path → content. */
  verbatim: Map<string, Buffer>;
}

async function readJson<T>(root: string, rel: string): Promise<T> {
  let text: string;
  try {
    text = await readFile(path.join(root, rel), 'utf8');
  } catch (e) {
    throw kitError(rel, (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'file not found' : (e as Error).message);
  }
  try {
    return JSON.parse(text) as T;
  } catch (e) {
    throw kitError(rel, (e as Error).message);
  }
}

function kitError(rel: string, reason: string): AureusError {
  return new AureusError('the starter kit is incomplete', {
    exitCode: ExitCode.INVALID_WORLD,
    diagnostics: [diag('AUR7906', { file: rel, reason }, { file: rel })],
  });
}

async function walk(root: string, rel: string, out: Map<string, Buffer>): Promise<void> {
  let entries;
  try {
    entries = await readdir(path.join(root, rel), { withFileTypes: true });
  } catch {
    return; // an optional part of the kit (schemas/) may be absent
  }
  for (const e of entries.sort((a, b) => compareText(a.name, b.name))) {
    const r = path.posix.join(rel, e.name);
    if (e.isDirectory()) await walk(root, r, out);
    else if (e.isFile()) out.set(r, await readFile(path.join(root, r)));
  }
}

export async function loadStarterKit(root = packageRoot()): Promise<StarterKit> {
  const world = await readJson<WorldFile>(root, 'world/world.json');
  const chars = await readJson<{ characters: Character[]; $schema?: string }>(root, 'world/characters.json');
  const threads = await readJson<ThreadsFile>(root, 'world/threads.json');
  const constraints = await readJson<ConstraintsFile>(root, 'world/constraints.json');
  const operators = await readJson<OperatorsFile>(root, 'operators/operators.json');
  const assets = await readJson<AssetsFile>(root, 'world/assets.json');
  const seasonGoals = await readJson<SeasonGoals>(root, seasonGoalsRel(1));
  const schemaRefs: Record<string, string | undefined> = {};
  for (const rel of ['world/factions.json', 'world/relationships.json', 'world/secrets.json', 'world/canon.json']) {
    try {
      schemaRefs[rel] = (await readJson<{ $schema?: string }>(root, rel)).$schema;
    } catch {
      schemaRefs[rel] = undefined;
    }
  }
  schemaRefs['world/world.json'] = world.$schema;
  schemaRefs['world/characters.json'] = chars.$schema;
  schemaRefs['world/threads.json'] = threads.$schema;
  schemaRefs['world/constraints.json'] = constraints.$schema;
  schemaRefs['world/assets.json'] = assets.$schema;
  schemaRefs['operators/operators.json'] = operators.$schema;
  const verbatim = new Map<string, Buffer>();
  await walk(root, 'style', verbatim);
  await walk(root, 'schemas', verbatim);
  for (const f of ['aureus.config.yaml']) {
    try {
      if ((await stat(path.join(root, f))).isFile()) verbatim.set(f, await readFile(path.join(root, f)));
    } catch {
      /* optional */
    }
  }
  if (![...verbatim.keys()].some((k) => k.startsWith('style/'))) throw kitError('style/', 'no style guide or lexicon');
  return { world, characters: chars.characters ?? [], threads, constraints, operators, assets, seasonGoals, schemaRefs, verbatim };
}

/** The fewest living principals the kit's hard constraints allow, and the constraint that says so. */
export interface PrincipalFloor {
  min: number;
  constraint: string;
}

/**
 * The floor the kit's hard `count_alive() >= N` (or `> N`) constraints put on living principals
 * (count_alive counts the living principals): an imported world with fewer would fail `validate`
 * (AUR2056) the moment it is written, so the import refuses it instead. Null when the kit sets none.
 */
export function principalFloor(kit: Pick<StarterKit, 'constraints'>): PrincipalFloor | null {
  let floor: PrincipalFloor | null = null;
  for (const c of kit.constraints.constraints) {
    const m = /^\s*count_alive\(\)\s*(>=|>)\s*(\d+)\s*$/.exec(c.expr);
    if (c.kind !== 'hard' || !m) continue;
    const min = Number(m[2]) + (m[1] === '>' ? 1 : 0);
    if (!floor || min > floor.min) floor = { min, constraint: c.id };
  }
  return floor;
}
