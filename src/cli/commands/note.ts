import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import type { RegisterCommand } from './index.js';
import type { EpisodeRef } from '../../domain/context.js';
import { AureusError, ExitCode } from '../../errors.js';
import type { GitPort } from '../../git/port.js';
import type { SeasonNote } from '../../season/notes.js';
import { diag } from '../../diagnostics/index.js';
import { interruptedDuring, isInterruptedDuring } from '../../diagnostics/interrupted.js';
import { episodeRelDir } from '../../paths.js';
import { printJson } from '../io.js';

/** `aureus note "…" [--thread] [--character]`: a note in the season's notes for the next episode's Director. */
export const registerNote: RegisterCommand = (program: Command, ctx: () => CommandContext) => {
  program
    .command('note <text>')
    .description("leave a note for the next episode's Director (seasons/season_NN/notes.json)")
    .option('--thread <id>', 'the thread the note is about (the Director leans towards advancing it)')
    .option('--character <id>', 'the character the note is about (the Director leans towards featuring them)')
    .option('--episode <sNNeNN>', 'the episode it is for (default: the next one to compile; one already compiled is refused)')
    .option('--json', 'print the stored note as JSON')
    .addHelpText('after', `
The Director of that episode reads the note: a model Director gets it in its prompt (SHOWRUNNER),
the symbolic Director favours moves on its thread and character. The notes file is plain JSON
(schemas/notes.schema.json), git-tracked with the season; play mode adds its notes there too.
Each note is committed with that file alone, so an uncommitted hand edit of it is refused (exit 8):
commit or discard it first. A note is plain text: control characters are refused (exit 2).

Examples:
  $ aureus note "Terentia has had enough of being ignored" --character terentia
  $ aureus note "The trial must feel close to collapse" --thread thr_murena_trial`)
    .action(async (text: string, o: { thread?: string; character?: string; episode?: string; json?: boolean }) => {
      const c = ctx();
      // A rollback a kill cut has half moved HEAD and the work tree: the world read would be the half,
      // and a note committed on top would move HEAD from under the journal (AUR6037 says how to finish it).
      const { refuseInterruptedRollback } = await import('../../season/rollback-journal.js');
      refuseInterruptedRollback(c.root);
      const { loadValidatedWorld } = await import('../../store/validate.js');
      const { addNote, checkNoteRefs, checkNoteText, NOTE_MAX, noteTextCut, notesRel, refuseNotesEdits } = await import('../../season/notes.js');
      const { episodesInTree, nextEpisode } = await import('../../season/episodes.js');
      const { requireEpisodeId } = await import('../../season/episode-id.js');
      const { world, remember } = await loadValidatedWorld(c.root);
      checkNoteText(text);
      const cut = noteTextCut(text);
      checkNoteRefs(world, o);
      const ref = o.episode ? requireEpisodeId(o.episode) : nextEpisode(c.root);
      // A season without its goals has no episode `episode run` will compile (AUR7050, the same
      // check and code), so no Director would read the note: refused before season_NN/ is created.
      (await import('../../season/require-season.js')).requireSeasonGoals(c.root, ref.season);
      requireUncompiled(ref, episodesInTree(c.root), () => nextEpisode(c.root, ref.season));
      // The notes are part of the season's history: committed (that file alone), like an episode.
      // A hand edit of the file would go out in that commit: refused now (nothing written) and again under the lock.
      const git = (await import('../../git/adapter.js')).createGit(c.root);
      const repo = await git.isRepo();
      // A merge (rebase, …) half done: git refuses the note's partial commit (AUR6059 says how to finish it).
      if (repo) await git.refuseOperationInProgress('a note cannot be committed now');
      // On a what-if branch a kill left half made, the note's commit would hide that it is (AUR6035).
      if (repo) await (await import('../../season/branch-journal.js')).refuseHalfMadeBranch(c.root, 'a note cannot be committed on it', git);
      if (repo) await refuseNotesEdits(git, ref.season, { readOnly: true });
      const { interruptSignal } = await import('./run-shared.js');
      let committing = false;
      const intr = interruptSignal(c.io.stderr, { first: () => (committing ? 'The note\'s commit under way is finished first.' : 'Nothing is written.'), again: 'Nothing is left half written.' });
      let done: { note: SeasonNote; commit: string | null };
      try {
        // Under the run lock, as every command that commits: a run holding it commits too (exit 9 here).
        const { withLock } = await import('../../pipeline/lock.js');
        done = await withLock(c.root, 'note', async () => {
          refuseInterruptedRollback(c.root);
          if (repo) await refuseNotesEdits(git, ref.season);
          if (intr.signal.aborted) throw interruptedNote('the checks before the note is written');
          remember(); // the note goes ahead: the checks' verdict may be kept (derived index)
          const add = () => addNote(c.root, ref.season, { text, episode: ref.id, source: 'cli', ...(o.thread ? { thread: o.thread } : {}), ...(o.character ? { character: o.character } : {}) });
          if (!repo) return { note: add(), commit: null };
          committing = true;
          return intr.critical('the note\'s commit', () => commitNote(git, c.root, notesRel(ref.season), ref, add));
        });
      } finally {
        intr.dispose();
      }
      const { note, commit } = done;
      if (intr.signal.aborted) c.io.stderr(`aureus: the interrupt came during the note's commit; it was finished first: note ${note.id} is committed (${(commit ?? '').slice(0, 12)}).\n`);
      const { readReview } = await import('../../pipeline/review-state.js');
      if (!o.json && readReview(c.root)?.episode === ref.id) {
        c.io.stderr(c.chalk.yellow(`note: ${ref.id} is already planned and staged for review; its Director reads this note only if it is planned again (aureus episode discard, then episode run)\n`));
      }
      // Cut, as play cuts a /note, rather than refused: said here, so no text is lost in silence.
      if (cut.cut) c.io.stderr(c.chalk.yellow(`note: it was ${cut.length} characters; cut at the season notes' limit of ${NOTE_MAX} (the first ${NOTE_MAX} are kept)\n`));
      if (o.json) printJson(c.io, { ...note, file: notesRel(ref.season), commit });
      else c.io.stdout(`${c.chalk.green('✓')} note ${note.id} for ${ref.id} in ${notesRel(ref.season)}\n`);
    });
};

