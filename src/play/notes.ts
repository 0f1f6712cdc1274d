import { stableStringify } from '../core/json.js';
import { nextEpisode } from '../season/episodes.js';
import { NOTE_MAX, noteTextCut, notesRel, readNotes, type ProposedThread, type SeasonNote, type SeasonNotes } from '../season/notes.js';

/**
 * Play's side of the season notes (`seasons/season_NN/notes.json`, module src/season/notes.ts, shared
 * with `aureus note`). A `/note` becomes a note with source `play`, and a `/thread` a proposed thread
 * (`proposed_threads`, with the session, the turn and its stakeholders), both addressed to the next
 * episode to compile: its Director reads them (pipeline/planning-adapter.ts steeringWithNotes).
 * Written only inside a canonization commit, never mid-turn; one already there (same text,
 * episode and source) is not added twice.
 */
export interface PlayNotesInput {
  session: string;
  principal: string;
  notes: { text: string }[];
  threads: { question: string; turn: string }[];
  /** The characters a question names (ids), for its stakeholders after the principal. */
  named: (text: string) => string[];
}

/** The season notes' limit on a note's text and a thread's question (schemas/notes.schema.json maxLength, in code points). */
export const PLAY_NOTE_MAX = NOTE_MAX;

/**
 * A /note's or /thread's text as the season notes keep it: one line (runs of white space made one
 * space), cut to PLAY_NOTE_MAX code points. commands.ts applies it where the command is accepted
 * (the cut said in a notice) and records what it keeps, so `session show` lists what the
 * canonization commits; playNotesFile applies it again, a no-op but for a log written before.
 */
export function playNoteText(raw: string): { text: string; length: number; cut: boolean } {
  return noteTextCut(raw);
}

export function playNotesFile(root: string, season: number, p: PlayNotesInput): { rel: string; content: string } {
  const current: SeasonNotes = readNotes(root, season);
  const episode = nextEpisode(root, season).id;
  const notes: SeasonNote[] = [...current.notes];
  const threads: ProposedThread[] = [...(current.proposed_threads ?? [])];
  let n = notes.reduce((m, x) => Math.max(m, Number(x.id.slice(1)) || 0), 0);
  let t = threads.reduce((m, x) => Math.max(m, Number(x.id.slice(2)) || 0), 0);
  const clean = (text: string) => playNoteText(text).text;
  for (const x of p.notes) {
    const text = clean(x.text);
    if (!text || notes.some((y) => y.text === text && y.episode === episode && y.source === 'play')) continue;
    notes.push({ id: `n${String(++n).padStart(3, '0')}`, text, episode, character: p.principal, source: 'play' });
  }
  for (const x of p.threads) {
    const question = clean(x.question);
    if (!question || threads.some((y) => y.question === question && y.episode === episode && y.source === 'play')) continue;
    const stakeholders = [...new Set([p.principal, ...p.named(question)])];
    threads.push({ id: `pt${String(++t).padStart(3, '0')}`, question, episode, source: 'play', session: p.session, turn: x.turn, stakeholders });
  }
  const out: SeasonNotes = { format: 1, season, notes, ...(threads.length ? { proposed_threads: threads } : {}) };
  return { rel: notesRel(season), content: stableStringify(out) };
}
