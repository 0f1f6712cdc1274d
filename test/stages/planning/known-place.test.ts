import { beforeAll, describe, expect, it } from 'vitest';
import type { Character, Relationship, Secret, Thread, World } from '../../../src/domain/world.js';
import { loadStarterKit } from '../../../src/import/kit.js';
import { generateSyntheticWorld } from '../../../src/import/synthetic.js';
import { indexWorld, type WorldIndex } from '../../../src/core/world-index.js';
import { KNOWN_CAP, knownCharacters } from '../../../src/stages/b-proposals/known.js';
import { canAct } from '../../../src/stages/b-proposals/bdi.js';
import { REPO, hasStarter } from './helpers.js';
import { character, smallWorld } from '../../core/fixture.js';

/**
 * Who an actor knows at its place: the first by id of those who can act there (issue 18: only that
 * prefix of each place's list is put in order, and a scored id is looked up, not found in a set of
 * the place's thousands). The result must be the one of the code as it was, which sorted every
 * place's whole list and kept it as a set: compared on a 1,000-principal world, on the same world
 * crowded into one place, and on one that lists every character twice (at two places, some dead).
 */
function asItWas(world: World, index: WorldIndex, actor: string): string[] {
  const RELEVANCE = { edgeOut: 3, edgeIn: 2, secret: 1.5, coStake: 1, place: 0.25 };
  const push = <V>(m: Map<string, V[]>, k: string, v: V) => (m.get(k) ?? m.set(k, []).get(k)!).push(v);
  const secretsOf = new Map<string, Secret[]>();
  for (const s of [...world.secrets.secrets].sort((a, b) => (a.id < b.id ? -1 : 1))) {
    if (s.status === 'inert') continue;
    for (const h of new Set([...s.holders, s.subject])) push(secretsOf, h, s);
  }
  const threadsOf = new Map<string, Thread[]>();
  for (const t of world.threads.threads) if (t.status === 'open') for (const s of new Set(t.stakeholders)) push(threadsOf, s, t);
  const at = new Map<string, string[]>();
  for (const c of world.characters.characters) if (canAct(c)) push(at, c.location, c.id);
  const atSet = new Map<string, Set<string>>();
  for (const [loc, ids] of at) (ids.sort(), atSet.set(loc, new Set(ids)));
  const score = new Map<string, number>();
  const add = (id: string, v: number) => {
    if (id === actor || !canAct(index.characters.get(id))) return;
    score.set(id, (score.get(id) ?? 0) + v);
  };
  // Edges out, edges in, secrets held, threads: added in that order (the sums are the same floats).
  const ties: [string, number][] = [
    ...(index.edgesFrom.get(actor) ?? []).map((r): [string, number] => [r.to, RELEVANCE.edgeOut]),
    ...(index.edgesTo.get(actor) ?? []).map((r): [string, number] => [r.from, RELEVANCE.edgeIn]),
    ...(secretsOf.get(actor) ?? []).filter((s) => s.holders.includes(actor)).flatMap((s) => [...s.holders, s.subject].map((id): [string, number] => [id, RELEVANCE.secret])),
    ...(threadsOf.get(actor) ?? []).flatMap((t) => t.stakeholders.map((id): [string, number] => [id, RELEVANCE.coStake])),
  ];
  for (const [id, v] of ties) add(id, v);
  const loc = index.characters.get(actor)?.location;
  if (loc) {
    const here = at.get(loc) ?? [];
    const extra: string[] = [];
    for (let i = 0; i < here.length && score.size + extra.length < KNOWN_CAP; i++) if (here[i] !== actor && !score.has(here[i]!)) extra.push(here[i]!);
    for (const id of extra) add(id, RELEVANCE.place);
    const hereSet = atSet.get(loc);
    for (const [id, v] of score) if (hereSet?.has(id)) score.set(id, v + RELEVANCE.place);
  }
  return [...score].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, KNOWN_CAP).map(([id]) => id).sort();
}

