import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { AureusError, ExitCode } from '../../errors.js';

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
      const { createGit } = await import('../../git/adapter.js');
      await createGit(c.root).requireRepo();
      // Not a world: AUR1000 (exit 3), not "no episode has been committed yet" (exit 2).
      (await import('../../store/load.js')).requireWorldFolder(c.root);
      const { committedEpisodes, resolveEpisodeOrRef } = await import('../../season/episodes.js');
      const { requireEpisodeId } = await import('../../season/episode-id.js');
      const { readEpisodeFile } = await import('../../season/world-at.js');
      const { episodeRelDir } = await import('../../paths.js');
      let id: string;
      if (episode !== undefined) id = requireEpisodeId(episode).id;
      else {
        const all = await committedEpisodes(c.root);
        if (!all.length) throw new AureusError('no episode has been committed yet', { exitCode: ExitCode.USAGE, hint: 'run `aureus episode run` first' });
        id = all[all.length - 1].ref.id;
      }
      const at = await resolveEpisodeOrRef(c.root, id, false);
      const text = await readEpisodeFile(c.root, at.commit, `${episodeRelDir(at.ref!)}/recap.md`);
      if (text === null) throw new AureusError(`episode ${id} has no recap.md`, { exitCode: ExitCode.INVALID_WORLD });
      c.io.stdout(o.json ? JSON.stringify({ episode: id, tag: at.label, recap: text }, null, 2) + '\n' : text);
    });
}
