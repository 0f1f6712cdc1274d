/**
 * The authored world bible (spec §3, Appendix A as designed in docs/data-model.md).
 * These types mirror schemas/*.schema.json exactly; the schemas are the source of truth for
 * validation, these types are the source of truth for code. Every file carries `format: 1`
 * so a future format change gives a clear "incompatible" message instead of garbage.
 *
 * Collections are arrays of objects with an `id` (not maps keyed by id) so duplicate ids
 * can be detected and JSON pointers in diagnostics stay meaningful.
 */

export const FORMAT_VERSION = 1 as const;

/** Ids are path-safe: they become file names, git refs and delta path segments. */
export const ID_PATTERN = /^[a-z0-9_]+$/;

export type Setting = 'court' | 'villa' | 'street' | 'port' | 'temple' | 'camp' | 'senate';

export interface Location {
  id: string;
  name: string;
  /** Drives the writer's register: court/villa/senate/temple = rhetoric, street/port/camp = thriller mode. */
  setting: Setting;
  description: string;
  /**
   * Outdoors (script headings say EXT.) or indoors (INT.). Optional: when absent it follows the
   * setting (isExterior): street, port and camp are outdoors, the rest indoors.
   */
  exterior?: boolean;
}

/** Settings that are outdoors when a location does not say (Location.exterior). */
export const EXTERIOR_SETTINGS: readonly Setting[] = ['street', 'port', 'camp'];

/** Whether scenes at this location play outdoors: its `exterior` flag, else by its setting. */
export function isExterior(location: { setting: Setting; exterior?: boolean }): boolean {
  return location.exterior ?? EXTERIOR_SETTINGS.includes(location.setting);
}

export interface TravelEdge {
  from: string;
  to: string;
  /** Symmetric travel time in days. Same-city moves are 0. */
  days: number;
}

export interface Metric {
  value: number;
  min: number;
  max: number;
  label: string;
  /** With half_life_days: the level the metric relaxes to as days pass between episodes (core/cooling.ts). */
  rest?: number;
  half_life_days?: number;
}

export interface InWorldDate {
  /** Year BC as a positive integer (63 = 63 BC). a.u.c. is derived: 754 - year_bc. */
  year_bc: number;
  month: number; // 1-12
  day: number; // 1-31
}

export interface WorldFile {
  $schema?: string;
  format: 1;
  title: string;
  date: InWorldDate;
  /** In-world days that pass per episode unless a cliffhanger forbids a time skip. */
  days_per_episode: number;
  locations: Location[];
  travel: TravelEdge[];
  /** Global metrics: unrest, grain_index, legal_exposure, scandal_temp, ... with declared ranges. */
  global: Record<string, Metric>;
}

export interface Faction {
  id: string;
  name: string;
  description: string;
  /** Standing objectives the Director may pick for an episode. */
  objectives: string[];
}
export interface FactionsFile {
  $schema?: string;
  format: 1;
  factions: Faction[];
}

export type Gender = 'male' | 'female';

export type CharacterStatus = 'alive' | 'dead' | 'exiled' | 'imprisoned';

/** What a principal wants. `kind` is matched against operators' `serves` for BDI-lite scoring. */
export type DesireKind =
  | 'power'
  | 'wealth'
  | 'reputation'
  | 'revenge'
  | 'love'
  | 'security'
  | 'justice'
  | 'secrecy'
  | 'loyalty'
  | 'knowledge';

export interface Desire {
  kind: DesireKind;
  text: string;
  /** 0..1 */
  weight: number;
  /** Optional character id the desire is aimed at (revenge on X, love for Y). */
  target?: string;
}

export interface Bdi {
  /** Free-text or token beliefs ("KNOWS:sec_001", "Crassus will betray me"). May contradict reality. */
  beliefs: string[];
  desires: Desire[];
  /** Upper-case intention tokens, e.g. "TESTIFY", "STAND_FOR_CONSUL". */
  intentions: string[];
}

export type Register = 'patrician' | 'orator' | 'soldier' | 'street' | 'merchant' | 'matron' | 'priestly' | 'servile';

