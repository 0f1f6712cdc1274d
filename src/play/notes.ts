import fs from 'node:fs';
import path from 'node:path';
import { seasonDirName } from '../paths.js';

/**
 * The season's notes and proposed threads: `seasons/season_NN/notes.json`
 *   { "format": 1, "notes": [{ id, text, source, session?, turn? }], "proposed_threads": [{ id, question, source, session?, turn? }] }
 * Play writes to it only inside a canonization commit (never mid-turn), so a note is in git exactly
 * when the scene's canon is. Entries are keyed by id (`<session>/<turn>`), so writing twice adds nothing.
 * The next compiled episode's Director reads it (issue 16's `aureus note` shares this file).
 */
export interface SeasonNote {
  id: string;
  text: string;
  source: string;
  session?: string;
  turn?: string;
}
export interface ProposedThread {
  id: string;
  question: string;
  source: string;
  session?: string;
  turn?: string;
}
export interface SeasonNotes {
  format: 1;
  notes: SeasonNote[];
  proposed_threads: ProposedThread[];
}

export const seasonNotesRel = (season: number) => path.posix.join('seasons', seasonDirName(season), 'notes.json');

export function readSeasonNotes(root: string, season: number): SeasonNotes {
  try {
    const v = JSON.parse(fs.readFileSync(path.join(root, seasonNotesRel(season)), 'utf8')) as Partial<SeasonNotes>;
    return { format: 1, notes: Array.isArray(v.notes) ? v.notes : [], proposed_threads: Array.isArray(v.proposed_threads) ? v.proposed_threads : [] };
  } catch {
    return { format: 1, notes: [], proposed_threads: [] };
  }
}

export function mergeNotes(base: SeasonNotes, notes: SeasonNote[], threads: ProposedThread[]): SeasonNotes {
  const n = new Map(base.notes.map((x) => [x.id, x]));
  for (const x of notes) n.set(x.id, x);
  const t = new Map(base.proposed_threads.map((x) => [x.id, x]));
  for (const x of threads) t.set(x.id, x);
  return { format: 1, notes: [...n.values()], proposed_threads: [...t.values()] };
}
