import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import type { Finding } from '../../domain/scene.js';
import type { Place } from '../../pipeline/finding-place.js';
import { inheritErrorHandling, type RegisterCommand } from './index.js';
import { requireLiveReview, requireWorldRepo, underReview } from './review-shared.js';
import type { ChildProcess } from 'node:child_process';
import type { Interrupt } from './run-shared.js';
import { printJson } from '../io.js';

/**
 * `aureus scene rewrite|edit|pin|unpin <SCxx>` on the episode staged by `episode run --review`
 * (issue 16). Each one changes the staged scenes and stages the episode again.
 */
function sceneGroup(program: Command): Command {
  return program.commands.find((c) => c.name() === 'scene') ?? program.command('scene').description('work on single scenes');
}

/**
 * Findings as `scene verify` prints them: where (the file the author edits, line:column), the
 * quoted line, the fix. `place` finds a finding in that file (pipeline/finding-place.ts).
 */
function printFindings(c: CommandContext, findings: Finding[], place: (f: Finding) => Place | null): void {
  for (const f of findings) {
    const p = place(f);
    const where = p ? `${p.file}:${p.line}:${p.column}: ` : f.span ? `line ${f.span.line}: ` : '';
    c.io.stdout(`  ${where}${f.severity === 'hard' ? c.chalk.red('hard') : c.chalk.yellow('soft')} ${c.chalk.dim(f.code)} ${f.message}\n`);
    if (f.span) c.io.stdout(`    ${c.chalk.dim('>')} ${f.span.text}\n`);
    if (f.fix) c.io.stdout(`    ${c.chalk.dim('fix:')} ${f.fix}\n`);
  }
}

/** A finding of a staged scene, placed in the author's --from file when its line is there, else in the staged script. */
async function placer(c: CommandContext, scene: string, rawFile: string, from?: { file: string; text: string }): Promise<(f: Finding) => Place | null> {
  const { spanPlace, stagedFindingPlace } = await import('../../pipeline/finding-place.js');
  const { requireReview } = await import('../../pipeline/review-state.js');
  const review = requireReview(c.root);
  return (f) => {
    const mine = from ? spanPlace(from.text, f) : null;
    return mine ? { file: from!.file, ...mine } : stagedFindingPlace(c.root, review, scene, f, rawFile);
  };
}

