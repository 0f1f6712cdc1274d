import type { Command } from 'commander';
import type { CommandContext } from '../context.js';

/** `aureus branch <name> --from s01e02`: a what-if season on its own git branch. */
export function registerBranch(program: Command, ctx: () => CommandContext): void {
  program
    .command('branch <name>')
    .description('start a what-if season: a new git branch at an episode, checked out')
    .requiredOption('--from <episode>', 'the episode (or git ref) the branch starts from, e.g. s01e02')
    .option('--allow-dirty', 'switch even with uncommitted changes under world/')
    .option('--json', 'print {branch, from, commit} as JSON')
    .addHelpText('after', `
The next \`aureus episode run\` on the branch compiles the episode after <episode> anew. Episodes
committed on the branch are tagged <name>/sNNeNN (the plain tags stay with the original line):
a branch-qualified tag is used whenever the plain tag sNNeNN is held by another line. Commands that
take an episode id (export, diff, recap, rollback) take the plain id and use the tag in the current
branch's history; git commands can name either tag (git show cato-wins/s01e03).

Examples:
  $ aureus branch cato-wins --from s01e02
  $ aureus episode run`)
    .action(async (name: string, o: { from: string; allowDirty?: boolean; json?: boolean }) => {
      const c = ctx();
      const { createGit } = await import('../../git/simple-git.js');
      const git = createGit(c.root);
      await git.requireRepo();
      const { withLock } = await import('../../pipeline/lock.js');
      const { branchFrom, checkBranchArgs } = await import('../../season/branch.js');
      const { requireCleanWorld } = await import('../../pipeline/clean-world.js');
      const requireClean = async () => {
        if (!o.allowDirty) await requireCleanWorld(git, ['world', 'operators', 'seasons']);
      };
      // Arguments and the dirty check first: taking the lock writes .aureus/, and a refused
      // command must leave the repository as it found it. Both are checked again under the lock.
      await checkBranchArgs(c.root, name, o.from);
      await requireClean();
      const r = await withLock(c.root, 'branch', async () => {
        await requireClean();
        return branchFrom(c.root, name, o.from);
      });
      c.io.stdout(o.json ? JSON.stringify(r, null, 2) + '\n' : `${c.chalk.green('✓')} on branch ${c.chalk.bold(r.branch)} from ${r.from} (${r.commit.slice(0, 12)})\n`);
    });
}
