import fs from 'node:fs';
import { Command, CommanderError } from 'commander';
import { AureusError, ExitCode, isAureusError } from '../errors.js';
import { declareClosedPipePolicy, formatDiagnostics, makeChalk, processIo, redactingIo, type Io } from './io.js';
import { escapeControl } from '../diagnostics/sanitize.js';
import { printErrorJson } from './error-json.js';
import { resolveRoot, type CommandContext } from './context.js';
import { addCommonExitCodes, AureusCommand, commandBeingParsed, MissingInput, missingInputError, wantsJson } from './usage.js';
import { commandsNeeded, loadAllCommands, registerTable, rootOptionWords } from './commands/index.js';

/**
 * The CLI entry point and its single error boundary. Returns the exit code instead of calling
 * process.exit, so tests run it in-process. Expected failures (AureusError) print diagnostics
 * and a hint; anything else is a bug: one line unless AUREUS_DEBUG=1, then the stack.
 */
export async function main(argv: string[], rawIo: Io = processIo()): Promise<number> {
  const redacted = redactingIo(rawIo); // no secret is ever printed, whoever wrote the message
  // Whether the command has answered on stdout: a --json command that failed without answering gets
  // its error printed as JSON here; one that answered (season run's episodes, episode run's
  // warnings beside the error, play's `error` event ending its JSON Lines) is left as it is, so
  // stdout holds one error line either way.
  const answered = { stdout: false };
  const io: Io = { ...redacted, stdout: (t) => ((answered.stdout = true), redacted.stdout(t)) };
  let invoked: Command | undefined;
  const debug = io.env.AUREUS_DEBUG === '1';
  const noColorFlag = argv.includes('--no-color');
  const chalk = makeChalk(io, noColorFlag);
  const program: Command = new AureusCommand();
  program
    .name('aureus')
    .description('Aureus — a narrative compiler for serialized late-Republic political thrillers.\nTruth lives outside the LLM: symbolic code owns the world, models only propose and render.')
    .version(packageVersion(), '-V, --version', 'print the aureus version')
    .option('-C <dir>', 'run as if started in <dir> (the world repository)')
    .option('--no-color', 'disable colours (NO_COLOR is honoured too)')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr, outputError: (s, write) => write(chalk.red(s)) })
    .exitOverride();
  program.addHelpText(
    'after',
    `
Examples:
  $ aureus init my-world                 scaffold a world repository with the starter season kit
  $ aureus -C my-world validate          check every world file and reference
  $ aureus -C my-world episode run       compile the next episode (offline without ANTHROPIC_API_KEY)

Exit codes: 0 ok, 1 internal error, 2 usage, 3 invalid world or config, 4 verification failed,
5 repair budget exhausted, 6 no feasible plan, 7 provider error, 8 dirty world, 9 locked,
10 git error, 11 a write refused (permissions, read-only, full), 130 interrupted. See README.md.`,
  );

  // Commands that finish normally but with a non-zero code (validate finding problems) set exit.code.
  const exit = { code: ExitCode.OK as number };
  const ctxFor = (): CommandContext => {
    const dir = program.opts().C as string | undefined;
    const root = resolveRoot(io, dir);
    // As `git -C`: every relative path on the command line (--packet, --from, -o, import's folder…)
    // is taken from <dir>, not only the repository; before, some were taken from the shell's folder.
    return dir === undefined ? { io, root, chalk, debug, exit } : { io: { ...io, cwd: root }, root, chalk, debug, exit, shellCwd: io.cwd };
  };
  // Check -C before any action runs (resolveRoot throws a usage error for a non-directory).
  program.hook('preAction', async (_self, action) => {
    invoked = action;
    let top = action;
    const names = [action.name()];
    while (top.parent && top.parent !== program) (top = top.parent), names.unshift(top.name());
    declareClosedPipePolicy(names, action.opts());
    void resolveRoot(io, program.opts().C, { mayCreate: ['init', 'import'].includes(top.name()) });
    await warnFileCap(io, chalk);
  });
  helpOnStdoutWithoutCommand(program, io);
  try {
    await registerCommands(program, argv, ctxFor);
    for (const c of program.commands) {
      c.exitOverride().configureOutput(program.configureOutput());
      addCommonExitCodes(c);
    }
    await program.parseAsync(helpOfUnknownAsCommand(program, argv), { from: 'user' });
    return exit.code;
  } catch (e) {
    // A write the file system refused in a direct fs call (a run folder's mkdir): AUR1053, not a bug;
    // too many open files (`ulimit -n`): AUR1054.
    const { escapedWriteRefusal } = await import('../store/write-refusal.js');
    const { tooManyOpenFiles } = await import('../io/open-files.js');
    const failure = e instanceof MissingInput ? await missingInputError(e) : (noCommandWithBadRoot(e, io, program) ?? missingSubcommand(e, io, chalk, program, argv) ?? escapedWriteRefusal(e) ?? tooManyOpenFiles(e) ?? e);
    // Every command's --json failure has one shape, said once here: {"error": {message, exit_code,
    // codes}} on stdout, the diagnostics on stderr as without --json. Commander's usage errors (an
    // unknown flag) are found before any action runs and stay text, as they are for every command;
    // a missing option or argument (usage.ts), found before the action too, names its command.
    const json = wantsJson(e instanceof MissingInput ? e.command : (invoked ?? commandBeingParsed())) && !(failure instanceof CommanderError);
    if (json && !answered.stdout) printErrorJson(io, failure);
    return report(failure, io, chalk, debug);
  }
}

