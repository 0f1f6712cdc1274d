import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { printJson } from '../io.js';

/** `aureus query`: structured questions to canon (world files and their git history). */
export function registerQuery(program: Command, ctx: () => CommandContext): void {
  program
    .command('query <kind> [arg]')
    .description('ask canon: character <id> | knows <secret_id> | debts [id] | history <path>')
    .option('--json', 'print as JSON')
    .addHelpText('after', `
Examples:
  $ aureus query character cicero           state, relations and the secrets they hold
  $ aureus query knows sec_caesar_debts     who holds a secret
  $ aureus query debts crassus              who owes whom
  $ aureus query history relationships.catiline.cicero.rivalry   every change, by episode or play turn`)
    .action(async (kind: string, arg: string | undefined, o: { json?: boolean }) => {
      const c = ctx();
      const { runQuery } = await import('../../play/sessions.js');
      const out = await runQuery(c.root, kind, arg);
      if (o.json) printJson(c.io, out);
      // World text (names, descriptions, git history) with its control characters shown, not obeyed.
      else c.io.stdout(renderPlain((await import('../../diagnostics/sanitize.js')).escapeControlIn(out)));
    });
}

function renderPlain(v: unknown, indent = ''): string {
  if (Array.isArray(v)) return v.length ? v.map((x) => `${indent}- ${renderPlain(x, indent + '  ').trimStart()}`).join('') : `${indent}(none)\n`;
  if (v && typeof v === 'object') return Object.entries(v).map(([k, x]) => (x && typeof x === 'object' ? `${indent}${k}:\n${renderPlain(x, indent + '  ')}` : `${indent}${k}: ${String(x)}\n`)).join('');
  return `${indent}${String(v)}\n`;
}
