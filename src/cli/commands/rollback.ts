import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { printJson } from '../io.js';

/** `aureus rollback s01e03`: revert that episode and every later commit; history is kept. */
export function registerRollback(program: Command, ctx: () => CommandContext): void {
  program
    .command('rollback <episode>')
    .description('revert an episode\'s commit and every later one (git revert, history kept), restoring the world')
    .option('--json', 'print the reverted commits as JSON')
    .addHelpText('after', `
Each commit from <episode> to HEAD is reverted newest first, one revert commit each. The reverted
episodes' tags are renamed rolledback/<id>/<sha>, so the episode can be compiled again.

Branch-qualified tags: an episode committed while its plain tag (s01e03) is held by another line
(a what-if branch's parent, see \`aureus branch --help\`) is tagged <branch>/s01e03. Always pass the
plain id: rollback uses whichever tag is in the current branch's history. A tag another branch's
history still holds is kept (that line still has the episode); a re-run here is tagged <branch>/<id>.
Refusals say why: AUR6022 never committed, AUR6021 already rolled back (rolledback/<id>/<sha>),
AUR6014 committed on another branch only.

Examples:
  $ aureus rollback s01e03
  $ aureus episode run          compiles s01e03 again`)
    .action(async (episode: string, o: { json?: boolean }) => {
      const c = ctx();
      // Not a world: AUR1000 (exit 3), not an uncommitted episode (exit 2).
      const git = await (await import('../../pipeline/world-repo.js')).requireWorldRepo(c.root);
      const { withLock } = await import('../../pipeline/lock.js');
      const { rollbackEpisode, checkRollbackArgs } = await import('../../season/rollback.js');
      // Refusals come before the lock, so a refused rollback writes nothing; checked again under it.
      const { requireCleanWorld } = await import('../../pipeline/clean-world.js');
      const refuseDirty = () => requireCleanWorld(git, ['world', 'operators', 'seasons'], { allowDirtyFlag: false });
      await checkRollbackArgs(c.root, episode);
      await refuseDirty();
      const r = await withLock(c.root, 'rollback', async () => {
        await refuseDirty();
        return rollbackEpisode(c.root, episode);
      });
      if (o.json) printJson(c.io, r);
      else {
        let out = `${c.chalk.green('✓')} rolled back ${r.episode}: ${r.reverted.length} commit${r.reverted.length === 1 ? '' : 's'} reverted\n`;
        for (const x of r.reverted) out += `  ${x.commit.slice(0, 10)} ${x.subject}  → revert ${x.revert.slice(0, 10)}\n`;
        for (const t of r.retagged) out += c.chalk.dim(`  tag ${t.from} → ${t.to}\n`);
        c.io.stdout(out);
      }
    });
}