/**
 * The note written and committed (that file alone), or, when git refuses the commit (a signing
 * program that fails, a full disk), the file and its index entry put back as they were
 * (season/undoable-commit.ts): the next note is then not refused as a hand edit.
 */
async function commitNote(git: GitPort, root: string, rel: string, ref: EpisodeRef, add: () => SeasonNote): Promise<{ note: SeasonNote; commit: string }> {
  const { commitOrPutBack } = await import('../../season/undoable-commit.js');
  const { inOwnProcessGroup } = await import('../../git/exec.js');
  const { cutCodePoints } = await import('../../core/code-points.js');
  let note!: SeasonNote;
  try {
    const commit = await inOwnProcessGroup(() => commitOrPutBack(git, root, [rel], {
      write: () => void (note = add()),
      commit: async () => {
        await git.add([rel]);
        return git.commit(`Note for ${ref.id.toUpperCase()}: ${cutCodePoints(note.text, 60).text}\n\n${note.text}\n\nAureus-Note: ${note.id}\n`, { paths: [rel] });
      },
    }));
    return { note, commit };
  } catch (e) {
    if (isInterruptedDuring(e)) throw interruptedNote(e.message.replace(/^interrupted during /, ''), e);
    throw e;
  }
}

/** AUR6008 (exit 130) of an interrupted note: nothing written or committed; its hint names no --resume, which `note` has not. */
function interruptedNote(where: string, cause?: unknown): AureusError {
  return interruptedDuring(where, { cause, hint: 'nothing was written or committed: the notes are as they were; run the same command again' });
}

/**
 * A note is read by the Director of its episode when that episode is planned: one aimed at an
 * episode already compiled (its folder is there: what `episode run` counts) would be kept and
 * committed but never read, so it is refused (usage, exit 2) before anything is written. Checked
 * here, not in season/notes.ts: play's notes always go to the next episode (play/notes.ts).
 * An episode past `episodes_planned` is accepted: that is the season's planned finale, not its end
 * (`episode run` compiles past it, docs/planning.md), so its Director will read the note.
 */
function requireUncompiled(ref: EpisodeRef, compiled: EpisodeRef[], next: () => EpisodeRef): void {
  if (!compiled.some((r) => r.id === ref.id)) return;
  const reason = `it is already compiled (${episodeRelDir(ref)}), and a note is read only when its episode is planned`;
  throw new AureusError(`${ref.id} is already compiled`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR3064', { episode: ref.id, reason, next: next().id })] });
}
