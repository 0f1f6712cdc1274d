import { severityCounts, type Diagnostic } from '../diagnostics/index.js';
import { readConfigFile, resolveConfig, type ConfigFile } from '../config/load.js';
import { typecheckWorldExpressions } from '../core/expr/check.js';
import { checkHardConstraints } from '../core/invariants.js';
import { loadStyle } from '../style/guide.js';
import type { World } from '../domain/world.js';
import { AureusError, ExitCode } from '../errors.js';
import { checkNotes } from '../season/notes.js';
import { loadWorld, requireWorldFolder, seasonNumbers, type LoadedWorld } from './load.js';
import { rememberWorld } from './derived-index/remember.js';

/**
 * What `aureus validate` checks, as a function (the command only prints): world files,
 * season goals, season notes and references (store), the expressions of operators and constraints (core/expr,
 * once every file is schema-valid: they need well-typed data), the style guide and lexicon
 * (style), then aureus.config.yaml (config).
 */
export interface ValidationResult {
  valid: boolean;
  diagnostics: Diagnostic[];
  /** One line about what was checked, e.g. "10 characters, 32 operators, 8 threads". */
  stats: string;
}

/** The world checks' findings, by check, when each ran (or was vouched for by the derived index). */
interface WorldChecks {
  expressions: Diagnostic[];
  /** Null when the hard constraints did not run (an error before them). */
  constraints: Diagnostic[] | null;
}

async function checkAll(root: string, configFile?: ConfigFile, index = false): Promise<{ loaded: LoadedWorld; diagnostics: Diagnostic[]; configFile: ConfigFile; checks: WorldChecks }> {
  const loaded = await loadWorld(root, { index });
  // An entry of the derived index vouches for the world checks of these very files (their warnings kept).
  const vouched = loaded.index?.entry?.diagnostics;
  const diagnostics = [...loaded.diagnostics];
  // Runs read each season's notes (the Director's steering): a broken notes file is a broken world,
  // found here rather than halfway through a run; its ids are checked against the world once that loaded.
  if (!diagnostics.some((d) => d.code === 'AUR1000')) for (const n of await seasonNumbers(root)) diagnostics.push(...checkNotes(root, n, loaded.world ?? undefined).diagnostics);
  const checks: WorldChecks = { expressions: vouched?.expressions ?? (loaded.parsed ? typecheckWorldExpressions(loaded.parsed) : []), constraints: null };
  diagnostics.push(...checks.expressions);
  // Hard constraints hold in every state, the starting one too (once the expressions typecheck).
  if (loaded.world && !diagnostics.some((d) => d.severity === 'error')) diagnostics.push(...(checks.constraints = vouched?.constraints ?? checkHardConstraints(loaded.world)));
  // Not a world repository at all (AUR1000): one diagnostic says so; the style files would only repeat it.
  if (!diagnostics.some((d) => d.code === 'AUR1000')) diagnostics.push(...(await loadStyle(root)).diagnostics);
  // A caller that has read the config already (a run's preflight) passes it: one read per run.
  const config = configFile ?? readConfigFile(root);
  diagnostics.push(...resolveConfig(config).diagnostics);
  return { loaded, diagnostics, configFile: config, checks };
}

export async function validateWorldRepository(root: string): Promise<ValidationResult> {
  const { loaded, diagnostics } = await checkAll(root);

  const w = loaded.world;
  const stats = w
    ? [
        `${w.characters.characters.length} characters`,
        `${w.relationships.relationships.length} relationships`,
        `${w.secrets.secrets.length} secrets`,
        `${w.threads.threads.length} threads`,
        `${w.world.locations.length} locations`,
        `${w.operators.operators.length} operators`,
        `${loaded.seasonGoals.length} season${loaded.seasonGoals.length === 1 ? '' : 's'}`,
      ].join(', ')
    : '';
  return { valid: !diagnostics.some((d) => d.severity === 'error'), diagnostics, stats };
}

/**
 * For commands that compile from the world (`episode plan`, `episode run`, `season run`): exactly
 * what `aureus validate` checks, once, and the world — or an AureusError with exit code 3 carrying
 * every diagnostic. Running on a world `validate` rejects (an expression escaping the sandbox, a
 * broken style guide or config) would commit its consequences. The config file read comes back
 * (configFile) so the caller resolves its flags over it instead of reading the file again.
 * `remember()` keeps what the checks found in the derived index (store/derived-index/remember.ts):
 * the caller calls it once the command goes ahead, so that a refused command writes nothing.
 */
export async function loadValidatedWorld(
  root: string,
  configFile?: ConfigFile,
): Promise<{ world: World; diagnostics: Diagnostic[]; configFile: ConfigFile; remember: () => void }> {
  // Not a world at all: AUR1000 alone, without the hint to run validate and fix the files.
  requireWorldFolder(root);
  const { loaded, diagnostics, configFile: config, checks } = await checkAll(root, configFile, true);
  const errors = severityCounts(diagnostics).error;
  if (errors || !loaded.world) {
    throw new AureusError(`the world in ${root} is invalid (${errors} error${errors === 1 ? '' : 's'})`, {
      exitCode: ExitCode.INVALID_WORLD,
      diagnostics,
      hint: 'fix the files (`aureus validate` checks them again as you go: every file, warnings too, 50 problems a file at most), then re-run',
    });
  }
  return { world: loaded.world, diagnostics, configFile: config, remember: rememberWorld(root, loaded, checks) };
}