export const registerSceneReview: RegisterCommand = (program: Command, ctx: () => CommandContext) => {
  const scene = sceneGroup(program);
  const wire = (cmd: Command) => inheritErrorHandling(program, cmd);

  wire(scene.command('rewrite <scene>')
    .description('regenerate one staged scene (a new Writer call, never a replay), with a note for the Writer')
    .option('--note <text>', "the showrunner's note, added to the Writer's instructions")
    .option('--json', 'print the result as JSON')
    .addHelpText('after', `
The scene is written anew, verified and, if it fails, repaired within the per-scene budget. If no
draft passes, the scene keeps its previous text (exit 4, findings shown; every draft is kept in the
run folder's drafts/). A pinned scene is refused.

Examples:
  $ aureus scene rewrite SC05 --note "Make Cato colder; end on the door closing."
  $ aureus scene rewrite sc5 --json`))
    .action(async (id: string, o: { note?: string; json?: boolean }) => {
      const c = ctx();
      const { result } = await rewriteUnderInterrupt(c, id, o.note);
      if (o.json) printJson(c.io, result);
      else if (result.adopted) c.io.stdout(`${c.chalk.green('✓')} ${result.scene} rewritten (${result.attempts.length} draft${result.attempts.length === 1 ? '' : 's'}) and staged\n`);
      else {
        c.io.stdout(`${c.chalk.red('✗')} no rewrite of ${result.scene} passed verification; the scene keeps its previous text\n`);
        // The failed drafts are not in the script: their lines are the drafts' (line N).
        printFindings(c, result.findings, () => null);
      }
      if (!result.adopted) c.exit.code = 4;
    });

  wire(scene.command('edit <scene>')
    .description("replace one staged scene with your text (opens $EDITOR without --from)")
    .option('--from <file>', 'read the new scene from this file (the prose alone, or the three sections of a Writer answer)')
    .option('--json', 'print the verdict and findings as JSON')
    .addHelpText('after', `
The file holds the scene text (the claims and events of the scene are kept), or all three sections
---SCENE_TEXT---, ---CLAIMS---, ---SCENE_EVENTS--- as a Writer answers. It is parsed and verified
like a model's answer and recorded as yours (author: human, in the verifier report and in the
provenance of every change the scene makes). A hard finding is kept and shown (exit 4):
\`episode commit\` refuses until the scene is fixed. A pinned scene is refused.

Examples:
  $ aureus scene edit SC03 --from sc03.txt
  $ EDITOR=nano aureus scene edit SC03`))
    .action(async (id: string, o: { from?: string; json?: boolean }) => {
      const c = ctx();
      await requireWorldRepo(c);
      const text = o.from !== undefined ? await readEditFile(c, o.from) : await editInEditor(c, id);
      if (text === null) {
        c.io.stdout('no change\n');
        return;
      }
      const { editScene } = await import('../../pipeline/scene-ops.js');
      const { result } = await underReview(c, 'scene edit', (world) => editScene(c.root, world, id, text));
      const a = result.attempt;
      if (o.json) printJson(c.io, { scene: result.scene, verdict: a.verdict, author: 'human', raw_file: a.raw_file, findings: a.findings });
      else {
        c.io.stdout(`${a.verdict === 'PASS' ? c.chalk.green('✓') : c.chalk.red('✗')} ${result.scene} replaced by your text (${a.raw_file})${a.verdict === 'PASS' ? '' : '; it breaks a check, `episode commit` will refuse it'}\n`);
        printFindings(c, a.findings, await placer(c, result.scene, a.raw_file, o.from !== undefined ? { file: o.from, text } : undefined));
      }
      if (a.verdict !== 'PASS') c.exit.code = 4;
    });

  for (const [name, pinned] of [['pin', true], ['unpin', false]] as const) {
    wire(scene.command(`${name} <scene>`)
      .description(pinned ? 'keep a staged scene exactly as it is: rewrites and edits refuse it' : 'release a pinned scene')
      .addHelpText('after', `\nExamples:\n  $ aureus scene ${name} SC07`))
      .action(async (id: string) => {
        const c = ctx();
        const { setPinned } = await import('../../pipeline/scene-ops.js');
        await requireLiveReview(c);
        const sc = setPinned(c.root, id, pinned);
        c.io.stdout(`${c.chalk.green('✓')} ${sc} ${pinned ? 'pinned' : 'unpinned'}\n`);
      });
  }
};

/**
 * `scene rewrite` under the CLI's interrupt handler: Ctrl-C (or SIGTERM) aborts the Writer's call,
 * and the rewrite ends with AUR6008 (exit 130), the scene keeping its text (pipeline/scene-rewrite.ts).
 * Once the rewrite is recorded, the staging after it is not cut: a failure of it after the signal
 * (a git the Ctrl-C stopped) is the interrupt too, said with what is kept.
 */
async function rewriteUnderInterrupt(c: CommandContext, rawId: string, note: string | undefined) {
  const { rewriteScene } = await import('../../pipeline/scene-rewrite.js');
  const { interruptSignal } = await import('./run-shared.js');
  const done = { scene: null as string | null };
  const intr = interruptSignal(c.io.stderr, {
    first: () => (done.scene ? `The rewrite of ${done.scene} is recorded; it is staged first.` : 'The rewrite stops; the scene keeps its text.'),
    again: 'Run `aureus episode review` to see what is staged.',
  });
  try {
    return await underReview(c, 'scene rewrite', async (world, configFile, say) => {
      const r = await rewriteScene({ root: c.root, world, scene: rawId, note, configFile, env: c.io.env, signal: intr.signal, onWarnings: say });
      done.scene = r.scene;
      return r;
    });
  } catch (e) {
    const { interruptedDuring } = await import('../../diagnostics/interrupted.js');
    // Before the rewrite was recorded the pipeline said it (AUR6008, the scene unchanged).
    if (!intr.signal.aborted || done.scene === null) throw e;
    const hint = `the rewrite of ${done.scene} is recorded; its staged files are written again by the next \`aureus scene …\` command or by \`aureus episode commit\``;
    throw interruptedDuring(`the staging after the rewrite of ${done.scene}`, { hint, cause: e });
  } finally {
    intr.dispose();
  }
}

