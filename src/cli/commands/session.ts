import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { plural } from '../../core/readable.js';
import { printJson } from '../io.js';

/** `aureus session list|show`: the play sessions under .aureus/sessions/ (never the hidden briefs). */
export function registerSession(program: Command, ctx: () => CommandContext): void {
  const cmd = program
    .command('session')
    .description('list and show play sessions')
    .addHelpText('after', '\nExamples:\n  $ aureus session list                     every session, its principal, scene, turns and state\n  $ aureus session show cicero-001 --json   one session: transcript, proposals, notes, evaluation');
  cmd
    .command('list')
    .description('every play session: principal, scene, turns, state (a session whose log cannot be read: unreadable, and why)')
    .option('--json', 'print as JSON')
    .addHelpText('after', '\nExample:\n  $ aureus session list')
    .action(async (o: { json?: boolean }) => {
      const c = ctx();
      const { listSessions } = await import('../../play/sessions.js');
      const rows = listSessions(c.root);
      // An unreadable session is listed (marked, with its problem) and warned about on stderr, and the
      // listing still exits 0: it is complete, and `session show <id>` is the command that fails on it (exit 3).
      const bad = rows.filter((r) => r.state === 'unreadable');
      if (bad.length) {
        const { diag } = await import('../../diagnostics/index.js');
        const { formatDiagnostic } = await import('../io.js');
        const { sessionLogRel } = await import('../../play/store.js');
        for (const r of bad) c.io.stderr(formatDiagnostic(diag('AUR6204', { id: r.session, problem: r.problem }, { file: sessionLogRel(r.session) }), c.chalk));
      }
      if (o.json) return printJson(c.io, rows);
      if (!rows.length) return c.io.stdout('no play sessions yet (start one with `aureus play --as <id> --at <location> --with <ids>`)\n');
      for (const r of rows) {
        if (r.state === 'unreadable') c.io.stdout(`${r.session.padEnd(20)} unreadable: ${r.problem}\n`);
        else c.io.stdout(`${r.session.padEnd(20)} ${r.principal!.padEnd(10)} ${r.scene!.padEnd(6)} ${String(r.turns).padStart(3)} ${plural(r.turns!, 'turn').padEnd(5)}  ${r.state}\n`);
      }
    });
  cmd
    .command('show <id>')
    .description('the transcript, staged proposals, canonizations and evaluation of one session')
    .option('--json', 'print as JSON (the export: no brief)')
    .addHelpText('after', '\nExample:\n  $ aureus session show cicero-001')
    .action(async (id: string, o: { json?: boolean }) => {
      const c = ctx();
      const { showSession, renderSession } = await import('../../play/sessions.js');
      const s = showSession(c.root, id);
      if (o.json) printJson(c.io, s);
      else c.io.stdout(renderSession(s));
    });
}
