import path from 'node:path';
import { diag } from '../../diagnostics/index.js';
import { AureusError, ExitCode } from '../../errors.js';
import { packageRoot } from '../../paths.js';
import { formatDate } from '../../core/roman-date.js';
import { assembleWorld, type AssembledWorld } from '../assemble.js';
import { worldRepoFiles, type RepoFiles } from '../files.js';
import { loadStarterKit, principalFloor, type StarterKit } from '../kit.js';
import { selectDprr } from './select.js';
import { loadDprrTables, type DprrTables } from './tables.js';

export interface DprrImportOptions {
  /** First year of the window, negative = BC (-100). */
  from: number;
  /** Last year of the window and the world's year (-44 → Kal. Ian. 44 BC). */
  to: number;
  /** Keep only the N highest-ranked persons (living first). */
  limit?: number;
  /** Principals among the living (default 10). */
  principals?: number;
  seed?: string;
  /** Folder with the DPRR CSV tables (default: the package's data/dprr). */
  data?: string;
}

export function defaultDprrDataDir(): string {
  return path.resolve(packageRoot(), 'data', 'dprr');
}

export const DPRR_ATTRIBUTION =
  'Persons, offices and family ties from the Digital Prosopography of the Roman Republic (DPRR), King\'s College London, CC BY-NC 4.0 (https://romanrepublic.ac.uk, https://creativecommons.org/licenses/by-nc/4.0/).';
export const INVENTED_NOTE =
  'Stats beyond office rank, temperaments, desires, voices, ledgers, goods, contracts, client networks, secrets and all political (non-family) ties are invented by the importer.';

/** AUR7903's hint by option: the catalog's is about years (--from, --to). */
const OPTION_HINTS: Record<string, string> = {
  '--seed': 'Give any text (--seed alt), or leave --seed out for the default seed.',
};