export interface Voice {
  register: Register;
  tags: string[];
  /** A line or two in the character's voice; the offline writer borrows their rhythm. */
  sample_lines?: string[];
}

/** Stats are 0..100 ratings. */
export type StatName = 'wealth' | 'dignitas' | 'auctoritas' | 'gratia' | 'fama' | 'cunning' | 'courage';
export const STAT_NAMES: readonly StatName[] = ['wealth', 'dignitas', 'auctoritas', 'gratia', 'fama', 'cunning', 'courage'];
export const STAT_RANGE = { min: 0, max: 100 } as const;

export interface Character {
  id: string;
  name: string;
  /** Short name used for dialogue cues (e.g. "CRASSUS"). */
  cue: string;
  /**
   * For pronouns and forms of address. Optional so worlds written before it still load: absent,
   * core/forms-of-address genderOf reads a leading praenomen as male and anything else as unknown.
   */
  gender?: Gender;
  principal: boolean;
  /**
   * The office held in the world's year, lower-case English ("consul", "praetor", "tribune of the
   * plebs", "pontifex maximus"). Optional: the prose reader resolves "the consul" to the one
   * character of a packet who holds it; absent, titles stay unresolved.
   */
  office?: string;
  faction: string;
  status: CharacterStatus;
  location: string;
  stats: Record<StatName, number>;
  bdi: Bdi;
  voice: Voice;
  description: string;
}
export interface CharactersFile {
  $schema?: string;
  format: 1;
  characters: Character[];
}

export type WeightName = 'loyalty' | 'fear' | 'debt' | 'affection' | 'rivalry' | 'trust';
export const WEIGHT_NAMES: readonly WeightName[] = ['loyalty', 'fear', 'debt', 'affection', 'rivalry', 'trust'];
/** Relationship weights are 0..1. */
export const WEIGHT_RANGE = { min: 0, max: 1 } as const;

export interface Relationship {
  from: string;
  to: string;
  weights: Record<WeightName, number>;
  /** e.g. "married", "patron", "client", "kin", "former_lovers", "creditor". */
  flags: string[];
}
export interface RelationshipsFile {
  $schema?: string;
  format: 1;
  relationships: Relationship[];
}

export interface LedgerAccount {
  /** Account id. A character's or faction's account uses that entity's id. */
  id: string;
  owner: string;
  owner_kind: 'character' | 'faction' | 'institution';
  /** Whole denarii, never negative. */
  denarii: number;
}
export interface Good {
  id: string;
  name: string;
  owner: string;
  quantity: number;
  unit: string;
}
export interface Contract {
  id: string;
  name: string;
  parties: string[];
  value_denarii: number;
  status: 'active' | 'void' | 'fulfilled';
}
export interface ClientNetwork {
  id: string;
  patron: string;
  clients: string[];
  strength: number; // 0..1
}
export interface AssetsFile {
  $schema?: string;
  format: 1;
  cash_ledger: LedgerAccount[];
  goods: Good[];
  contracts: Contract[];
  networks: ClientNetwork[];
}

export type SecretStatus = 'hidden' | 'rumored' | 'revealed' | 'inert';
export interface Secret {
  id: string;
  text: string;
  /** Character the secret is about. */
  subject: string;
  holders: string[];
  legal_value: number; // 0..1
  public_damage: number; // 0..1
  half_life_episodes: number;
  status: SecretStatus;
  /**
   * The episode ("s01e03") whose scenes first put the secret into words; absent while it never
   * was. Later episodes refer to it instead of quoting it again (stage D marks it `told`).
   */
  told_in?: string;
}
export interface SecretsFile {
  $schema?: string;
  format: 1;
  secrets: Secret[];
}

