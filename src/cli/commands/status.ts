import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { printJson } from '../io.js';

/** `aureus status [--json]`: the season dashboard. */
export function registerStatus(program: Command, ctx: () => CommandContext): void {
  program
    .command('status')
    .description('the season dashboard: date, metrics, threads with cadence status, principals\' standing, tension sparkline')
    .option('--json', 'print the dashboard as JSON')
    .addHelpText('after', `
An episode staged for review (\`episode run --review\`) is named under Review: since when, the
scenes edited, rewritten and pinned, and the commands that go on (--json: staged_for_review).

Examples:
  $ aureus status
  $ aureus -C my-world status --json | jq .threads
  $ aureus status --json | jq .staged_for_review

Exit codes: 0 shown, 3 not a world (AUR1000), a damaged .aureus/review.json (AUR6199, AUR6112) or
commit journal (AUR6099).`)
    .action(async (o: { json?: boolean }) => {
      const c = ctx();
      // Not a world (an empty folder, git or not, or a world's own world/ folder): AUR1000, as episode run says it.
      await (await import('../../pipeline/world-repo.js')).requireWorldRepo(c.root);
      const { seasonStatus, renderStatus } = await import('../../season/status.js');
      const s = await seasonStatus(c.root);
      if (o.json) printJson(c.io, s);
      // World text (names, titles) with its control characters shown, not obeyed (diagnostics/sanitize.ts).
      else c.io.stdout(renderStatus((await import('../../diagnostics/sanitize.js')).escapeControlIn(s), c.chalk));
    });
}