describe.runIf(hasStarter)('the characters an actor knows at its place', () => {
  let world: World;
  beforeAll(async () => {
    world = generateSyntheticWorld({ principals: 1000, seed: 'known-place' }, await loadStarterKit(REPO)).world;
  });

  const compare = (w: World) => {
    const index = indexWorld(w);
    const chars = w.characters.characters;
    // Every 7th character and the first 40: principals and not, at every place.
    const actors = [...new Set([...chars.slice(0, 40), ...chars.filter((_, i) => i % 7 === 0)].map((c) => c.id))];
    let place = 0;
    for (const a of actors) {
      const known = knownCharacters(w, index, a);
      expect(known).toEqual(asItWas(w, index, a));
      if (known.length === KNOWN_CAP) place++;
    }
    return place;
  };

  it('are the first by id of those who can act there, as a whole sort of the place gave them', () => {
    expect(compare(world)).toBeGreaterThan(0);
  });

  it('are the same in a world crowded into one place', () => {
    const to = world.characters.characters[0]!.location;
    expect(compare({ ...world, characters: { ...world.characters, characters: world.characters.characters.map((c) => ({ ...c, location: to })) } })).toBeGreaterThan(0);
  });

  it('are the same in a world that lists each character twice, at two places, some dead', () => {
    const locs = [...new Set(world.characters.characters.map((c) => c.location))];
    const again = world.characters.characters.map((c, i) => ({ ...c, location: locs[i % locs.length]!, status: i % 5 === 0 ? 'dead' as const : c.status }));
    // The copies first in half the world (the index finds them), last in the other half.
    const half = Math.floor(again.length / 2);
    const chars = [...again.slice(0, half), ...world.characters.characters, ...again.slice(half)];
    compare({ ...world, characters: { ...world.characters, characters: chars } });
  });
});

describe('the characters an actor knows at its place, in a world that repeats ids', () => {
  const edge = (from: string, to: string): Relationship => ({ from, to, weights: { loyalty: 0, fear: 0, debt: 0, affection: 0, rivalry: 0, trust: 0 }, flags: [] });
  const at = (id: string, location: string): Character => character(id, { location });
  const people = (chars: Character[], rels: Relationship[]): World => {
    const w = smallWorld();
    return { ...w, characters: { ...w.characters, characters: chars }, relationships: { ...w.relationships, relationships: rels } };
  };
  const zs = (n: number, location: string) => Array.from({ length: n }, (_, i) => at(`z${String(i).padStart(2, '0')}`, location));

  it('reads past the first ids of the place when repeated ids there are skipped', () => {
    // a0 knows a1-a3; they and a0 are listed twice at the forum, so 8 of the place's first ids are skipped.
    const twice = ['a0', 'a1', 'a2', 'a3'].flatMap((id) => [at(id, 'rome_forum'), at(id, 'rome_forum')]);
    const w = people([...twice, ...zs(30, 'rome_forum')], ['a1', 'a2', 'a3'].map((id) => edge('a0', id)));
    const known = knownCharacters(w, indexWorld(w), 'a0');
    expect(known).toEqual(asItWas(w, indexWorld(w), 'a0'));
    expect(known).toEqual(['a1', 'a2', 'a3', ...zs(13, '').map((c) => c.id)]);
  });

  it('gives the place\'s weight to someone listed there under an id first listed elsewhere', () => {
    // a0 knows c01-c17 equally; c17 is listed at Ostia first and at the forum, a0's place, too.
    const cs = Array.from({ length: 17 }, (_, i) => `c${String(i + 1).padStart(2, '0')}`);
    const w = people([at('a0', 'rome_forum'), ...cs.map((id) => at(id, 'ostia')), at('c17', 'rome_forum'), ...zs(5, 'capua')], cs.map((id) => edge('a0', id)));
    const known = knownCharacters(w, indexWorld(w), 'a0');
    expect(known).toEqual(asItWas(w, indexWorld(w), 'a0'));
    expect(known).toEqual([...cs.slice(0, 15), 'c17']);
  });
});
