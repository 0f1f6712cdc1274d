import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { AureusError, ExitCode } from '../../errors.js';
import { printErrorEvent } from '../error-json.js';

/** What `play --help` says after the options: how input works, examples, the exit codes. */
const PLAY_HELP = `
On a terminal: a line-editing prompt (history with ↑/↓).
Without a terminal: one turn per stdin line. Lines starting with / are commands (/help lists them).
Ctrl-C (or SIGTERM), on a terminal or not: the turn in progress ends, then the session pauses
(exit 130, resumable); a model call that has not begun to answer, or whose answer stalls, is
cancelled and its line answered on resume; a second Ctrl-C quits at once.

Examples:
  $ aureus play --as cicero --at forum --with catiline,crassus --turns 6
  $ aureus play --as cato --scene s01e01/SC03 --mode beat_gated
  $ printf 'Where were you last night?\\n/note Catiline lies about Faesulae\\n' | aureus play --as cicero --at forum --with catiline --json
  $ aureus play --resume cicero-001
  $ aureus play --resume cicero-001 --model writer=claude-haiku-5-5 --max-cost 0.50
  $ aureus cost --session cicero-001        the session's tokens and spend

Exit codes: 0 the scene complete, or paused by the end of the input, 2 usage, 3 invalid world, config, lexicon or
session log, 5 --max-cost reached (paused, resumable), 7 provider error (paused, resumable), 8 uncommitted world
changes, 9 the session or the world lock held, 10 git error, 130 interrupted (paused, resumable).`;