/**
 * `aureus` with no command: commander prints the help as an error (stderr) and ends with 0. Its help
 * is the answer asked for, as `aureus --help`'s is: on stdout, exit 0 (README, Exit codes). With a
 * -C that is no folder it stays the usage error it is (noCommandWithBadRoot): help on stderr, exit 2.
 */
function helpOnStdoutWithoutCommand(program: Command, io: Io): void {
  const help = program.help.bind(program);
  const rootIsFine = (): boolean => {
    try {
      resolveRoot(io, (program.opts() as { C?: string }).C);
      return true;
    } catch {
      return false;
    }
  };
  program.help = ((context?: { error: boolean }) => help(context?.error && rootIsFine() ? { error: false } : context)) as Command['help'];
}

/**
 * `aureus -C <missing>` (or `aureus -C validate`, the command taken as -C's folder) names no
 * command, so no action checks -C and commander ends with the help: the -C is still a usage error
 * (exit 2, README's exit codes), said after the help. A plain `aureus` still prints the help with 0.
 */
function noCommandWithBadRoot(e: unknown, io: Io, program: Command): unknown {
  const dir = (program.opts() as { C?: string }).C;
  if (!(e instanceof CommanderError) || e.code !== 'commander.help' || dir === undefined) return undefined;
  try {
    resolveRoot(io, dir);
    return undefined;
  } catch (bad) {
    return bad;
  }
}

/** The commands an argv names, from the program down (`episode`, `run`), and the words after them. */
function commandPath(program: Command, argv: string[]): { path: Command[]; rest: string[] } {
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const root = rootOptionWords(argv, i);
    if (root) i += root - 1;
    else if (a.startsWith('-')) break; // a command's own option: the path ends before it
    else words.push(a);
  }
  const path: Command[] = [program];
  let n = 0;
  for (; n < words.length; n++) {
    const sub = path.at(-1)!.commands.find((c) => c.name() === words[n] || c.aliases().includes(words[n]!));
    if (!sub) break;
    path.push(sub);
  }
  return { path, rest: words.slice(n) };
}

/**
 * `aureus help bogus` (or `aureus episode help bogus`) is parsed as `aureus bogus`: commander would
 * print the main help and exit 0, as if bogus were a command; now it is the unknown command it is
 * (exit 2, with commander's "did you mean" when a name is close). `help <command>` and `help help`
 * are unchanged; a word after either is refused (wordAfterHelpTopic).
 */
function helpOfUnknownAsCommand(program: Command, argv: string[]): string[] {
  const { path, rest } = commandPath(program, argv);
  const group = path.at(-1)!;
  const target = rest[1];
  const deeper = helpIntoGroup(group, argv, rest);
  if (deeper) return helpOfUnknownAsCommand(program, deeper);
  if (rest[0] !== 'help' || target === undefined || !group.commands.length) return argv;
  const known = group.commands.some((c) => c.name() === target || c.aliases().includes(target));
  // A word after a help topic, a command or `help` itself (`help help extra`: stripping one `help` made
  // it `help extra`, the main help with 0), is refused as `help season run extra` is.
  if ((known || target === 'help') && rest.length > 2) wordAfterHelpTopic(program, [...path.slice(1).map((c) => c.name()), target, rest[2]!]);
  if (known) return argv;
  const at = argv.lastIndexOf('help');
  return [...argv.slice(0, at), ...argv.slice(at + 1)];
}

/**
 * `aureus help season run extra`: commander printed `season run`'s help and ignored `extra` (exit
 * 0). No command is named so: refused as `help bogus` is, an unknown command (exit 2) with the
 * usage hint, the whole name said since the last word alone is no command anywhere.
 */
function wordAfterHelpTopic(program: Command, words: string[]): never {
  program.error(`error: unknown command '${words.join(' ')}'`, { exitCode: ExitCode.USAGE, code: 'commander.unknownCommand' });
}