/**
 * The author's text, read as `scene verify` reads a scene: a missing file, a FIFO or a device is
 * named with why (exit 2, AUR5080), and bytes that are not UTF-8 are refused at the first bad one's
 * line:column (exit 3, AUR1003), never staged with U+FFFD in place of the author's letters.
 */
async function readEditFile(c: CommandContext, file: string): Promise<string> {
  const path = await import('node:path');
  const { readTextFile } = await import('../../stages/f-verifier/load.js');
  return readTextFile(path.resolve(c.io.cwd, file), 'edit');
}

/**
 * The editor's file through the checked reader of --from. Its temporary path is gone once this
 * command ends, so a refusal's hint says what to do instead of pointing at it.
 */
async function readEditedFile(file: string, id: string): Promise<string> {
  const { readTextFile } = await import('../../stages/f-verifier/load.js');
  const { AureusError } = await import('../../errors.js');
  try {
    return readTextFile(file, 'edit');
  } catch (e) {
    if (!(e instanceof AureusError)) throw e;
    const hint = `nothing was changed: ${id} stays as staged and the temporary file is removed; run \`aureus scene edit ${id}\` again, or give the file: aureus scene edit ${id} --from FILE`;
    throw new AureusError(e.message, { exitCode: e.exitCode, diagnostics: e.diagnostics.map((d) => ({ ...d, hint: d.hint ? `${d.hint}; ${hint}` : hint })), cause: e });
  }
}

