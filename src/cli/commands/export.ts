import type { Command } from 'commander';
import type { CommandContext } from '../context.js';

/** `aureus export <episode> --format fountain|md|html [-o file]`. */
export function registerExport(program: Command, ctx: () => CommandContext): void {
  program
    .command('export <episode>')
    .description('export a committed episode as a Fountain screenplay, markdown, or a self-contained HTML report')
    .option('--format <format>', 'fountain | md | html', 'fountain')
    .option('-o, --output <file>', 'write to a file instead of stdout (a regular file or a new path; - is stdout)')
    .addHelpText('after', `
The html report holds the script, an inline SVG chart of tension and pacing, the threads advanced
and the verifier's statistics; it needs no network to open.

Examples:
  $ aureus export s01e01 --format fountain > s01e01.fountain
  $ aureus export s01e02 --format html -o s01e02.html`)
    .action(async (episode: string, o: { format: string; output?: string }) => {
      const c = ctx();
      // Not a world: AUR1000 (exit 3), not an uncommitted episode (exit 2).
      await (await import('../../pipeline/world-repo.js')).requireWorldRepo(c.root);
      const { exportEpisode, requireFormat } = await import('../../season/export.js');
      const { requireEpisodeId } = await import('../../season/episode-id.js');
      requireEpisodeId(episode);
      const r = await exportEpisode(c.root, episode, requireFormat(o.format));
      if (o.output !== undefined && o.output.trim() === '') {
        // An empty -o (an unset shell variable, `-o "$OUT"`) is no path: printing to stdout instead would hide the mistake.
        const { AureusError, ExitCode } = await import('../../errors.js');
        const { diag } = await import('../../diagnostics/index.js');
        throw new AureusError('empty -o', { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7005', { file: JSON.stringify(o.output), reason: 'the path is empty; use -o - for standard output' })] });
      }
      if (o.output && o.output !== '-') {
        const path = await import('node:path');
        const { writeOutputFile } = await import('../output-file.js');
        const file = path.resolve(c.io.cwd, o.output);
        await writeOutputFile(file, r.content);
        c.io.stderr(`${c.chalk.green('✓')} wrote ${file}\n`);
      } else c.io.stdout(r.content);
    });
}
