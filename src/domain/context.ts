/** Stage H writes this; stage A of the next episode applies it (spec §5.2 H). */
export interface CliffhangerConstraints {
  format: 1;
  episode_id: string; // the episode that ended on it
  kind: 'physical_danger' | 'revelation' | 'political' | 'emotional';
  /** Physical danger: the next episode opens in the same place, same moment, with these characters. */
  must_start_immediately: boolean;
  /** Revelation: the next episode may skip time. */
  time_skip_allowed: boolean;
  scene: string;
  location: string;
  characters: string[];
  operator_id: string;
  application_id: string;
  summary: string;
  open_question: string;
}

export interface EpisodeRef {
  season: number;
  episode: number;
  /** "s01e03" */
  id: string;
}

export function episodeRef(season: number, episode: number): EpisodeRef {
  return { season, episode, id: `s${String(season).padStart(2, '0')}e${String(episode).padStart(2, '0')}` };
}