/**
 * `aureus help season run`: commander's `help` takes one name and printed the season group's help
 * (exit 0, `run` ignored, so `help episode rn` too). Said as `aureus season help run`, whose help
 * commander gives (and whose unknown name the caller makes exit 2). Undefined when not that form.
 */
function helpIntoGroup(group: Command, argv: string[], rest: string[]): string[] | undefined {
  if (rest[0] !== 'help' || rest.length < 3) return undefined;
  const sub = group.commands.find((c) => c.name() === rest[1] || c.aliases().includes(rest[1]!));
  const at = argv.indexOf('help');
  if (!sub?.commands.length || argv[at + 1] !== rest[1]) return undefined;
  return [...argv.slice(0, at), rest[1]!, 'help', ...argv.slice(at + 2)];
}

/**
 * A command group named without its subcommand (`aureus episode`): commander prints the group's
 * help on stderr and ends with 'commander.help', which alone is an exit 0. It is a usage error
 * (exit 2, README): the help stays, a line after it says what is missing. A plain `aureus` (no
 * command at all) keeps its help with 0.
 */
function missingSubcommand(e: unknown, io: Io, chalk: ReturnType<typeof makeChalk>, program: Command, argv: string[]): CommanderError | undefined {
  if (!(e instanceof CommanderError) || e.code !== 'commander.help' || e.exitCode === 0) return undefined;
  const { path } = commandPath(program, argv);
  const group = path.at(-1)!;
  if (group === program || !group.commands.length) return undefined;
  const names = group.commands.map((c) => c.name()).filter((n) => n !== 'help');
  const message = `error: ${path.map((c) => c.name()).join(' ')} needs a command: ${names.join(', ')}`;
  io.stderr(chalk.red(message) + '\n');
  return new CommanderError(ExitCode.USAGE, 'commander.missingSubcommand', message);
}

/**
 * Only what this argv needs is imported: the command table for the top-level help, the named
 * command's modules for a command, every module when the argv names no known command.
 */
async function registerCommands(program: Command, argv: string[], ctxFor: () => CommandContext): Promise<void> {
  const needed = commandsNeeded(argv);
  if (needed === 'table') return registerTable(program);
  const registers = needed === 'all' ? await loadAllCommands() : await needed.load();
  for (const register of registers) register(program, ctxFor);
}

/** The version from package.json (next to dist/ and src/), read once at start. */
function packageVersion(): string {
  try {
    const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

function report(e: unknown, io: Io, chalk: ReturnType<typeof makeChalk>, debug: boolean): number {
  if (e instanceof CommanderError) {
    if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return ExitCode.OK;
    return e.exitCode === 0 ? ExitCode.OK : ExitCode.USAGE;
  }
  if (isAureusError(e)) {
    // Said once: a single error diagnostic already states the failure (code, place, message, hint),
    // so the summary line would only repeat it; several get a one-line summary after them.
    const errors = e.diagnostics.filter((d) => d.severity === 'error');
    const single = errors.length === 1 ? errors[0] : undefined;
    if (e.diagnostics.length) io.stderr(formatDiagnostics(e.diagnostics, chalk).replace(/^\n/, '') + (single ? '' : '\n'));
    if (!single) io.stderr(`${chalk.red('aureus:')} ${escapeControl(e.message)}\n`);
    if (e.hint && e.hint !== single?.hint) io.stderr(`${chalk.dim('hint:')} ${escapeControl(e.hint)}\n`);
    if (debug && e.stack) io.stderr(e.stack + '\n');
    return e.exitCode;
  }
  const err = e instanceof Error ? e : new Error(String(e));
  io.stderr(`${chalk.red('aureus: internal error:')} ${escapeControl(err.message)}\n`);
  io.stderr(debug && err.stack ? err.stack + '\n' : `${chalk.dim('This is a bug in aureus. Re-run with AUREUS_DEBUG=1 for the stack trace.')}\n`);
  return ExitCode.INTERNAL;
}

export { AureusError };

/**
 * An AUREUS_MAX_FILE_BYTES the store cannot use (store/file-cap.ts) is a warning before the command
 * runs, once, on stderr: the store itself falls back to the default cap deep in a read, unsaid.
 */
async function warnFileCap(io: Io, chalk: ReturnType<typeof makeChalk>): Promise<void> {
  // Loaded only when the variable is set: start-up does not load the diagnostics catalog for it.
  if (io.env.AUREUS_MAX_FILE_BYTES === undefined) return;
  const { fileCapSetting } = await import('../store/file-cap.js');
  const { warning } = fileCapSetting(io.env);
  if (warning) io.stderr(formatDiagnostics([warning], chalk).replace(/^\n/, ''));
}
