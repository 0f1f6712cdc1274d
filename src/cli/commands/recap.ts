import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { AureusError, ExitCode } from '../../errors.js';
import { diag } from '../../diagnostics/catalog.js';
import '../../diagnostics/codes/commit.js';
import { printJson } from '../io.js';

/** `aureus recap [s01e03]`: the "Previously on…" text of an episode (default: the latest). */
export function registerRecap(program: Command, ctx: () => CommandContext): void {
  program
    .command('recap [episode]')
    .description('print an episode\'s recap: "Previously on…" and the state dashboard (default: the latest episode)')
    .option('--json', 'print {episode, tag, recap} as JSON')
    .addHelpText('after', `
Examples:
  $ aureus recap              the latest committed episode
  $ aureus recap s01e02`)
    .action(async (episode: string | undefined, o: { json?: boolean }) => {
      const c = ctx();
      // Not a world: AUR1000 (exit 3), not "no episode has been committed yet" (exit 2).
      await (await import('../../pipeline/world-repo.js')).requireWorldRepo(c.root);
      const { committedEpisodes, resolveEpisodeOrRef } = await import('../../season/episodes.js');
      const { requireEpisodeId } = await import('../../season/episode-id.js');
      const { readEpisodeBytes } = await import('../../season/world-at.js');
      const { committedNonEmptyText } = await import('../../season/committed-text.js');
      const { episodeRelDir } = await import('../../paths.js');
      let id: string;
      if (episode !== undefined) id = requireEpisodeId(episode).id;
      else {
        const all = await committedEpisodes(c.root);
        if (!all.length) throw new AureusError('no episode has been committed yet', { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR6027')] });
        id = all[all.length - 1].ref.id;
      }
      const at = await resolveEpisodeOrRef(c.root, id, false);
      const rel = `${episodeRelDir(at.ref!)}/recap.md`;
      const bytes = await readEpisodeBytes(c.root, at.commit, rel);
      if (bytes === null) throw new AureusError(`episode ${id} has no recap.md`, { exitCode: ExitCode.INVALID_WORLD, diagnostics: [diag('AUR6019', { dir: episodeRelDir(at.ref!), file: 'recap.md' })] });
      // As export reads a script: a hand-edited byte that breaks UTF-8 is exit 3 at its line:column, not
      // U+FFFD printed, and an emptied recap.md is exit 3 too, not nothing printed with exit 0.
      const text = committedNonEmptyText(bytes, { file: 'recap.md', rel, episode: id, use: 'printed' });
      if (o.json) printJson(c.io, { episode: id, tag: at.label, recap: text });
      // A hand-edited recap.md may hold what a model's never does (its answer is cleaned before the commit).
      else c.io.stdout((await import('../../diagnostics/sanitize.js')).escapeControl(text));
    });
}
