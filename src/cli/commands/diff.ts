import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { printJson } from '../io.js';

/** `aureus diff <from> <to>`: what changed in the world between two episodes or refs, in words. */
export function registerDiff(program: Command, ctx: () => CommandContext): void {
  program
    .command('diff <from> <to>')
    .description('semantic world diff between two episodes (tags) or git refs: money, holdings, characters, secrets, relationships, threads')
    .option('--json', 'print the diff as JSON')
    .addHelpText('after', `
<from> and <to> are episode ids (s01e02) or git refs (HEAD, main, a sha). The world files are read
at each ref with git show; the working tree is not touched.

Examples:
  $ aureus diff s01e01 s01e03
  $ aureus diff s01e02 HEAD --json`)
    .action(async (from: string, to: string, o: { json?: boolean }) => {
      const c = ctx();
      // Not a world: AUR1000 (exit 3), not an unknown episode (exit 2).
      await (await import('../../pipeline/world-repo.js')).requireWorldRepo(c.root);
      const { resolveEpisodeOrRef } = await import('../../season/episodes.js');
      const { readWorldAt } = await import('../../season/world-at.js');
      const { diffWorlds, renderDiff } = await import('../../season/diff.js');
      const a = await resolveEpisodeOrRef(c.root, from, true);
      const b = await resolveEpisodeOrRef(c.root, to, true);
      const d = diffWorlds(await readWorldAt(c.root, a.commit), await readWorldAt(c.root, b.commit));
      if (o.json) printJson(c.io, { from: a.label, to: b.label, ...d });
      // World text (names, statuses) with its control characters shown, not obeyed (diagnostics/sanitize.ts).
      else c.io.stdout((await import('../../diagnostics/sanitize.js')).escapeControl(renderDiff(d, a.label, b.label)));
    });
}
