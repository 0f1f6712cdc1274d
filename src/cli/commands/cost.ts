import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import type { RegisterCommand } from './index.js';
import { formatUsd } from '../../core/readable.js';
import { compareText } from '../../core/text-order.js';
import { printJson } from '../io.js';

/** `aureus cost [episode]`: tokens and cost per role from an episode's run_log.jsonl. */
export const registerCost: RegisterCommand = (program: Command, ctx: () => CommandContext) => {
  program
    .command('cost [episode]')
    .description("print an episode's LLM tokens and cost per role (from its run_log.jsonl)")
    .option('--session <id>', "a play session's calls instead of an episode's (`aureus session list` names them)")
    .option('--json', 'print the totals as JSON')
    .addHelpText(
      'after',
      `
[episode] is s01e03, an episode or run folder, or a run_log.jsonl; default: the latest episode.
A replayed call counts the tokens and cost of the call it replays, so a recorded run and its replay
report the same figures. A malformed line is an error (exit 3): a total that skipped it would be wrong.

Examples:
  $ aureus cost                     the latest committed episode
  $ aureus cost s01e03 --json
  $ aureus cost .aureus/runs/s01e04-7-1a2b3c4d   a run that has not been committed
  $ aureus cost --session cicero-001    a play session's calls, over all its resumes`,
    )
    .action(async (episode: string | undefined, o: { json?: boolean; session?: string }) => {
      const c = ctx();
      // Not a world: AUR1000 (exit 3), as episode run says it, not that no run log was found (exit 2).
      (await import('../../store/load.js')).requireWorldFolder(c.root);
      const { costReport } = await import('../../providers/cost-report.js');
      const { formatDiagnostics } = await import('../io.js');
      const report = costReport(c.root, o.session === undefined ? episode : await sessionRunLog(c.root, o.session, episode));
      if (report.diagnostics.length) c.io.stderr(formatDiagnostics(report.diagnostics, c.chalk));
      const { per_role, per_model, total } = report.summary;
      if (o.json) {
        printJson(c.io, { file: report.file, per_role, per_model, total });
        return;
      }
      const header = ['role', 'calls', 'cached', 'input', 'output', 'cache write', 'cache read', 'cost USD'];
      const rows: string[][] = [];
      const row = (name: string, t: typeof total) => [
        name,
        String(t.calls),
        String(t.cached),
        String(t.input_tokens),
        String(t.output_tokens),
        String(t.cache_write_tokens),
        String(t.cache_read_tokens),
        formatUsd(t.cost_usd).slice(1),
      ];
      for (const role of ['proposals', 'director', 'writer', 'format_fix', 'critic', 'recap'] as const) {
        const t = per_role[role];
        if (t) rows.push(row(role, t));
      }
      rows.push(row('total', total));
      const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
      const fmt = (r: string[]) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
      let out = `${c.chalk.bold(report.file)}\n${c.chalk.dim(fmt(header))}\n`;
      rows.forEach((r, i) => (out += (i === rows.length - 1 ? c.chalk.bold(fmt(r)) : fmt(r)) + '\n'));
      const models = Object.entries(per_model).sort(([a], [b]) => compareText(a, b));
      if (models.length) out += c.chalk.dim(`models: ${models.map(([m, t]) => `${m} ${t.calls} call${t.calls === 1 ? '' : 's'}`).join(', ')}`) + '\n';
      c.io.stdout(out);
    });
};

/** The run log of play session `id` (src/play/accounting.ts): the session must exist and have made a call. */
async function sessionRunLog(root: string, id: string, episode: string | undefined): Promise<string> {
  const { AureusError, ExitCode } = await import('../../errors.js');
  const { diag } = await import('../../diagnostics/index.js');
  if (episode !== undefined) {
    throw new AureusError(`--session cannot be used with an episode (${episode})`, {
      exitCode: ExitCode.USAGE,
      diagnostics: [diag('AUR7012', { option: '--session', other: `the episode ${episode}`, reason: 'a session is not an episode', fix: `drop ${episode} to see the session, or --session to see the episode` })],
    });
  }
  const { fileSessionStore } = await import('../../play/store.js');
  const { sessionRunLogRel } = await import('../../play/accounting.js');
  const store = fileSessionStore(root);
  if (!store.exists(id)) throw new AureusError(`no session ${id}`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7108', { id })] });
  const rel = sessionRunLogRel(id);
  const fs = await import('node:fs');
  const path = await import('node:path');
  if (!fs.existsSync(path.join(root, rel))) {
    throw new AureusError(`no run log at ${rel}`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR4401', { file: rel }, { hint: 'a session played before aureus recorded its calls has none; its next turn (aureus play --resume) starts one' })] });
  }
  return rel;
}
