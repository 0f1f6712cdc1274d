import { diag, type Diagnostic } from '../../diagnostics/index.js';
import { WORLD_FILES, type World } from '../../domain/world.js';
import { AureusError, ExitCode } from '../../errors.js';
import { checkStringLengths } from '../../store/limits.js';
import { checkWorldReferences } from '../../store/references.js';
import { validateSchema } from '../../store/schema.js';

/**
 * The last gate before the commit, beside the hard constraints': the world the episode would commit
 * passes what `aureus validate` checks of its files (schemas, string lengths, the references between
 * files). The verifier keeps what a model writes from reaching the world unchecked; this gate makes
 * a committed world that every later command refuses (exit 3, until a rollback) impossible, whatever
 * let it through: an operator effect whose `{expr}` gives a value its file does not allow (validate
 * checks literal values, AUR2028, but an expression's value exists only at run time), or a bug. Nothing is committed: AUR6026 and every
 * problem, exit 6 like a broken hard constraint (the episode's changes cannot be committed).
 *
 * Only the files the episode changed are checked against their schemas (the engine copies a file
 * on write, so an untouched one is the very object that loaded valid); the references span files
 * and are checked whole. In memory, not re-read: the commit writes these objects as JSON (core/json-layout.ts).
 */
export function requireValidWorld(before: World, after: World, episodeId: string, runDir: string): void {
  const problems: Diagnostic[] = [];
  for (const [kind, rel] of Object.entries(WORLD_FILES) as [keyof World, string][]) {
    if (after[kind] === before[kind]) continue;
    problems.push(...validateSchema(kind, after[kind], rel), ...checkStringLengths(after[kind], rel));
  }
  // References are judged on schema-valid files only, as validate judges them.
  if (!problems.some((d) => d.severity === 'error')) problems.push(...checkWorldReferences(after));
  const errors = problems.filter((d) => d.severity === 'error');
  if (!errors.length) return;
  throw new AureusError(`the changes of ${episodeId} would commit a world \`aureus validate\` refuses`, {
    exitCode: ExitCode.PLAN_INFEASIBLE,
    diagnostics: [diag('AUR6026', { episode: episodeId, count: errors.length, run: runDir }), ...errors],
  });
}
