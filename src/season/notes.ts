import fs from 'node:fs';
import path from 'node:path';
import { writeAtomicSync } from '../store/atomic-write.js';
import { stableStringify } from '../core/json.js';
import { AureusError, ExitCode } from '../errors.js';
import { diag, type Diagnostic } from '../diagnostics/index.js';
import { notesRel } from '../paths.js';
import { formatAndSchemaDiagnostics, withLocation } from '../store/load.js';
import { didYouMean, listSome } from '../store/suggest.js';
import { readJsonFileSafe } from '../store/read.js';
import { linkedPath } from '../store/symlinks.js';
import type { World } from '../domain/world.js';
import type { GitPort } from '../git/port.js';
import { requireCleanWorld } from '../pipeline/clean-world.js';
import { stripControl } from '../diagnostics/sanitize.js';
import { cutCodePoints } from '../core/code-points.js';

/**
 * The season's notes (seasons/season_NN/notes.json): what the showrunner wants from coming
 * episodes. `aureus note` writes them, play mode may too; the Director of the episode a note is
 * addressed to reads it (stages/c-director/steering.ts). One module so both writers agree.
 */
export interface SeasonNote {
  id: string;
  text: string;
  /** The episode whose Director reads it ("s01e03"). */
  episode: string;
  thread?: string;
  character?: string;
  source: 'cli' | 'play';
}

/** A thread proposed in play (`/thread`): not in world/threads.json yet, read by the addressed episode's Director. */
export interface ProposedThread {
  id: string; // "pt001"
  question: string;
  episode: string;
  source: 'cli' | 'play';
  session?: string;
  turn?: string;
  /** Who has a stake in it (the principal first); the Director leans toward featuring the first. */
  stakeholders: string[];
}

export interface SeasonNotes {
  format: 1;
  season: number;
  notes: SeasonNote[];
  proposed_threads?: ProposedThread[];
}

const NOTES_SCHEMA = 'notes.schema.json';

/** A note's text and a thread's question at most this long (schemas/notes.schema.json maxLength, in code points). */
export const NOTE_MAX = 2000;

/**
 * A note's text as the notes keep it: one line (runs of white space made one space), cut to
 * NOTE_MAX code points, never inside a surrogate pair; `length` (before the cut) and `cut` are for
 * the notice each writer gives (`aureus note`, play's /note and /thread), so nothing is cut in silence.
 */
export function noteTextCut(raw: string): { text: string; length: number; cut: boolean } {
  return cutCodePoints(raw.replace(/\s+/g, ' ').trim(), NOTE_MAX);
}

export { notesRel };

/**
 * The season's notes and what is wrong with the file: read with the world files' reader, so a
 * syntax error is AUR1005 at line:column and schema errors are the world files' (AUR101x, each
 * with its pointer, line:column and hint) after one AUR3063 naming the file. A
 * missing file is no notes. `aureus validate` reports these diagnostics; runs read through readNotes.
 */
export function checkNotes(root: string, season: number, world?: World): { notes: SeasonNotes; diagnostics: Diagnostic[] } {
  const rel = notesRel(season);
  const empty: SeasonNotes = { format: 1, season, notes: [] };
  // A commit may write the notes (play mode): a link would be refused only then, after the run's work.
  const link = linkedPath(root, rel);
  if (link) return { notes: empty, diagnostics: [link] };
  const r = readJsonFileSafe(path.join(root, rel), rel);
  // AUR1001 is "missing": a season without notes.
  if (!r.ok) return { notes: empty, diagnostics: r.diagnostics.filter((d) => d.code !== 'AUR1001') };
  // The world files' translation (store/schema.ts): every problem with its pointer, line:column and
  // hint, under one AUR3063 that says the file is invalid (what a run's error and its tests name).
  const problems = formatAndSchemaDiagnostics(r.value, r.locate, NOTES_SCHEMA, rel);
  if (problems.length) {
    const n = problems.length;
    const detail = `${n} problem${n === 1 ? '' : 's'} against schemas/${NOTES_SCHEMA} (listed below)`;
    return { notes: empty, diagnostics: [diag('AUR3063', { file: rel, detail }, { file: rel }), ...problems] };
  }
  const notes = r.value as SeasonNotes;
  // `aureus note` refuses an unknown id (AUR3061), but a hand-edited file reached the Director with
  // it, which matched nothing and dropped the note in silence: the same check, at every validation.
  const dangling = world ? noteReferenceProblems(notes, world, rel).map((d) => withLocation(d, r.locate)) : [];
  if (dangling.length) {
    const n = dangling.length;
    const detail = `${n} unknown id${n === 1 ? '' : 's'} (listed below): a note naming one is never read`;
    return { notes: empty, diagnostics: [diag('AUR3063', { file: rel, detail }, { file: rel }), ...dangling] };
  }
  return { notes, diagnostics: [] };
}

/**
 * AUR1022 for each id the notes name that the world does not have (a note's character or thread, a
 * proposed thread's stakeholders), and for an episode of another season than the file's (only this
 * season's episodes read this file), each at its pointer with the nearest known id.
 */
