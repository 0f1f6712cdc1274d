import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { AureusCommand } from '../../src/cli/usage.js';
import { loadAllCommands } from '../../src/cli/commands/index.js';
import type { CommandContext } from '../../src/cli/context.js';
import { allCatalogEntries } from '../../src/diagnostics/index.js';
import { REPO_ROOT } from '../support/starter-world.js';

/**
 * Every `aureus …` command a diagnostic quotes (in the catalog's messages and hints, and in the hints
 * written in src/) names a real command, with options it has: AUR3007's hint said `aureus season
 * rollback`, a command that never existed (it is `aureus rollback <episode>`).
 */
async function commandTree(): Promise<Command> {
  const program = new AureusCommand('aureus');
  const ctx = (): CommandContext => { throw new Error('not run'); };
  for (const register of await loadAllCommands()) register(program, ctx);
  return program;
}

/** What is wrong with a quoted command line, or undefined when it names a command and its options. */
function problem(program: Command, line: string): string | undefined {
  const words = line.split(/\s+/).slice(1);
  let i = 0;
  while (words[i] === '-C' || words[i] === '--no-color') i += words[i] === '-C' ? 2 : 1;
  let cmd = program;
  for (; i < words.length; i++) {
    const sub = cmd.commands.find((c) => c.name() === words[i] || c.aliases().includes(words[i]!));
    if (!sub) break;
    cmd = sub;
  }
  const flags = words.slice(i).filter((w) => w.startsWith('--')).map((w) => w.split('=')[0]!);
  if (flags.includes('--help')) return undefined;
  // `aureus scene …`: any command of the group.
  if (cmd !== program && cmd.commands.length && words[i] === '…') return undefined;
  if (cmd === program || cmd.commands.length) return `"${words.slice(0, i + 1).join(' ')}" names no command`;
  const known = new Set<string>();
  for (let c: Command | null = cmd; c; c = c.parent) for (const o of c.options) if (o.long) known.add(o.long);
  const unknown = flags.filter((f) => !known.has(f) && f !== '--');
  return unknown.length ? `${cmd.name()} has no ${unknown.join(', ')}` : undefined;
}

/** Every backticked `aureus …` in a text. */
const quoted = (text: string): string[] => [...text.matchAll(/`(aureus [^`]*)`/g)].map((m) => m[1]!);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? sourceFiles(path.join(dir, d.name)) : d.name.endsWith('.ts') ? [path.join(dir, d.name)] : []));
}

describe('commands quoted by diagnostics', () => {
  it('every `aureus …` in a catalog message or hint names a real command with its options', async () => {
    const program = await commandTree();
    const bad: string[] = [];
    let seen = 0;
    for (const e of allCatalogEntries()) {
      for (const line of [...quoted(e.message), ...quoted(e.hint ?? '')]) {
        seen++;
        const p = problem(program, line);
        if (p) bad.push(`${e.code}: \`${line}\`: ${p}`);
      }
    }
    expect(seen).toBeGreaterThan(10);
    expect(bad).toEqual([]);
  });

  it('every `aureus …` in a hint written in src/ does too', async () => {
    const program = await commandTree();
    const bad: string[] = [];
    for (const file of sourceFiles(path.join(REPO_ROOT, 'src'))) {
      const text = fs.readFileSync(file, 'utf8').replaceAll('\\`', '`'); // a backtick escaped in a template literal
      // A hint given beside its code (diag(…, { hint })) or built as a string named hint.
      for (const m of text.matchAll(/\bhint\b[^\n]*/g)) {
        for (const line of quoted(m[0])) {
          const p = problem(program, line.replace(/\$\{[^}]*\}/g, 'X'));
          if (p) bad.push(`${path.relative(REPO_ROOT, file)}: \`${line}\`: ${p}`);
        }
      }
    }
    expect(bad).toEqual([]);
  });
});
