import fs from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { loadAllCommands } from '../../src/cli/commands/index.js';
import type { CommandContext } from '../../src/cli/context.js';
import { REPO, runCli, tempDirsPerTest } from './helpers.js';

const { temp } = tempDirsPerTest();

const noCtx = (): CommandContext => {
  throw new Error('no action runs in this test');
};

/** The path of every runnable command (`validate`, `episode run`, `import dprr`…), from the real registrations. */
async function runnableCommands(): Promise<string[][]> {
  const program = new Command().name('aureus');
  for (const register of await loadAllCommands()) register(program, noCtx);
  const out: string[][] = [];
  const walk = (c: Command, at: string[]) => {
    for (const sub of c.commands) {
      if (sub.commands.length) walk(sub, [...at, sub.name()]);
      else out.push([...at, sub.name()]);
    }
  };
  walk(program, []);
  return out;
}

const COMMON = /Any command exits 2 on a usage error \(a bad flag or argument, -C to a missing folder\), 11 when\nthe file system refuses a write \(standard output included\), 130 when interrupted, 1 on a bug;\nevery code and its causes: README\.md, "Exit codes"\.\n$/;

/**
 * Every command's --help says the exit codes any command can give and points to README's table;
 * `validate --help` listed 0 and 3 alone while it also exits 2 (-C to a missing folder) and 11 (its
 * output not written whole).
 */
describe('exit codes in --help', () => {
  it('every runnable command ends its help with the codes any command gives and README\'s table', async () => {
    const commands = await runnableCommands();
    expect(commands.length).toBeGreaterThan(20);
    const missing: string[] = [];
    for (const argv of commands) {
      const r = await runCli([...argv, '--help']);
      expect(r.code, argv.join(' ')).toBe(0);
      if (!COMMON.test(r.stdout)) missing.push(argv.join(' '));
    }
    expect(missing).toEqual([]);
    // README's table, which the help points to, has the codes it names.
    const readme = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');
    for (const code of [2, 11, 130, 1]) expect(readme).toMatch(new RegExp(`^\\| ${code} \\| `, 'm'));
  }, 120_000);

  it('validate gives the codes its help names: 2 for -C to a missing folder', async () => {
    const missing = path.join(temp('help-exit'), 'nope');
    const r = await runCli(['-C', missing, 'validate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('AUR7006');
    expect((await runCli(['validate', '--help'])).stdout).toMatch(/Exit codes: 0 valid \(warnings allowed\), 3 invalid world or config\.\n\nAny command exits 2 /);
  });
});
