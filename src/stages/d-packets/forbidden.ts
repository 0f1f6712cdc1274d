import type { PacketCastMember, ScenePacket } from '../../domain/packet.js';
import type { Character, Secret, World } from '../../domain/world.js';
import { round } from '../../core/json.js';
import { memoList, registerPatch, type WorldIndex } from '../../core/world-index.js';
import type { PrunableFacts } from './prune.js';
import { secretsAround, type SceneFocus } from './retrieve.js';

/**
 * A world with at most this many hidden secrets (or dead, exiled and imprisoned characters) lists
 * them all in every packet's forbidden facts, as a season-sized world always has. Beyond it (an
 * imported city of thousands) a packet names only those of its retrieved subgraph — the walked
 * characters, whom the writer can see — or the packet would carry the whole world's secrets
 * (240,000 tokens a scene at 10,000 principals) and no budget could hold it.
 */
export const FORBIDDEN_ALL_CAP = 64;

/** Whether the whole world's hidden secrets and gone characters fit in every packet (counted on the snapshot). */
export interface ForbiddenScope {
  allHidden: boolean;
  allGone: boolean;
}

export function forbiddenScope(world: World): ForbiddenScope {
  return {
    allHidden: world.secrets.secrets.filter((s) => s.status === 'hidden').length <= FORBIDDEN_ALL_CAP,
    allGone: goneOf(world.characters.characters).length <= FORBIDDEN_ALL_CAP,
  };
}

/** The characters who are not alive, in file order; memoised per list (a scene rarely kills anyone). */
const buildGone = (cs: readonly Character[]): Character[] => cs.filter((c) => c.status !== 'alive');
export const goneOf = (cs: readonly Character[]): Character[] => memoList(cs, buildGone);
/**
 * A copy whose changed characters were alive and still are (a scene's stat or belief changes) has the
 * same gone list (issue 18: refiltering 10,000 characters for each scene's state); anything else is rebuilt.
 */
registerPatch(buildGone, (prev, original, items, changed) => {
  for (const i of changed) {
    if ((items[i] as Character).status !== 'alive' || (i < original.length && (original[i] as Character).status !== 'alive')) return undefined;
  }
  return prev;
});

export interface ForbiddenFacts {
  dead: ScenePacket['dead'];
  forbidden: string[];
  prunable: PrunableFacts;
}

/**
 * What the writer must not state or stage: secrets no one present knows, the dead, the exiled and
 * imprisoned, anyone off the cast, and where the cast arrive from.
 */
export function forbiddenFacts(before: World, index: WorldIndex, focus: SceneFocus & { location: string }, cast: PacketCastMember[], hop: Map<string, number>, scope: ForbiddenScope, around?: readonly Secret[]): ForbiddenFacts {
  const walked = (id: string) => hop.has(id);
  const gone = goneOf(before.characters.characters);
  const dead = gone.filter((c) => c.status === 'dead' && (scope.allGone || walked(c.id))).map((c) => ({ cue: c.cue, id: c.id, name: c.name }));
  const forbidden: string[] = [];
  const prunable: PrunableFacts = { secrets: [], dead: [] };
  const inCast = (id: string) => focus.cast.includes(id);
  const near = (id: string) => (inCast(id) ? 2 : hop.has(id) ? 1 / (1 + hop.get(id)!) : 0);
  // Beyond the cap only the walked characters' secrets can be listed: those are looked up (`around`, as
  // retrieval found them for the same walk), not every secret scanned.
  for (const s of scope.allHidden ? index.secrets.values() : around ?? secretsAround(index, hop.keys())) {
    if (s.status !== 'hidden' || s.holders.some(inCast) || focus.bound.has(s.id)) continue;
    if (!scope.allHidden && !walked(s.subject) && !s.holders.some(walked)) continue;
    const text = forbiddenSecretFact(s.text);
    forbidden.push(text);
    prunable.secrets.push({ id: s.id, text, relevance: round(near(s.subject) + Math.max(0, ...s.holders.map(near)) + s.legal_value + s.public_damage) });
  }
  for (const d of dead) {
    const text = `${d.name} is dead: may be mentioned, never speaks or acts`;
    forbidden.push(text);
    prunable.dead.push({ id: d.id, text, relevance: round(near(d.id)) });
  }
  for (const c of gone) if ((c.status === 'exiled' || c.status === 'imprisoned') && (scope.allGone || walked(c.id))) forbidden.push(`${c.name} is ${c.status} and cannot appear`);
  forbidden.push(`Only the cast (${cast.map((c) => c.name).join(', ')}) speak or act on stage`);
  for (const m of cast) if (m.previous_location !== focus.location) forbidden.push(`${m.name} arrives from ${index.locations.get(m.previous_location)?.name ?? m.previous_location} (${m.days_since_previous} day(s) since their last scene) and is nowhere else meanwhile`);
  return { dead, forbidden, prunable };
}

/** How a packet forbids a hidden secret no one in the cast holds (read back by the verifier's claim rules). */
const FORBIDDEN_SECRET = 'No one here knows it, so it must not be stated as fact: ';

export function forbiddenSecretFact(text: string): string {
  return `${FORBIDDEN_SECRET}"${text}"`;
}

/** The secret's text of a forbidden fact written by forbiddenSecretFact, else null. */
export function forbiddenSecretText(fact: string): string | null {
  return fact.startsWith(FORBIDDEN_SECRET) ? fact.slice(FORBIDDEN_SECRET.length).replace(/^"|"$/g, '') : null;
}
