import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import type { ConfigOverrides } from '../../config/types.js';
import type { EpisodeRunSummary } from '../../pipeline/run-episode.js';
import { formatDiagnostics } from '../io.js';
import type { Diagnostic } from '../../diagnostics/index.js';
import { formatUsd } from '../../core/readable.js';

/** Options shared by `episode run` and `season run`. */
export interface RunFlags {
  season?: string;
  seed?: string;
  provider?: string;
  model?: string[];
  concurrency?: string;
  chaos?: string;
  maxCost?: string;
  cacheTtl?: string;
  commit?: boolean; // --no-commit sets false
  allowDirty?: boolean;
  resume?: boolean;
  json?: boolean;
}

export function addRunFlags(cmd: Command): Command {
  return cmd
    .option('--season <n>', 'season number (default: the season of the last committed episode, else 1)')
    .option('--seed <s>', 'run seed (default: derived from the previous cliffhanger, so a plain re-run resumes)')
    .option('--provider <id>', 'LLM provider: auto | offline | anthropic | anthropic:<model> | replay:<dir>')
    .option('--model <role=id>', 'model for a role (repeatable): director, writer, proposals, critic, recap, format_fix, escalation', (v: string, prev: string[] = []) => [...prev, v])
    .option('--concurrency <n>', 'LLM calls in flight (default from config, 4)')
    .option('--chaos <rate>', 'offline writer defect rate 0..1, to watch the verify/repair loop work')
    .option('--max-cost <usd>', 'stop before a call that could take the spend past this many US dollars (exit 5, nothing committed, resumable)')
    .option('--cache-ttl <ttl>', 'prompt cache TTL on the wire: 5m (default) or 1h (long season runs)')
    .option('--no-commit', 'run A–H but leave world/ and git untouched (output staged in the run folder)')
    .option('--allow-dirty', 'run even with uncommitted changes under world/, operators/, style/ or aureus.config.yaml')
    .option('--resume', 'continue an interrupted run (a plain re-run does too)')
    .option('--json', 'print one machine-readable summary on stdout (no progress output)');
}

export async function overridesFrom(f: RunFlags): Promise<ConfigOverrides> {
  const { parseProviderFlag, parseModelFlags, parseConcurrency, parseChaos, parseMaxCost, parseCacheTtl, parseSeedFlag } = await import('../../config/overrides.js');
  // --seed is no config override, but every run command parses its flags here, before any work.
  parseSeedFlag(f.seed);
  const o: ConfigOverrides = {};
  if (f.provider !== undefined) o.provider = parseProviderFlag(f.provider);
  if (f.model?.length) o.models = parseModelFlags(f.model);
  if (f.concurrency !== undefined) o.concurrency = parseConcurrency(f.concurrency);
  if (f.chaos !== undefined) o.chaos = parseChaos(f.chaos);
  if (f.maxCost !== undefined) o.maxCostUsd = parseMaxCost(f.maxCost);
  if (f.cacheTtl !== undefined) o.cacheTtl = parseCacheTtl(f.cacheTtl);
  return o;
}

/** The first notice of an episode run: resumable, unless the commit is under way (it is atomic and is finished first). */
export const RUN_NOTICE = { first: 'The run stays resumable.', again: 'Run the same command to resume.' };
export const COMMIT_NOTICE = 'The commit under way is atomic: it is finished first.';

/** What interruptSignal gives a command: the abort signal of the first Ctrl-C, and its tools. */
export interface Interrupt {
  /** Aborted by the first SIGINT or SIGTERM. */
  signal: AbortSignal;
  /** As if `sig` reached the process: a terminal's Ctrl-C that readline reads as a key, not a signal (play). */
  raise: (sig: NodeJS.Signals) => void;
  /**
   * Run `fn` as one step a second signal does not cut: that one quits (130) as soon as `fn` ends
   * instead of at once. For a step whose effect and its record must both be written or neither
   * (play's canonization: a commit its session log did not record would be applied again on resume).
   */
  critical: <T>(what: string, fn: () => Promise<T>) => Promise<T>;
  dispose: () => void;
}

/**
 * Ctrl-C (SIGINT) and SIGTERM during a run: the first one says so at once and aborts the run, which
 * stops at the next safe point, releases the lock and exits 130 with the run resumable; a second one
 * quits at once (still 130; the lock is released on exit, the checkpoints keep the run resumable),
 * or once the `critical` step in progress ends.
 */