/** AUR7903 (exit 2) for a bad import option (--from, --to, --limit, --principals, --seed); `hint` replaces the option's. */
export function badDprrOption(option: string, value: unknown, reason: string, hintFor?: string): AureusError {
  const hint = hintFor ?? (option === '--from' || option === '--to' ? undefined : (OPTION_HINTS[option] ?? 'Counts are whole numbers: --limit 1000 --principals 100.'));
  return new AureusError(`invalid ${option}`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7903', { option, value, reason }, hint ? { hint } : {})] });
}

/** An import's --seed: any text but an empty one, which would silently be a different world from the default's. */
export function importSeed(value: string | undefined): string | undefined {
  if (value !== undefined && value.trim() === '') throw badDprrOption('--seed', JSON.stringify(value), 'the seed is empty');
  return value;
}

function checkOptions(o: DprrImportOptions): void {
  const bad = badDprrOption;
  if (!Number.isInteger(o.from) || o.from < -800 || o.from >= 0) throw bad('--from', o.from, 'an integer year BC between -800 and -1');
  if (!Number.isInteger(o.to) || o.to < -800 || o.to >= 0) throw bad('--to', o.to, 'an integer year BC between -800 and -1');
  if (o.from > o.to) throw bad('--from', o.from, `it must not be after --to ${o.to}`);
  if (o.limit !== undefined && (!Number.isInteger(o.limit) || o.limit < 1)) throw bad('--limit', o.limit, 'a positive integer');
  if (o.principals !== undefined && (!Number.isInteger(o.principals) || o.principals < 1)) throw bad('--principals', o.principals, 'a positive integer');
}

/** Build the world from already-loaded tables (pure, no I/O). */
export function buildDprrWorld(tables: DprrTables, kit: StarterKit, o: DprrImportOptions): AssembledWorld & { active: number } {
  checkOptions(o);
  const sel = selectDprr(tables, o.from, o.to, o.limit);
  if (sel.persons.length === 0) {
    throw new AureusError('nothing to import', { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7905', { from: o.from, to: o.to })] });
  }
  const from = `${Math.abs(o.from)}`;
  const to = `${Math.abs(o.to)}`;
  // Principals are taken from the living: more than the window has would silently be fewer. A value
  // the user gave is refused; the default (10) takes what there is in a narrow window.
  const living = sel.persons.filter((p) => p.alive).length;
  if (o.principals !== undefined && o.principals > living) {
    const among = o.limit === undefined ? '' : ` among the --limit ${o.limit}`;
    throw badDprrOption('--principals', o.principals, `at most ${living}, the persons active ${from}–${to} BC and alive in ${to} BC${among}`, 'Ask for fewer principals, or widen the window (--from) or raise --limit.');
  }
  checkFloor(tables, kit, o, living);
  const assembled = assembleWorld(sel.persons, sel.ties, kit, {
    seed: o.seed ?? `dprr${o.from}${o.to}`,
    principals: o.principals ?? 10,
    date: { year_bc: -o.to, month: 1, day: 1 },
    title: `Rome ${from}–${to} BC, from DPRR (King's College London, CC BY-NC 4.0); ledgers and secrets invented`,
    provenance: 'Offices and family from DPRR; wealth, temperament and secrets invented.',
  });
  return { ...assembled, active: sel.active };
}

/**
 * The kit's hard constraints need a number of living principals (count_alive() >= 8): a world with
 * fewer would be written and then refused by `validate` (AUR2056), so it is refused here, exit 2,
 * naming the minimum and the flag to raise: --principals when it was asked for, --limit when the
 * window has enough living persons beyond it, else the window itself (--from).
 */
function checkFloor(tables: DprrTables, kit: StarterKit, o: DprrImportOptions, living: number): void {
  const floor = principalFloor(kit);
  if (!floor) return;
  const { min, constraint } = floor;
  if (o.principals !== undefined && o.principals < min) {
    throw badDprrOption('--principals', o.principals, `at least ${min}: the starter kit's constraint ${constraint} needs ${min} principals alive`, `Ask for --principals ${min} or more.`);
  }
  if (living >= min) return;
  const to = Math.abs(o.to);
  const inWindow = o.limit === undefined ? living : selectDprr(tables, o.from, o.to, undefined).persons.filter((p) => p.alive).length;
  const among = `in ${to} BC among the persons active ${Math.abs(o.from)}–${to} BC${o.limit === undefined ? '' : ` (--limit ${o.limit})`}`;
  const hint = inWindow >= min
    ? `Raise --limit to ${min} or more (the window has ${inWindow} persons alive in ${to} BC).`
    : `Widen the window with an earlier --from: only ${inWindow} of its persons are alive in ${to} BC.`;
  throw new AureusError('too few principals for the starter kit', { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7911', { count: living, among, constraint, min }, { hint })] });
}

export function noticeText(o: DprrImportOptions, a: AssembledWorld): string {
  return `# Attribution and notes

This world was generated by \`aureus import dprr --from ${o.from} --to ${o.to}${o.limit ? ` --limit ${o.limit}` : ''}\`.

## Source (CC BY-NC 4.0)

${DPRR_ATTRIBUTION}

The data is used under the Creative Commons Attribution-NonCommercial 4.0 International licence:
credit DPRR, non-commercial use only. Changes made: persons active between ${Math.abs(o.from)} and ${Math.abs(o.to)} BC
were selected and ranked; names were normalised (editorial marks removed); offices held were turned into
stats and standing; family, marriage and collegial relationships into weighted relationship edges; large
gentes into factions.

## What is invented

${INVENTED_NOTE}
None of it is historical. Edges flagged \`invented\` in world/relationships.json are not in DPRR.

## What comes from the Aureus starter kit

Operators, style guide and lexicon, locations and travel times, global metrics, threads, constraints and
season goals. Threads and constraints were re-cast onto this world's principals:

${Object.entries(a.castMapping).map(([s, t]) => `- ${s} → ${t}`).join('\n') || '- (no starter cast to map)'}
${droppedNote(a.droppedConstraints)}
## Size

${a.stats.characters} characters (${a.stats.principals} principals, ${a.stats.dead} dead by ${formatDate({ day: 1, month: 1, year_bc: Math.abs(o.to) })}), ${a.stats.factions} factions,
${a.stats.relationships} relationship edges, ${a.stats.secrets} secrets.
`;
}

/** Load tables and kit, build, render: everything in memory, nothing written. */
export async function importDprrFiles(o: DprrImportOptions, kit?: StarterKit): Promise<{ files: RepoFiles; assembled: AssembledWorld & { active: number } }> {
  checkOptions(o);
  const tables = await loadDprrTables(o.data ?? defaultDprrDataDir());
  const k = kit ?? (await loadStarterKit());
  const assembled = buildDprrWorld(tables, k, o);
  const files = worldRepoFiles(assembled.world, assembled.seasonGoals, k, { 'NOTICE.md': noticeText(o, assembled) });
  return { files, assembled };
}

/** NOTICE.md's line on the kit's constraints left out (they name a starter character this cast has no one for). */
export function droppedNote(dropped: string[]): string {
  return dropped.length ? `\nLeft out, as they name a starter character this world has no one for: ${dropped.map((id) => `\`${id}\``).join(', ')}.\n` : '';
}
