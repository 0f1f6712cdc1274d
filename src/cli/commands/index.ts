import type { Command } from 'commander';
import type { CommandContext } from '../context.js';

/**
 * Each command lives in its own thin module: parse options, call the domain, print.
 * Heavy modules (SDKs, the pipeline) are imported lazily inside the action.
 */
export type RegisterCommand = (program: Command, ctx: () => CommandContext) => void;

/** Subcommands need the program's error handling too: main.ts only configures top-level commands. */
export function inheritErrorHandling(program: Command, sub: Command): Command {
  return sub.exitOverride().configureOutput(program.configureOutput());
}

/**
 * The command table: what the top-level help lists (name, its usage term, its description) and how
 * to load the modules that register it. Start-up imports only this file: `aureus --help` builds
 * the listing from the table, and `aureus episode run` imports the `episode` group's modules only
 * (issue 18: ESM loading of every command module was most of `--help`'s cost).
 * test/cli/command-table.test.ts checks that the table says what the real registrations say.
 */
export interface CommandEntry {
  name: string;
  /** The term commander prints for the fully registered command: `name [options] <args>`. */
  term: string;
  description: string;
  /** The register functions of the command, in registration order (a group's subcommands in order). */
  load: () => Promise<RegisterCommand[]>;
}

export const commandTable: CommandEntry[] = [
  { name: 'init', term: 'init [options] <dir>', description: 'create a world repository with the starter season kit, a .gitignore, git init and a first commit', load: async () => [(await import('./init.js')).registerInit] },
  { name: 'validate', term: 'validate [options]', description: 'check every world file, reference, expression and the config; print all diagnostics grouped by file', load: async () => [(await import('./validate.js')).registerValidate] },
  { name: 'import', term: 'import', description: 'build a world repository from external data (DPRR) or a synthetic generator', load: async () => [(await import('./import.js')).registerImport] },
  { name: 'cost', term: 'cost [options] [episode]', description: "print an episode's LLM tokens and cost per role (from its run_log.jsonl)", load: async () => [(await import('./cost.js')).registerCost] },
  {
    name: 'scene',
    term: 'scene',
    description: 'work on single scenes',
    load: async () => [(await import('./scene-verify.js')).registerSceneVerify, (await import('./scene-review.js')).registerSceneReview],
  },
  {
    name: 'episode',
    term: 'episode',
    description: 'plan and compile episodes',
    load: async () => [
      (await import('./episode-plan.js')).registerEpisodePlan,
      (await import('./episode-run.js')).registerEpisodeRun,
      (await import('./episode-review.js')).registerEpisodeReview,
    ],
  },
  { name: 'season', term: 'season', description: 'season workflow: compile several episodes in a row', load: async () => [(await import('./season.js')).registerSeason] },
  { name: 'status', term: 'status [options]', description: "the season dashboard: date, metrics, threads with cadence status, principals' standing, tension sparkline", load: async () => [(await import('./status.js')).registerStatus] },
  { name: 'recap', term: 'recap [options] [episode]', description: 'print an episode\'s recap: "Previously on…" and the state dashboard (default: the latest episode)', load: async () => [(await import('./recap.js')).registerRecap] },
  { name: 'diff', term: 'diff [options] <from> <to>', description: 'semantic world diff between two episodes (tags) or git refs: money, holdings, characters, secrets, relationships, threads', load: async () => [(await import('./diff.js')).registerDiff] },
  { name: 'branch', term: 'branch [options] <name>', description: 'start a what-if season: a new git branch at an episode, checked out (optionally with world changes)', load: async () => [(await import('./branch.js')).registerBranch] },
  { name: 'rollback', term: 'rollback [options] <episode>', description: "revert an episode's commit and every later one (git revert, history kept), restoring the world", load: async () => [(await import('./rollback.js')).registerRollback] },
  { name: 'export', term: 'export [options] <episode>', description: 'export a committed episode as a Fountain screenplay, markdown, or a self-contained HTML report', load: async () => [(await import('./export.js')).registerExport] },
  { name: 'play', term: 'play [options]', description: 'play a principal in a live scene; a hidden Director observes, briefs the other characters and canonizes', load: async () => [(await import('./play.js')).registerPlay] },
  { name: 'session', term: 'session', description: 'list and show play sessions', load: async () => [(await import('./session.js')).registerSession] },
  { name: 'query', term: 'query [options] <kind> [arg]', description: 'ask canon: character <id> | knows <secret_id> | debts [id] | history <path>', load: async () => [(await import('./query.js')).registerQuery] },
  { name: 'note', term: 'note [options] <text>', description: "leave a note for the next episode's Director (seasons/season_NN/notes.json)", load: async () => [(await import('./note.js')).registerNote] },
];

/** Every command's register functions, in the table's order (what a full registration uses). */
export async function loadAllCommands(): Promise<RegisterCommand[]> {
  return (await Promise.all(commandTable.map((e) => e.load()))).flat();
}

/**
 * How many words of argv at `i` are the program's own options (`-C <dir>`, `-C<dir>`,
 * `--no-color`), which stand before a command and name none: 0 when the word is not one.
 */
export function rootOptionWords(argv: readonly string[], i: number): number {
  const a = argv[i]!;
  if (a === '-C') return 2;
  return a === '--no-color' || (a.startsWith('-C') && a.length > 2) ? 1 : 0;
}

/**
 * Which commands an argv needs: 'table' when it names none (`--help`, `--version`, no arguments,
 * `help`), the one entry it names, or 'all' when it cannot tell (an unknown word or option, a help
 * flag before the command) — commander then sees every real command, and its errors and
 * suggestions are exactly those of a full registration.
 */
export function commandsNeeded(argv: string[]): 'table' | 'all' | CommandEntry {
  const byName = (n: string | undefined) => commandTable.find((e) => e.name === n);
  let sawHelpFlag = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const root = rootOptionWords(argv, i);
    if (root) { i += root - 1; continue; }
    if (['-h', '--help', '-V', '--version'].includes(a)) { sawHelpFlag = true; continue; }
    if (a.startsWith('-')) return 'all';
    if (sawHelpFlag) return 'all';
    if (a === 'help') {
      const next = argv[i + 1];
      if (next === undefined) return 'table';
      return byName(next) ?? 'all';
    }
    return byName(a) ?? 'all';
  }
  return 'table';
}

/** Register the table's entries as bare commands for the top-level help listing only. */
export function registerTable(program: Command): void {
  const terms = new Map<Command, string>();
  for (const e of commandTable) terms.set(program.command(e.name).description(e.description), e.term);
  const help = program.createHelp();
  program.configureHelp({ subcommandTerm: (cmd) => terms.get(cmd) ?? help.subcommandTerm(cmd) });
}