export function interruptSignal(
  stderr: (text: string) => void = (t) => void process.stderr.write(t),
  /**
   * What the notices say comes next (a command that is not a resumable run: `aureus import`).
   * Either may be read when its signal comes: what to say may be known only then (play's session
   * id given by default once the session starts; an episode's commit under way, which is finished).
   */
  after: { first: string | (() => string); again: string | (() => string) } = RUN_NOTICE,
): Interrupt {
  const ac = new AbortController();
  let count = 0;
  let busy: string | null = null;
  let quitAfter = false;
  const onInt = (sig: NodeJS.Signals) => {
    count += 1;
    if (count > 1) {
      const again = typeof after.again === 'function' ? after.again() : after.again;
      if (busy !== null) {
        if (!quitAfter) stderr(`\naureus: interrupted again; quitting once ${busy} ends. ${again}\n`);
        quitAfter = true;
        return;
      }
      stderr(`\naureus: interrupted again; quitting now. ${again}\n`);
      process.exit(130);
    }
    const first = typeof after.first === 'function' ? after.first() : after.first;
    stderr(`\naureus: ${sig === 'SIGTERM' ? 'terminated' : 'interrupted'}; stopping at the next safe point (Ctrl-C again to quit now). ${first}\n`);
    ac.abort(new Error(sig));
  };
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onInt);
  return {
    signal: ac.signal,
    raise: onInt,
    critical: async (what, fn) => {
      const outer = busy;
      busy = what;
      try {
        return await fn();
      } finally {
        busy = outer;
        if (busy === null && quitAfter) process.exit(130);
      }
    },
    dispose: () => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onInt);
    },
  };
}

/**
 * What a run that ended well after an interrupt says after its summary: the interrupt came once
 * nothing was left to stop (the commit under way, which is atomic and finished first, or the last
 * step of a staged run), so the episode is committed and tagged (or staged) and nothing is left to
 * resume. The exit is 0: the command did all it was asked.
 */
export function finishedDespiteInterrupt(s: EpisodeRunSummary): string {
  const what = s.status === 'staged'
    ? `the run was finished first: ${s.episode} is staged in ${s.run_dir}`
    : `the commit was finished first: ${s.episode} is committed (${(s.commit ?? '').slice(0, 12)}) and tagged ${s.tag ?? ''}`;
  return `aureus: the interrupt came during the ${s.status === 'staged' ? 'last step' : 'commit'}; ${what}. Nothing is left to resume.\n`;
}

/** The warnings of a run as `--json` lists them. */
export const warningsJson = (warnings: Diagnostic[]): { code: string; message: string }[] => warnings.map((w) => ({ code: w.code, message: w.message }));

export function printWarnings(c: CommandContext, warnings: Diagnostic[]): void {
  if (warnings.length) c.io.stderr(formatDiagnostics(warnings, c.chalk).replace(/^\n/, ''));
}

/** The final summary: scenes, repairs, findings, tokens, cost, and the commit with its tag. */
export function renderSummary(s: EpisodeRunSummary, c: CommandContext): string {
  const ch = c.chalk;
  const lines: string[] = [];
  const head = s.status === 'committed' ? ch.green('✓ committed') : s.status === 'recovered' ? ch.cyan('✓ recovered') : ch.yellow('✓ staged (not committed)');
  lines.push(`${head} ${ch.bold(`${s.episode.toUpperCase()}: ${s.title}`)}`);
  lines.push(`  scenes    ${s.approved}/${s.scenes} approved, ${s.attempts} attempts, ${s.repairs} repairs${s.manual_review ? `, ${s.manual_review} for manual review` : ''}`);
  const fixed = s.findings.repaired;
  lines.push(`  findings  ${s.findings.hard} hard, ${s.findings.soft} soft${fixed.hard + fixed.soft ? ch.dim(` (and ${fixed.hard} hard, ${fixed.soft} soft in drafts repair replaced)`) : ''}`);
  // Cache writes are billed (more than plain input): left out, the line hid part of what the run paid for.
  const cacheTokens = `${s.tokens.cache_write ? `, cache write ${s.tokens.cache_write}` : ''}${s.tokens.cache_read ? `, cache read ${s.tokens.cache_read}` : ''}`;
  lines.push(`  tokens    ${s.tokens.input + s.tokens.output} (input ${s.tokens.input}, output ${s.tokens.output}${cacheTokens})`);
  // Answers from the response cache cost nothing now; the commit prices them as recorded, so the
  // line says both apart: a cached run must not look as if it had been charged.
  const fromCache = s.cached.answers ? ` charged; ${s.cached.answers} answer${s.cached.answers === 1 ? '' : 's'} from the cache (${formatUsd(s.cached.cost_usd)} when recorded)` : '';
  lines.push(`  cost      ${formatUsd(s.charged_usd)}${fromCache}  ${ch.dim(`provider ${s.provider}, seed ${s.seed}`)}`);
  if (s.commit) lines.push(`  commit    ${s.commit.slice(0, 12)}  tag ${ch.bold(s.tag ?? '')}`);
  if (s.resumed.planning || s.resumed.calls_replayed) lines.push(ch.dim(`  resumed   planning ${s.resumed.planning ? 'from checkpoint' : 'rerun'}, ${s.resumed.calls_replayed} LLM calls replayed from the run journal`));
  lines.push(`  script    ${s.script}`);
  return lines.join('\n') + '\n';
}
