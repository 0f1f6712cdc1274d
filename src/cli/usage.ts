import { Command, type Option } from 'commander';
import type { AureusError } from '../errors.js';

/**
 * A missing option or argument, for every command: commander's own checks (a required `<arg>`, a
 * `.requiredOption`, an option given without its value) printed plain text with no code, and
 * nothing on stdout under --json. Every command is an AureusCommand (createCommand makes the
 * subcommands), whose checks throw MissingInput instead; the CLI's error boundary (main.ts) turns it
 * into AUR7011 (exit 2), with the one-line {"error": …} document under --json. Only commander's
 * unknown command or flag stays text alone (README, Diagnostic codes).
 */
export class MissingInput extends Error {
  constructor(
    /** The command whose input is missing (its --json decides the answer's form). */
    readonly command: Command,
    /** What it needs, as the help writes it: `--packet <file>`, `the argument <dir>`. */
    readonly needed: string,
  ) {
    super(`${commandPath(command)} needs ${needed}`);
  }
}

/** `aureus import synthetic`: the command's name with its parents'. */
export function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/**
 * The command whose options commander parsed last, and the words it parsed. An option's parser that
 * throws (`episode plan --episode abc`) does so before preAction names the command, and before
 * commander has read a later `--json`: main.ts asks wantsJson() to answer such a failure in JSON too.
 */
let parsing: { command: Command; args: string[] } | undefined;

/** Whether the failed command line asked for --json: the command has a --json flag and its words hold it. */
export function wantsJson(command: Command | undefined): boolean {
  if (!command) return false;
  if (command.opts().json === true) return true;
  if (parsing?.command !== command || !command.options.some((o) => o.long === '--json')) return false;
  const end = parsing.args.indexOf('--');
  return (end < 0 ? parsing.args : parsing.args.slice(0, end)).includes('--json');
}

/** The command being parsed when the parse threw (see `parsing`). */
export function commandBeingParsed(): Command | undefined {
  return parsing?.command;
}

export class AureusCommand extends Command {
  override createCommand(name?: string): Command {
    return new AureusCommand(name);
  }
  override parseOptions(args: string[]): { operands: string[]; unknown: string[] } {
    parsing = { command: this, args };
    refuseFlagAsValue(this, args);
    return super.parseOptions(args);
  }
  // Overrides of commander's (untyped) reporters: each is called where commander found the input missing.
  missingArgument(name: string): never {
    throw new MissingInput(this, `the argument <${name}>`);
  }
  optionMissingArgument(option: Option): never {
    throw new MissingInput(this, `a value after ${option.flags.split(/[ ,]+/).filter((f) => f.startsWith('-')).pop() ?? option.flags} (${option.flags})`);
  }
  missingMandatoryOptionValue(option: Option): never {
    throw new MissingInput(this, option.flags);
  }
}

/**
 * An option given without its value took the next flag as it (`episode run --seed --json` committed
 * an episode seeded "--json"): for every option that takes a value, a separate next word that begins
 * with `--` is refused as the missing value it is (AUR7011). Said with `=` (`--seed=--x`) the value
 * is taken literally; a value with one dash (`--delta -3`) is still a value. Walks the words as
 * commander's parseOptions does: a known option's value is skipped, `--` ends the options.
 */
function refuseFlagAsValue(cmd: Command, args: string[]): void {
  const find = (flag: string): Option | undefined => (cmd as unknown as { _findOption(f: string): Option | undefined })._findOption(flag);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return;
    const option = arg.startsWith('-') ? find(arg) : undefined;
    if (!option?.required) continue;
    const value = args[i + 1];
    if (value?.startsWith('--')) throw new MissingInput(cmd, `a value after ${arg} (${option.flags}), not the flag ${value} (a value that begins with -- is given as ${option.long ?? arg}=${value})`);
    i++;
  }
}

/** MissingInput as the usage error it is: AUR7011, exit 2, its usage line as the hint. */
export async function missingInputError(e: MissingInput): Promise<AureusError> {
  const [{ AureusError, ExitCode }, { diag }] = await Promise.all([import('../errors.js'), import('../diagnostics/index.js')]);
  const command = commandPath(e.command);
  const example = `usage: ${command} ${e.command.usage()} (see ${command} --help)`;
  return new AureusError(e.message, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7011', { command, needed: e.needed, example })] });
}

/**
 * The end of every runnable command's --help: the exit codes any command can give, whatever its own
 * "Exit codes:" line lists (that line names the ones its work gives), and where the rest are. Said
 * once here, so no command's help claims a shorter list than it can really give (`validate` listed
 * 0 and 3, and exits 2 for -C to a missing folder and 11 when its output cannot be written).
 */
export const COMMON_EXIT_CODES = `
Any command exits 2 on a usage error (a bad flag or argument, -C to a missing folder), 11 when
the file system refuses a write (standard output included), 130 when interrupted, 1 on a bug;
every code and its causes: README.md, "Exit codes".`;

/** Add COMMON_EXIT_CODES after the help of every runnable command under `cmd` (groups print their subcommands instead). */
export function addCommonExitCodes(cmd: Command): void {
  if (cmd.commands.length === 0) cmd.addHelpText('after', COMMON_EXIT_CODES);
  for (const sub of cmd.commands) addCommonExitCodes(sub);
}