/** The scene in the Writer's format in a temp file, opened with $VISUAL/$EDITOR; null when unchanged. */
async function editInEditor(c: CommandContext, rawId: string): Promise<string | null> {
  const fs = await import('node:fs');
  const path = await import('node:path');
  const { spawn } = await import('node:child_process');
  const { loadStaged, sceneIdOf, sceneAsRaw, requireUnpinned } = await import('../../pipeline/scene-ops.js');
  const { AureusError, ExitCode } = await import('../../errors.js');
  const { diag } = await import('../../diagnostics/index.js');
  const st = loadStaged(c.root);
  const id = sceneIdOf(st, rawId);
  requireUnpinned(st, id);
  const editor = c.io.env.VISUAL || c.io.env.EDITOR;
  if (!editor) throw new AureusError('no editor', { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR6110', { scene: id, detail: 'neither $VISUAL nor $EDITOR is set' })], hint: `set EDITOR, or give the file: aureus scene edit ${id} --from FILE` });
  const approved = st.scenes.scenes.find((s) => s.scene === id);
  const before = sceneAsRaw(approved?.text ?? '', approved);
  // Ctrl-C and SIGTERM with the CLI's one handler (run-shared.ts, as `episode run`): set before the
  // temporary folder exists, so no signal finds it unguarded.
  const { interruptSignal } = await import('./run-shared.js');
  const intr = interruptSignal(c.io.stderr, { first: `Nothing is changed: ${id} stays as staged once the editor closes.`, again: `${id} stays as staged.` });
  try {
    const dir = await editFolder(id, before);
    const file = path.join(dir, `${id}.txt`);
    // A second signal quits once this ends (not at once): the temporary folder is removed first.
    return await intr.critical('the editor', async () => {
      try {
        // As git runs core.editor: the shell splits EDITOR (it may hold arguments, `code --wait`) and
        // the file is its "$1", never part of the command text, so no `$` or quote in TMPDIR is expanded.
        const env = { ...process.env, ...c.io.env };
        const r = await runEditor(intr, () => process.platform === 'win32'
          ? spawn(`${editor} "${file}"`, { shell: true, stdio: 'inherit', cwd: c.io.cwd, env })
          : spawn('/bin/sh', ['-c', `${editor} "$@"`, editor, file], { stdio: 'inherit', cwd: c.io.cwd, env }));
        if (r.interrupted) {
          throw new AureusError('interrupted', {
            exitCode: ExitCode.INTERRUPTED,
            diagnostics: [diag('AUR6008', { where: `scene edit ${id}, with the editor open` }, { hint: `nothing was changed: ${id} stays as staged and the temporary file is removed; run \`aureus scene edit ${id}\` again` })],
          });
        }
        if (r.status !== 0) {
          // The text was never read: the scene-format hint of AUR6110 does not apply, the editor's failure does.
          const how = r.status !== null ? `exited with status ${r.status}` : r.signal ? `was stopped by ${r.signal}` : `could not be started (${r.error?.message ?? 'unknown error'})`;
          throw new AureusError(`the editor ${how}`, {
            exitCode: ExitCode.USAGE,
            diagnostics: [diag('AUR6110', { scene: id, detail: `the editor (${editor}) ${how}` }, { hint: `nothing was changed: ${id} stays as staged; fix $VISUAL/$EDITOR, or give the file: aureus scene edit ${id} --from FILE` })],
          });
        }
        // Read as --from reads the author's file (before the finally removes it): bytes the editor saved
        // in another encoding are refused (AUR1003, exit 3) and nothing is staged, never U+FFFD.
        const after = await readEditedFile(file, id);
        return after === before ? null : after;
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  } finally {
    intr.dispose();
  }
}

/**
 * The editor run to its end under the CLI's interrupt handler, so a Ctrl-C (SIGINT) or SIGTERM
 * meanwhile does not kill aureus before it can remove the temporary file and say that nothing
 * changed: the terminal's Ctrl-C reaches the editor too (one process group), a SIGTERM is passed on
 * to it. An editor that takes Ctrl-C as a key (vim, in raw mode) gets no signal to aureus at all.
 * Interrupted before it starts, the editor is not opened.
 */
async function runEditor(intr: Interrupt, start: () => ChildProcess): Promise<{ status: number | null; signal: NodeJS.Signals | null; error?: Error; interrupted: boolean }> {
  if (intr.signal.aborted) return { status: null, signal: null, interrupted: true };
  const child = start();
  const onAbort = () => {
    if ((intr.signal.reason as Error | undefined)?.message === 'SIGTERM') child.kill('SIGTERM');
  };
  intr.signal.addEventListener('abort', onAbort, { once: true });
  try {
    const end = await new Promise<{ status: number | null; signal: NodeJS.Signals | null; error?: Error }>((resolve) => {
      child.once('error', (error) => resolve({ status: null, signal: null, error }));
      child.once('close', (status, signal) => resolve({ status, signal }));
    });
    // An editor killed by the interrupt (or a shell reporting it, 128+2) was interrupted too.
    return { ...end, interrupted: intr.signal.aborted || end.signal === 'SIGINT' || end.status === 130 };
  } finally {
    intr.signal.removeEventListener('abort', onAbort);
  }
}

/**
 * A private temporary folder holding `<id>.txt` with `text`, for the editor. A TMPDIR that is
 * missing or refuses the write is the user's environment: AUR1053 (exit 11) naming it, not a crash.
 */
async function editFolder(id: string, text: string): Promise<string> {
  const fs = await import('node:fs');
  const os = await import('node:os');
  const path = await import('node:path');
  const tmp = os.tmpdir();
  let dir: string | undefined;
  try {
    dir = fs.mkdtempSync(path.join(tmp, 'aureus-edit-'));
    fs.writeFileSync(path.join(dir, `${id}.txt`), text);
    return dir;
  } catch (e) {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    const { AureusError, ExitCode } = await import('../../errors.js');
    const { diag } = await import('../../diagnostics/index.js');
    const { writeRefusal } = await import('../../store/write-refusal.js');
    const target = path.join(dir ?? path.join(tmp, 'aureus-edit-XXXXXX'), `${id}.txt`);
    const code = (e as NodeJS.ErrnoException).code ?? '';
    const hint = `set TMPDIR to a folder this user may write, or give the file: aureus scene edit ${id} --from FILE`;
    // The store's reading of a refused write (permission, read-only, full), with this command's hint.
    const refused = code === 'ENOENT' || code === 'ENOTDIR' ? undefined : writeRefusal(e, target)?.diagnostics[0];
    const reason = code === 'ENOENT' || code === 'ENOTDIR' ? `the temporary folder ${tmp} does not exist` : (e as Error).message;
    throw new AureusError(`cannot write ${target}`, { exitCode: ExitCode.FILESYSTEM, diagnostics: [{ ...(refused ?? diag('AUR1053', { file: target, reason })), hint }], cause: e });
  }
}