/** `aureus play`: the user plays a principal in a live scene (src/play/). Thin: options in, runPlay out. */
export function registerPlay(program: Command, ctx: () => CommandContext): void {
  program
    .command('play')
    .description('play a principal in a live scene; a hidden Director observes, briefs the other characters and canonizes')
    .option('--as <character_id>', 'the principal you play')
    .option('--scene <SCxx>', 'a scene of a planned or committed episode (SCxx or sNNeNN/SCxx)')
    .option('--at <location_id>', 'an improvised scene at this location')
    .option('--with <ids>', 'comma-separated characters on stage with you')
    .option('--mode <mode>', 'completion: open | beat_gated | turn_limited | objective', 'turn_limited')
    .option('--turns <n>', 'turn budget (turn_limited; the beat pace for the others)', '8')
    .option('--objective <key>', 'objective flag for --mode objective (e.g. accusation_made)')
    .option('--session <id>', 'session id (default <principal>-NNN)')
    .option('--seed <s>', 'seed of the offline provider (default: the session id)')
    .option('--resume <session>', 'continue a session from its last turn (its scene, principal, mode, turns and seed)')
    .option('--brief-budget <tokens>', "the Director's brief token budget (default: play.brief_budget in aureus.config.yaml, 500)")
    .option('--max-input <chars>', 'longest input line; longer lines are cut with a notice (default: play.max_input, 2000)')
    .option('--provider <id>', 'LLM provider: auto | offline | anthropic | anthropic:<model> | replay:<dir> (default: config)')
    .option('--model <role=id>', 'model for a role (repeatable): writer (the Actor), director (the beat classifier), …', (v: string, prev: string[] = []) => [...prev, v])
    .option('--max-cost <usd>', "stop before a call that could take the session's spend, over all its resumes, past this many US dollars (exit 5, paused, resumable)")
    .option('--json', 'one JSON event per line: chunk (a model line as it streams), message_complete, notice, canonized, episode_complete, done; error, last, if it fails after its first event')
    .addHelpText('after', PLAY_HELP)
    .action(async (o: Record<string, string | boolean | undefined>, cmd: Command) => {
      await refuseSceneFlagsOnResume(cmd);
      // `--resume ''` names no session: AUR7106, not the "needs --as" of a new session it was taken for.
      if (typeof o.resume === 'string') (await import('../../play/store.js')).checkSessionId(o.resume, 'read');
      const c = ctx();
      // Not a world: AUR1000 alone, before the world is loaded (whose error adds a validate hint).
      await (await import('../../pipeline/world-repo.js')).requireWorldRepo(c.root);
      const { runPlay } = await import('../../play/run.js');
      // With --json, a failure after the first event ends the stream with an `error` event; one
      // before it is left to the CLI's boundary, whose {"error": …} document is then the only line.
      // Either way one error line: the event is written to stdout, so the boundary prints nothing.
      let wrote = false;
      const stdout = (t: string) => ((wrote = true), c.io.stdout(t));
      // Ctrl-C and SIGTERM pause the session whatever the streams are (a terminal, a pipe, a script):
      // installed for the whole session (a resume's last turn included), removed when it ends.
      const { interruptSignal, printWarnings } = await import('./run-shared.js');
      const id = (o.resume ?? o.session) as string | undefined;
      // The session runPlay started or resumed (<principal>-NNN by default): an error event names it.
      let started: string | undefined;
      const named = () => (started === undefined ? {} : { session: started });
      // The id a session is given by default (no --session) is known once it starts: read at the second signal.
      const interrupt = interruptSignal(c.io.stderr, {
        first: 'The session stays resumable.',
        again: () => {
          const sid = started ?? id;
          return sid ? `Continue the session with \`aureus play --resume ${sid}\`.` : 'The session stays resumable (`aureus session list` names it).';
        },
      });
      try {
        c.exit.code = await runPlay(c.root, o as never, { stdout, stderr: c.io.stderr, input: process.stdin, output: process.stdout, terminal: Boolean(process.stdin.isTTY && process.stdout.isTTY), warnings: (list) => printWarnings(c, list), interrupt, session: (sid) => (started = sid) });
      } catch (e) {
        // Once the session has started the stream is the session's: its failure is an event naming it, even as its first line.
        if (o.json && (wrote || started !== undefined)) printErrorEvent(c.io, e, named());
        throw e;
      } finally {
        interrupt.dispose();
      }
      // Ctrl-C or SIGTERM paused the session (exit 130, its `done` event written): a failure for a reader all the same,
      // with the code an interrupted `episode run` or `season run` gives (AUR6008), as every other error event has one.
      if (o.json && c.exit.code === ExitCode.INTERRUPTED) {
        const { diag } = await import('../../diagnostics/index.js');
        // Interrupted before the session was made (while the world loaded), there is none to name.
        const which = started === undefined ? 'the session' : `session ${started}`;
        const diagnostics = [diag('AUR6008', { where: `the play ${which}` })];
        const how = started === undefined ? '`aureus play --resume <session>` (the `done` event names it)' : `\`aureus play --resume ${started}\``;
        printErrorEvent(c.io, new AureusError(`interrupted: ${which} is paused; ${how} continues it`, { exitCode: ExitCode.INTERRUPTED, diagnostics }), named());
      }
    });
}

/** What a session keeps from its start: with --resume these would be ignored, so they are refused. */
const KEPT_BY_SESSION = new Set(['as', 'scene', 'at', 'with', 'mode', 'turns', 'objective', 'session', 'seed']);

/**
 * `--resume` plays the scene the session started with (its principal, cast, mode, turn budget and
 * seed are in its log): a flag given to change one would do nothing, silently. A usage error
 * instead, before anything is read or written; --brief-budget, --max-input and --json still apply.
 */
async function refuseSceneFlagsOnResume(cmd: Command): Promise<void> {
  if (cmd.getOptionValue('resume') === undefined) return;
  const given = cmd.options.filter((opt) => KEPT_BY_SESSION.has(opt.attributeName()) && cmd.getOptionValueSource(opt.attributeName()) === 'cli');
  if (!given.length) return;
  const flag = given[0]!.long!;
  const { diag } = await import('../../diagnostics/index.js');
  throw new AureusError(`${flag} cannot be used with --resume`, {
    exitCode: ExitCode.USAGE,
    diagnostics: [
      diag('AUR7012', {
        option: flag,
        other: '--resume',
        reason: 'a session keeps the principal, scene, mode, turns and seed it started with',
        fix: `drop ${given.map((x) => x.long).join(', ')}; for other settings start a new session (aureus play --as <id> …)`,
      }),
    ],
  });
}
