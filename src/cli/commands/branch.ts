import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { printJson } from '../io.js';

/** `aureus branch <name> --from s01e02`: a what-if season on its own git branch. */
export function registerBranch(program: Command, ctx: () => CommandContext): void {
  program
    .command('branch <name>')
    .description('start a what-if season: a new git branch at an episode, checked out (optionally with world changes)')
    .option('--from <episode>', 'the episode (or git ref) the branch starts from, e.g. s01e02 (default with --set: HEAD)')
    .option('--set <path=value>', 'change the world on the new branch (repeatable): a recorded, committed delta, e.g. characters.cato.status=exiled; anchors.<id>.waived=true waives a historical anchor', (v: string, prev: string[] = []) => [...prev, v])
    .option('--allow-dirty', 'switch even with uncommitted changes under world/: they stay uncommitted on the new branch; an edit to a file that differs at --from, or that a --set writes, is refused (exit 8), never lost')
    .option('--json', 'print {branch, from, commit} as JSON')
    .addHelpText('after', `
The next \`aureus episode run\` on the branch compiles the episode after <episode> anew. Episodes
committed on the branch are tagged <name>/sNNeNN (the plain tags stay with the original line):
a branch-qualified tag is used whenever the plain tag sNNeNN is held by another line. Commands that
take an episode id (export, diff, recap, rollback) take the plain id and use the tag in the current
branch's history; git commands can name either tag (git show cato-wins/s01e03).

Examples:
  $ aureus branch cato-wins --from s01e02
  $ aureus episode run
  $ aureus branch no-varo --set characters.varo.status=exiled --set world.global.unrest=8

With --set the change is applied through the delta engine (paths as in docs/paths.md), recorded with
its provenance in seasons/season_NN/what_if/<name>.json and committed on the new branch, so the next
episode there is compiled on the changed world.`)
    .action(async (name: string, o: { from?: string; set?: string[]; allowDirty?: boolean; json?: boolean }) => {
      const c = ctx();
      const git = await (await import('../../pipeline/world-repo.js')).requireWorldRepo(c.root);
      const { withLock } = await import('../../pipeline/lock.js');
      const { branchFrom, checkBranchArgs, refuseLostEdits } = await import('../../season/branch.js');
      const { requireCleanWorld } = await import('../../pipeline/clean-world.js');
      const requireClean = async () => {
        if (!o.allowDirty) await requireCleanWorld(git, ['world', 'operators', 'seasons']);
      };
      // Arguments and the dirty check first: taking the lock writes .aureus/, and a refused
      // command must leave the repository as it found it. Both are checked again under the lock.
      if (!o.from && !o.set?.length) {
        const { AureusError, ExitCode } = await import('../../errors.js');
        const { diag } = await import('../../diagnostics/index.js');
        throw new AureusError('branch needs --from <episode> or --set <path>=<value>', { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7011', { command: 'aureus branch', needed: '--from <episode> or --set <path>=<value>', example: 'e.g. aureus branch cato-wins --from s01e02' })] });
      }
      const from = o.from ?? 'HEAD';
      // With --set, the half-made branch of that name a killed `branch --set` left is finished (what-if.ts).
      const at = await checkBranchArgs(c.root, name, from, { resume: Boolean(o.set?.length) });
      await requireClean();
      if (o.set?.length) return branchWithChanges(c, name, from, o.set, { requireClean, json: o.json });
      await refuseLostEdits(c.root, name, at, () => false);
      const r = await withLock(c.root, 'branch', async () => {
        await requireClean();
        return branchFrom(c.root, name, from);
      });
      if (o.json) printJson(c.io, r);
      else c.io.stdout(`${c.chalk.green('✓')} on branch ${c.chalk.bold(r.branch)} from ${r.from} (${r.commit.slice(0, 12)})\n`);
    });
}

/**
 * `branch --set`: the what-if's checks, then under the lock the switch, the written files and their commit as one step.
 * Ctrl-C before it changes nothing (130, AUR6008); during it, the step is finished first (its git commands in a process
 * group of their own, out of reach of a terminal's Ctrl-C), and a commit git refuses undoes it whole (what-if.ts).
 */
async function branchWithChanges(c: CommandContext, name: string, from: string, sets: string[], o: { requireClean: () => Promise<void>; json?: boolean }): Promise<void> {
  const { branchWithSets, checkWhatIf } = await import('../../season/what-if.js');
  const { withLock } = await import('../../pipeline/lock.js');
  const { inOwnProcessGroup } = await import('../../git/exec.js');
  const { interruptSignal } = await import('./run-shared.js');
  const { interruptedDuring, isInterruptedDuring } = await import('../../diagnostics/interrupted.js');
  const interrupted = (where: string, cause?: unknown) => interruptedDuring(where, { cause, hint: 'nothing was changed: no branch, no written file; run the same command again' });
  let switching = false;
  const intr = interruptSignal(c.io.stderr, { first: () => (switching ? 'The branch under way is finished first.' : 'Nothing is changed.'), again: 'Nothing is left half done.' });
  let r: Awaited<ReturnType<typeof branchWithSets>>;
  try {
    // A malformed --set, or one writing a file with uncommitted edits, is refused before the lock.
    await checkWhatIf(c.root, name, from, sets);
    r = await withLock(c.root, 'branch', async () => {
      await o.requireClean();
      if (intr.signal.aborted) throw interrupted('the checks before the branch');
      switching = true;
      return intr.critical('the branch', () => inOwnProcessGroup(() => branchWithSets(c.root, name, from, sets)));
    });
  } catch (e) {
    if (isInterruptedDuring(e)) throw interrupted(e.message.replace(/^interrupted during /, ''), e);
    throw e;
  } finally {
    intr.dispose();
  }
  if (intr.signal.aborted) c.io.stderr(`aureus: the interrupt came during the branch; it was finished first: on ${r.branch}, committed (${r.commit.slice(0, 12)}).\n`);
  const lines = r.deltas.map((d) => `  ${d.path}: ${JSON.stringify(d.before)} → ${JSON.stringify(d.after)}`).join('\n');
  if (o.json) printJson(c.io, r);
  else c.io.stdout(`${c.chalk.green('✓')} on branch ${c.chalk.bold(r.branch)} from ${r.from}, world changed (${r.commit.slice(0, 12)}, recorded in ${r.record}):\n${lines}\n`);
}
