import path from 'node:path';
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { printJson } from '../io.js';

/**
 * `aureus init <dir>`: scaffold a world repository (starter kit, schemas, config, .gitignore,
 * git repository on main with a first commit). Refuses an existing non-empty directory (exit 2).
 */
export function registerInit(program: Command, ctx: () => CommandContext): void {
  program
    .command('init')
    .description('create a world repository with the starter season kit, a .gitignore, git init and a first commit')
    .argument('<dir>', 'where to create it (a new or empty directory; relative to -C)')
    .option('--json', 'print {"root", "commit", "files"} instead of text')
    .addHelpText(
      'after',
      `
Examples:
  $ aureus init my-world                 scaffold ./my-world and commit it
  $ aureus -C my-world validate          then check it

Exit codes: 0 created, 2 the directory exists and is not empty (or not a directory), 10 git failed,
130 interrupted (Ctrl-C). On any failure or interrupt nothing is left behind.`,
    )
    .action(async (dir: string, opts: { json?: boolean }) => {
      const c = ctx();
      const { scaffoldWorld } = await import('../../store/scaffold.js');
      const target = path.resolve(c.root, dir);
      // Ctrl-C (or SIGTERM): the build stops and removes its hidden staging folder (exit 130, AUR7008);
      // without a handler the process died by the signal, silently, and left that folder behind.
      const { interruptSignal } = await import('./run-shared.js');
      const intr = interruptSignal(c.io.stderr, { first: 'The partial world is removed.', again: 'Nothing of it is kept.' });
      let r;
      try {
        r = await scaffoldWorld(target, { signal: intr.signal });
      } finally {
        intr.dispose();
      }
      if (opts.json) {
        printJson(c.io, { commit: r.commit, files: r.files, root: r.root });
        return;
      }
      // Echo the path the way it was given: absolute stays absolute, relative is from where the user is.
      const shown = path.isAbsolute(dir) ? target : path.relative(c.shellCwd ?? c.io.cwd, target) || '.';
      c.io.stdout(
        `${c.chalk.green('✓')} created the world repository ${target} (${r.files.length} files, commit ${r.commit.slice(0, 7)} on main)\n` +
          `Next:\n  aureus -C ${shown.includes(' ') ? JSON.stringify(shown) : shown} validate\n`,
      );
    });
}
