import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import type { RegisterCommand } from './index.js';
import type { SceneVerification } from '../../stages/f-verifier/verify.js';
import type { LoadedLexicon } from '../../stages/f-verifier/load.js';
import type { Diagnostic } from '../../diagnostics/index.js';
import type { Finding } from '../../domain/scene.js';

/** `scene verify --help`'s text after the options: exit codes, where a run's files are, examples (test/cli/scene-verify-help.test.ts runs them). */
const VERIFY_HELP = `
Exit codes: 0 the scene passes (soft findings are warnings), 4 a hard finding fired,
2 a file cannot be read, 3 the packet is not a scene packet or the scene is not UTF-8.
Inside a world repository (-C <dir>) the world is used as the pipeline uses it (characters,
travel, canon, operators);
beside a run folder's episode_plan.json (../episode_plan.json) the plan's prerequisite checks too.

Where the files are: a committed episode keeps its packets and drafts in
seasons/season_NN/episode_NN/packets/ and drafts/; a run not committed (--no-commit, --review,
interrupted) in its folder .aureus/runs/<sNNeNN>-<seed>[-<steering8>]-<hash8>/: checkpoints/planning/packets/
and drafts/ (the shell's * stands for the hash).

Examples:
  $ aureus scene verify --packet seasons/season_01/episode_01/packets/SC04.json --scene seasons/season_01/episode_01/drafts/SC04.1.txt
  $ aureus scene verify --packet .aureus/runs/s01e01-7-*/checkpoints/planning/packets/SC04.json --scene .aureus/runs/s01e01-7-*/drafts/SC04.1.txt
  $ aureus -C my-world scene verify --packet SC04.json --scene SC04.txt --json`;

/**
 * `aureus scene verify --packet <packet.json> --scene <scene.txt> [--json]`: the deterministic
 * verifier on one writer output. A stable interface (README "scene verify"): exit 0 when no hard
 * finding fires, 4 when one does.
 */
export const registerSceneVerify: RegisterCommand = (program: Command, ctx: () => CommandContext) => {
  const scene = program.commands.find((c) => c.name() === 'scene') ?? program
      .command('scene')
      .description('work on single scenes')
      .addHelpText(
        'after',
        `
Examples:
  $ aureus scene verify --packet SC04.json --scene SC04.txt              verify one writer output
  $ aureus -C my-world scene verify --packet seasons/season_01/episode_01/packets/SC04.json --scene seasons/season_01/episode_01/drafts/SC04.1.txt --json`,
      );
  scene
    .command('verify')
    .description("run the verifier's deterministic rules on one writer output")
    .requiredOption('--packet <file>', 'the scene packet (packets/SCxx.json)')
    .requiredOption('--scene <file>', 'the raw writer output (---SCENE_TEXT--- / ---CLAIMS--- / ---SCENE_EVENTS---)')
    .option('--lexicon <file>', 'lexicon (JSON or markdown); default: style/lexicon.md of the world, else the one shipped with aureus')
    .option('--json', 'print the verdict and findings as JSON')
    // Subcommands are created before main() wires the top-level ones: wire this one here.
    .exitOverride()
    .configureOutput(program.configureOutput())
    .addHelpText('after', VERIFY_HELP)
    .action(async (o: { packet: string; scene: string; lexicon?: string; json?: boolean }) => {
      const c = ctx();
      const path = await import('node:path');
      const { readPacket, readTextFile, resolveLexicon, loadWorldContext, loadPlanPrereqs } = await import('../../stages/f-verifier/load.js');
      const { verifySceneOutput } = await import('../../stages/f-verifier/verify.js');
      const { ExitCode } = await import('../../errors.js');
      const { formatDiagnostics, printJson } = await import('../io.js');
      const packetFile = path.resolve(c.io.cwd, o.packet);
      const packet = readPacket(packetFile);
      const raw = readTextFile(path.resolve(c.io.cwd, o.scene), 'scene');
      const lex = resolveLexicon(c.root, o.lexicon ? path.resolve(c.io.cwd, o.lexicon) : undefined);
      const { loadConfigOrThrow } = await import('../../config/index.js');
      const min_scene_words = loadConfigOrThrow(c.root).config.verifier.min_scene_words;
      const warnings: Diagnostic[] = [];
      const v = verifySceneOutput(raw, { ...loadWorldContext(c.root, warnings), packet, lexicon: lex.entries, prereqs: loadPlanPrereqs(packetFile, warnings), min_scene_words });
      if (warnings.length) c.io.stderr(formatDiagnostics(warnings, c.chalk).replace(/^\n/, ''));
      const verdict = v.hard ? 'FAIL' : 'PASS';
      if (v.hard) c.exit.code = ExitCode.VERIFY_FAILED;
      if (o.json) {
        printJson(c.io, {
          scene: packet.scene_id,
          verdict,
          findings: v.findings,
          accepted_claims: v.accepted_claims,
          downgraded_claims: v.downgraded_claims,
          rejected_claims: v.rejected_claims,
          normalisations: v.normalisations,
          form_errors: v.form_errors,
          lexicon: { source: lex.source, file: lex.file, entries: lex.entries.length },
          warnings: warnings.map((w) => ({ code: w.code, message: w.message, file: w.file })),
        });
        return;
      }
      const { spanPlace } = await import('../../pipeline/finding-place.js');
      c.io.stdout(renderVerification(v, { file: o.scene, place: (f) => spanPlace(raw, f), scene: packet.scene_id, lex, root: c.root, chalk: c.chalk }));
    });
};

/** The human-readable report: findings with their spans and fixes, what was normalised, the verdict, the lexicon used. */
function renderVerification(v: SceneVerification, o: { file: string; place: (f: Finding) => { line: number; column: number } | null; scene: string; lex: LoadedLexicon; root: string; chalk: CommandContext['chalk'] }): string {
  const ch = o.chalk;
  let out = '';
  for (const f of v.findings) {
    const sev = f.severity === 'hard' ? ch.red('hard') : ch.yellow('soft');
    // A finding that knows its word (span.at: a JSON slip, an anachronism, a sum overspent) gives its column too.
    const p = f.span?.at !== undefined ? o.place(f) : null;
    const where = f.span ? `:${p?.line ?? f.span.line}${p ? `:${p.column}` : ''}` : '';
    out += `${o.file}${where}: ${sev} ${ch.dim(f.code)} ${f.message}\n`;
    if (f.span) out += `  ${ch.dim('>')} ${f.span.text}\n`;
    out += `  ${ch.dim('fix:')} ${f.fix}\n`;
  }
  // How the answer's form was read (issue 13): shown, never silent.
  for (const n of v.normalisations) out += `${ch.dim('read:')} ${n.what} ${ch.dim(`(${n.code}: ${n.why})`)}\n`;
  const hard = v.findings.filter((f) => f.severity === 'hard').length;
  const soft = v.findings.length - hard;
  out += `${o.scene}: ${v.hard ? ch.red('FAIL') : ch.green('PASS')} (${hard} hard, ${soft} soft finding${soft === 1 ? '' : 's'}; claims: ${v.accepted_claims.length} accepted, ${v.downgraded_claims.length} downgraded, ${v.rejected_claims.length} rejected)\n`;
  const lex = o.lex;
  const lexWhat = lex.source === 'option' ? '--lexicon' : lex.source === 'world' ? "the world's" : `aureus's default, no style/lexicon.md in ${o.root}`;
  out += `${ch.dim('lexicon:')} ${lex.file} (${lex.entries.length} entries; ${lexWhat})\n`;
  return out;
}
