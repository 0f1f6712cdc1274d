import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { formatDiagnostics, printJson } from '../io.js';
import type { Diagnostic } from '../../diagnostics/index.js';

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

All or nothing: the reverts and tags are built first, then one switch moves the work tree, HEAD
and the tags. Ctrl-C before it changes nothing (exit 130, AUR6036); during it, it is finished
first. A rollback killed in its switch is finished by running the same command again (AUR6038).

Examples:
  $ aureus rollback s01e03
  $ aureus episode run          compiles s01e03 again`)
    .action(async (episode: string, o: { json?: boolean }) => {
      const c = ctx();
      // Ctrl-C before the switch: nothing changed (exit 130, AUR6036), whatever it stopped (a git
      // command of the checks gets the terminal's signal too); during it: finished first.
      const { interruptSignal } = await import('./run-shared.js');
      let switching = false;
      let switched = false;
      const intr = interruptSignal(c.io.stderr, { first: () => (switching ? 'The rollback under way is finished first.' : 'Nothing is changed.'), again: 'Nothing of the rollback is kept.' });
      const critical = async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
        switching = switched = true;
        return intr.critical(what, fn).finally(() => (switching = false));
      };
      const notice = (d: Diagnostic) => c.io.stderr(formatDiagnostics([d], c.chalk).replace(/^\n/, ''));
      const { rollbackEpisode, checkRollbackArgs, rollbackInterrupted } = await import('../../season/rollback.js');
      let r;
      try {
        // Not a world: AUR1000 (exit 3), not an uncommitted episode (exit 2).
        const git = await (await import('../../pipeline/world-repo.js')).requireWorldRepo(c.root);
        const { withLock } = await import('../../pipeline/lock.js');
        const { interruptedRollback } = await import('../../season/rollback-journal.js');
        // A merge (rebase, …) half done: git would refuse the switch's read-tree after the reverts are built.
        await git.refuseOperationInProgress('a rollback cannot be made now');
        // Its reverts on a what-if branch a kill left half made would hide that it is (AUR6035).
        await (await import('../../season/branch-journal.js')).refuseHalfMadeBranch(c.root, 'a rollback cannot be made on it', git);
        // Refusals come before the lock, so a refused rollback writes nothing; checked again under it.
        // Not while a rollback a kill cut is left (its journal): that one is finished first, under the lock.
        if (!interruptedRollback(c.root)) {
          await checkRollbackArgs(c.root, episode);
          await (await import('../../pipeline/clean-world.js')).requireCleanWorld(git, ['world', 'operators', 'seasons'], { allowDirtyFlag: false });
        }
        r = await withLock(c.root, 'rollback', () => rollbackEpisode(c.root, episode, { signal: intr.signal, critical, notice }));
      } catch (e) {
        throw intr.signal.aborted && !switched ? rollbackInterrupted(episode) : e;
      } finally {
        intr.dispose();
      }
      if (o.json) printJson(c.io, r);
      else {
        let out = `${c.chalk.green('✓')} rolled back ${r.episode}: ${r.reverted.length} commit${r.reverted.length === 1 ? '' : 's'} reverted\n`;
        for (const x of r.reverted) out += `  ${x.commit.slice(0, 10)} ${x.subject}  → revert ${x.revert.slice(0, 10)}\n`;
        for (const t of r.retagged) out += c.chalk.dim(`  tag ${t.from} → ${t.to}\n`);
        c.io.stdout(out);
      }
      if (intr.signal.aborted) c.io.stderr(`aureus: the interrupt came during the rollback's switch, which is atomic: it was finished first. ${r.episode} is rolled back; nothing is left to resume.\n`);
    });
}