export type ThreadStatus = 'open' | 'resolved' | 'dormant';
export interface Thread {
  id: string;
  question: string;
  type: 'thriller' | 'soap';
  /** 1 (low) .. 5 (high) */
  priority: number;
  major: boolean;
  /** Max episodes without progress before the thread gets planning priority. */
  cadence: number;
  status: ThreadStatus;
  /** 0..1; reaching 1 means fully resolved. */
  progress: number;
  /** Characters whose moves can advance this thread. */
  stakeholders: string[];
  /** Operator beat/tag words that advance it, e.g. ["grain", "court"]. */
  tags: string[];
  last_progress_episode: number;
}
export interface ThreadsFile {
  $schema?: string;
  format: 1;
  threads: Thread[];
}

export interface Constraint {
  id: string;
  kind: 'hard' | 'soft';
  /** An expression over the world (see docs/expressions.md) that must hold. */
  expr: string;
  message: string;
}
export interface ConstraintsFile {
  $schema?: string;
  format: 1;
  constraints: Constraint[];
}

export type DeltaOp = 'add' | 'subtract' | 'set' | 'multiply' | 'transfer';
export type DeltaValue = number | string | boolean | { expr: string };

/**
 * A state change. `path` follows docs/paths.md; segments that name a bound role are replaced
 * by the bound id before application. `transfer` uses from/to/amount and only on assets.cash_ledger.
 */
export interface Effect {
  path: string;
  op: DeltaOp;
  value?: DeltaValue;
  from?: string;
  to?: string;
  amount?: number | { expr: string };
}

export type BeatTag = 'reveal' | 'reversal' | 'confrontation' | 'cliffhanger' | 'complication' | 'establishment' | 'escalation' | 'pivot' | 'resolution';
export type RoleKind = 'character' | 'secret' | 'thread' | 'location' | 'faction';

export interface RoleSpec {
  kind: RoleKind;
  description?: string;
}

export interface Operator {
  id: string;
  name: string;
  type: 'thriller' | 'soap';
  beats: BeatTag[];
  /** Role name -> kind. `actor` is always a character. */
  roles: Record<string, RoleSpec>;
  prereqs: { expr: string; description?: string }[];
  effects: Effect[];
  side_effect_risks: { text: string; prob: number; effects?: Effect[] }[];
  writer_guidance: { success_beat: string; fail_beat: string; visual_cues: string[] };
  settings: Setting[];
  /** Desire kinds this move serves (BDI-lite scoring). */
  serves: DesireKind[];
  /** Tags matched against threads' tags to decide which threads a use of this operator advances. */
  thread_tags: string[];
}
export interface OperatorsFile {
  $schema?: string;
  format: 1;
  operators: Operator[];
}

export interface SeasonGoals {
  $schema?: string;
  format: 1;
  season: number;
  title: string;
  logline: string;
  episodes_planned: number;
  goals: { id: string; text: string; threads: string[] }[];
  /** Threads that must be resolved by the finale. */
  finale_threads: string[];
}

/** A fact the writer invented and the verifier accepted (spec §8.3): canon from then on. */
export interface CanonFact {
  id: string; // "f_s01e01_sc04_1"
  kind: 'minor_character' | 'object' | 'place_detail' | 'fact';
  text: string;
  subject?: string;
  episode: string;
  scene: string;
}
export interface CanonFile {
  $schema?: string;
  format: 1;
  facts: CanonFact[];
}

/** The whole loaded world: what the symbolic core operates on. Pure data, JSON-serialisable. */
export interface World {
  world: WorldFile;
  factions: FactionsFile;
  characters: CharactersFile;
  relationships: RelationshipsFile;
  assets: AssetsFile;
  secrets: SecretsFile;
  threads: ThreadsFile;
  constraints: ConstraintsFile;
  operators: OperatorsFile;
  canon: CanonFile;
}

/** File name (relative to the world repository root) of each World part. */
export const WORLD_FILES: Record<keyof World, string> = {
  world: 'world/world.json',
  factions: 'world/factions.json',
  characters: 'world/characters.json',
  relationships: 'world/relationships.json',
  assets: 'world/assets.json',
  secrets: 'world/secrets.json',
  threads: 'world/threads.json',
  constraints: 'world/constraints.json',
  operators: 'operators/operators.json',
  canon: 'world/canon.json',
};
