import type { WeightName } from '../domain/world.js';

/**
 * The importer's intermediate model: what a source (DPRR tables or the synthetic generator)
 * knows about a person and a tie, before invention and assembly into a World. Keeping sources
 * down to this shape means the invented parts (ledgers, secrets, BDI, voices) are produced by one
 * deterministic code path for real and synthetic worlds alike.
 */
export type OfficeTier =
  | 'dictator'
  | 'censor'
  | 'consul'
  | 'praetor'
  | 'aedile'
  | 'tribune'
  | 'quaestor'
  | 'senator'
  | 'officer'
  | 'priest'
  | 'eques'
  | 'none';

export interface SourcePerson {
  id: string;
  name: string;
  cue: string;
  longCue: string;
  female: boolean;
  alive: boolean;
  /** Family name, for gens factions ("Cornelius"). '' when unknown. */
  nomen: string;
  patrician: boolean;
  nobilis: boolean;
  novus: boolean;
  eques: boolean;
  /** Highest office held by the world date. */
  tier: OfficeTier;
  /** Text of the highest office as the source gives it ("cos. 63"). */
  highest_office: string;
  /** Distinct offices held by the world date, and how often each kind. */
  offices: { name: string; year: number }[];
  consulships: number;
  triumphs: number;
  priesthoods: number;
  military: number;
  defeats: number;
  /** Where this person's data came from, shown in the description ("DPRR TULL2072"). */
  source_ref: string;
  era: [number, number];
  origin: string;
}

/** A directed tie from the source (family, marriage, colleague in office) or invented. */
export interface SourceTie {
  from: string;
  to: string;
  weights: Partial<Record<WeightName, number>>;
  flags: string[];
}