function noteReferenceProblems(notes: SeasonNotes, world: World, file: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const characters = world.characters.characters.map((c) => c.id);
  const threads = world.threads.threads.map((t) => t.id);
  const check = (id: string | undefined, ids: string[], what: string, kind: string, pointer: string) => {
    if (id === undefined || ids.includes(id)) return;
    out.push(diag('AUR1022', { what, id, kind, known: listSome(ids), suggestion: didYouMean(id, ids) }, { file, pointer }));
  };
  const ss = `s${String(notes.season).padStart(2, '0')}`;
  const seasonEpisode = (ep: string, pointer: string) => {
    if (ep.startsWith(`${ss}e`)) return;
    const known = `${ss}e01 … ${ss}e99 (this file is season ${notes.season}'s; only its episodes read it)`;
    out.push(diag('AUR1022', { what: 'episode', id: ep, kind: `season ${notes.season} episode`, known, suggestion: '' }, { file, pointer }));
  };
  notes.notes.forEach((n, i) => {
    seasonEpisode(n.episode, `/notes/${i}/episode`);
    check(n.character, characters, 'note character', 'character', `/notes/${i}/character`);
    check(n.thread, threads, 'note thread', 'thread', `/notes/${i}/thread`);
  });
  (notes.proposed_threads ?? []).forEach((t, i) => {
    seasonEpisode(t.episode, `/proposed_threads/${i}/episode`);
    t.stakeholders.forEach((c, j) => check(c, characters, 'stakeholder', 'character', `/proposed_threads/${i}/stakeholders/${j}`));
  });
  return out;
}

/** The season's notes; an empty list when the file does not exist. A bad file is exit 3 (checkNotes' diagnostics). */
export function readNotes(root: string, season: number): SeasonNotes {
  const { notes, diagnostics } = checkNotes(root, season);
  if (diagnostics.length) throw new AureusError('the season notes are invalid', { exitCode: ExitCode.INVALID_WORLD, diagnostics, hint: 'run `aureus validate`, fix the notes file, then re-run' });
  return notes;
}

/** The notes addressed to one episode, in the order they were left. */
export function notesFor(root: string, episodeId: string): SeasonNote[] {
  const season = Number(episodeId.slice(1, 3));
  return readNotes(root, season).notes.filter((n) => n.episode === episodeId);
}

/** The threads proposed for one episode, in the order they were proposed. */
export function proposedThreadsFor(root: string, episodeId: string): ProposedThread[] {
  const season = Number(episodeId.slice(1, 3));
  return (readNotes(root, season).proposed_threads ?? []).filter((t) => t.episode === episodeId);
}

/** A note's thread and character must exist in the world (usage error AUR3061 otherwise). */
export function checkNoteRefs(world: World, note: Pick<SeasonNote, 'thread' | 'character'>): void {
  const unknown = (kind: string, id: string, option: string, known: string[]) =>
    new AureusError(`unknown ${kind} ${id}`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR3061', { kind, id, option, known: known.join(', ') })] });
  if (note.thread && !world.threads.threads.some((t) => t.id === note.thread)) throw unknown('thread', note.thread, '--thread', world.threads.threads.map((t) => t.id));
  if (note.character && !world.characters.characters.some((c) => c.id === note.character)) throw unknown('character', note.character, '--character', world.characters.characters.map((c) => c.id));
}

/**
 * A note's text as it is stored: one line, its runs of white space made one space. Refused (usage,
 * AUR3062): an empty one, and one holding control or bidi characters, which would reach the
 * commit's subject and body (an escape drives the terminal of whoever runs `git log`, a bidi
 * override disguises the text in a diff): a note is the author's own text, so it is refused with
 * the reason rather than changed without a word. (Play strips them from a typed line, with a notice.)
 */
export function checkNoteText(raw: string): string {
  const text = raw.replace(/\s+/g, ' ').trim();
  const example = 'aureus note "Cato should lose his temper in public"';
  if (!text) throw new AureusError('an empty note', { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR3062', { option: 'note', value: '', detail: 'the note is empty', example })] });
  const { removed } = stripControl(text);
  if (removed.length) {
    const detail = `it holds control or bidi characters (${removed.join(', ')}); a note is plain text`;
    throw new AureusError('a note with control characters', { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR3062', { option: 'note', value: cutCodePoints(text, 60).text, detail, example: `write it without them, e.g. ${example}` })] });
  }
  return text;
}

/**
 * Refuse (exit 8, AUR6001 naming the file) an uncommitted edit of the season's notes, the check
 * play makes (play/canonize.ts): `aureus note` writes the file whole and commits it, so a hand edit
 * there would go out in its commit as the note's. No --allow-dirty: the edit is the user's to commit
 * or discard. Edits elsewhere are not refused: the note's commit carries only this file.
 */
export function refuseNotesEdits(git: GitPort, season: number, opts: { readOnly?: boolean } = {}): Promise<void> {
  return requireCleanWorld(git, [notesRel(season)], { allowDirtyFlag: false, readOnly: opts.readOnly });
}

/** Append a note (atomic write of the whole file); returns it with its id. */
export function addNote(root: string, season: number, input: Omit<SeasonNote, 'id'>): SeasonNote {
  const text = checkNoteText(input.text);
  const current = readNotes(root, season);
  const next = current.notes.reduce((m, n) => Math.max(m, Number(n.id.slice(1)) || 0), 0) + 1;
  const note: SeasonNote = { id: `n${String(next).padStart(3, '0')}`, text: noteTextCut(text).text, episode: input.episode, source: input.source };
  if (input.thread) note.thread = input.thread;
  if (input.character) note.character = input.character;
  const out: SeasonNotes = { ...current, notes: [...current.notes, note] };
  const abs = path.join(root, notesRel(season));
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  writeAtomicSync(abs, stableStringify(out));
  return note;
}
