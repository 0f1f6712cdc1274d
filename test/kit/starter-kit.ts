/**
 * The starter season kit as the kit tests (kit.test.ts, kit-operators.test.ts) read it: straight
 * from the JSON files, so they hold whatever the store and schemas do, with the id sets and the
 * vocabularies the checks share.
 */
import { readRepoJson, readStarterWorld } from '../support/starter-world.js';
import type { World } from '../../src/domain/world.js';

export const world: World = readStarterWorld();
export const goals = readRepoJson<{ $schema: string; format: number; season: number; episodes_planned: number; goals: { id: string; threads: string[] }[]; finale_threads: string[] }>(
  'seasons/season_01/season_goals.json',
);

export const chars = world.characters.characters;
export const principals = chars.filter((c) => c.principal);
export const charIds = new Set(chars.map((c) => c.id));
export const locIds = new Set(world.world.locations.map((l) => l.id));
export const secretIds = new Set(world.secrets.secrets.map((s) => s.id));
export const threadIds = new Set(world.threads.threads.map((t) => t.id));
export const factionIds = new Set(world.factions.factions.map((f) => f.id));
export const accountIds = new Set(world.assets.cash_ledger.map((a) => a.id));
export const ops = world.operators.operators;

export const DESIRE_KINDS = ['power', 'wealth', 'reputation', 'revenge', 'love', 'security', 'justice', 'secrecy', 'loyalty', 'knowledge'];
export const REGISTERS = ['patrician', 'orator', 'soldier', 'street', 'merchant', 'matron', 'priestly', 'servile'];
export const SETTINGS = ['court', 'villa', 'street', 'port', 'temple', 'camp', 'senate'];
export const BEATS = ['reveal', 'reversal', 'confrontation', 'cliffhanger', 'complication', 'establishment', 'escalation', 'pivot', 'resolution'];
export const ID = /^[a-z0-9_]+$/;
export const TOKEN = /^[A-Z][A-Z0-9_]*$/;
