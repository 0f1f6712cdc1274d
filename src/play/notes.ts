import { stableStringify } from '../core/json.js';
import { nextEpisode } from '../season/episodes.js';
import { notesRel, readNotes, type SeasonNote, type SeasonNotes } from '../season/notes.js';

/**
 * Play's side of the season notes (`seasons/season_NN/notes.json`, module src/season/notes.ts, shared
 * with `aureus note`). A `/note` becomes a note with source `play` addressed to the next episode to
 * compile, so its Director reads it; a `/thread` becomes such a note too ("Proposed thread: …"),
 * because the notes are what the next Director reads. Written only inside a canonization commit,
 * never mid-turn; a note already there (same text, episode and source) is not added twice.
 */
export function playNotesFile(root: string, season: number, notes: { text: string }[], threads: { question: string }[], principal: string): { rel: string; content: string } {
  const current: SeasonNotes = readNotes(root, season);
  const episode = nextEpisode(root, season).id;
  const all: SeasonNote[] = [...current.notes];
  let n = all.reduce((m, x) => Math.max(m, Number(x.id.slice(1)) || 0), 0);
  const add = (text: string) => {
    const t = text.replace(/\s+/g, ' ').trim().slice(0, 2000);
    if (!t || all.some((x) => x.text === t && x.episode === episode && x.source === 'play')) return;
    all.push({ id: `n${String(++n).padStart(3, '0')}`, text: t, episode, character: principal, source: 'play' });
  };
  for (const x of notes) add(x.text);
  for (const x of threads) add(`Proposed thread: ${x.question}`);
  return { rel: notesRel(season), content: stableStringify({ format: 1, season, notes: all } satisfies SeasonNotes) };
}
