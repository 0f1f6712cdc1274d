import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { commandsNeeded, commandTable, loadAllCommands, registerTable } from '../../src/cli/commands/index.js';
import type { CommandContext } from '../../src/cli/context.js';

/**
 * `aureus --help` lists the commands from a hand-written table instead of importing every command
 * module (issue 18). The table must say exactly what the real registrations say.
 */
const noCtx = (): CommandContext => {
  throw new Error('no action runs in this test');
};

async function fullProgram(): Promise<Command> {
  const program = new Command().name('aureus');
  for (const register of await loadAllCommands()) register(program, noCtx);
  return program;
}

describe('command table', () => {
  it('gives the same top-level help as registering every command module', async () => {
    const full = await fullProgram();
    const fromTable = new Command().name('aureus');
    registerTable(fromTable);
    expect(fromTable.helpInformation()).toBe(full.helpInformation());
    expect(commandTable.map((e) => e.name)).toEqual(full.commands.map((c) => c.name()));
  });

  it("loads a command's modules alone with the same subcommands as the full registration", async () => {
    const full = await fullProgram();
    for (const entry of commandTable) {
      const program = new Command().name('aureus');
      for (const register of await entry.load()) register(program, noCtx);
      expect(program.commands.map((c) => c.name())).toEqual([entry.name]);
      const alone = program.commands[0]!;
      const same = full.commands.find((c) => c.name() === entry.name)!;
      expect(alone.helpInformation()).toBe(same.helpInformation());
      expect(alone.commands.map((c) => c.name())).toEqual(same.commands.map((c) => c.name()));
    }
  });

  it('picks what an argv needs, and everything when it cannot tell', () => {
    const name = (n: ReturnType<typeof commandsNeeded>) => (typeof n === 'string' ? n : n.name);
    expect(name(commandsNeeded([]))).toBe('table');
    expect(name(commandsNeeded(['--help']))).toBe('table');
    expect(name(commandsNeeded(['-V']))).toBe('table');
    expect(name(commandsNeeded(['help']))).toBe('table');
    expect(name(commandsNeeded(['help', 'episode']))).toBe('episode');
    expect(name(commandsNeeded(['-C', 'w', '--no-color', 'episode', 'run', '--seed', '3']))).toBe('episode');
    expect(name(commandsNeeded(['-Cw', 'validate', '--json']))).toBe('validate');
    expect(name(commandsNeeded(['episde']))).toBe('all'); // commander's "did you mean" needs every name
    expect(name(commandsNeeded(['--bogus', 'episode']))).toBe('all');
    expect(name(commandsNeeded(['--help', 'episode']))).toBe('all');
  });
});
