import type { Command } from 'commander';
import { capPerFile, severityCounts, type Diagnostic } from '../../diagnostics/index.js';
import type { CommandContext } from '../context.js';
import { formatDiagnostics, printJson } from '../io.js';
import { ExitCode } from '../../errors.js';
import { plural } from '../../core/readable.js';

/**
 * `aureus validate [--json]`: every world file (safe read, format, schema, references), every
 * season's goals, the expressions, and aureus.config.yaml. Exit 0 when there is no error
 * (warnings do not fail), 3 otherwise. Validation writes nothing.
 */
export function registerValidate(program: Command, ctx: () => CommandContext): void {
  program
    .command('validate')
    .description('check every world file, reference, expression and the config; print all diagnostics grouped by file')
    .option('--json', 'print {"valid": boolean, "diagnostics": [...]} instead of text')
    .addHelpText(
      'after',
      `
Examples:
  $ aureus validate                      check the world repository in the current directory
  $ aureus -C my-world validate --json   machine-readable result for CI or an editor

Exit codes: 0 valid (warnings allowed), 3 invalid world or config.`,
    )
    .action(async (opts: { json?: boolean }) => {
      const c = ctx();
      const { validateWorldRepository } = await import('../../store/validate.js');
      const result = await validateWorldRepository(c.root);
      if (!result.valid) c.exit.code = ExitCode.INVALID_WORLD;
      if (opts.json) {
        // The same list as the text: a file's first 50, then its AUR7009 line with the counts left out.
        printJson(c.io, { diagnostics: capPerFile(result.diagnostics), valid: result.valid });
        return;
      }
      if (result.diagnostics.length) c.io.stdout(formatDiagnostics(result.diagnostics, c.chalk).replace(/^\n/, '') + '\n');
      c.io.stdout(summary(result.diagnostics, result.stats, c) + '\n');
    });
}

function summary(all: Diagnostic[], stats: string, c: CommandContext): string {
  // Every problem, those a file's AUR7009 line stands for too.
  const { error: errors, warning: warnings } = severityCounts(all);
  const files = new Set(all.map((d) => d.file ?? '')).size;
  const count = (n: number, w: string) => `${n} ${plural(n, w)}`;
  if (errors === 0) {
    const w = warnings ? ` (${count(warnings, 'warning')})` : '';
    return `${c.chalk.green('✓')} ${c.root} is a valid world${w}: ${stats}`;
  }
  return `${c.chalk.red('✗')} ${count(errors, 'error')}${warnings ? `, ${count(warnings, 'warning')}` : ''} in ${count(files, 'file')}: the world in ${c.root} is invalid`;
}
