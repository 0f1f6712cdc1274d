import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isFinished } from '../../src/core/finished-lists.js';
import { edgeOf, indexWorld, memoList } from '../../src/core/world-index.js';
import { applyDeltas } from '../../src/core/deltas/index.js';
import { WORLD_FILES, type World } from '../../src/domain/world.js';
import { loadWorld } from '../../src/store/load.js';

/**
 * The loaded world's lists are finished (core/finished-lists.ts): nothing edits them in place, so a
 * lookup kept over one is checked by its length, not element by element (issue 18). A push onto one
 * (the slip a test fixture makes) still changes its length: what was kept over it is rebuilt.
 */
const ROOT = path.resolve(import.meta.dirname, '../fixtures/worlds/planning-base');
const load = async (): Promise<World> => (await loadWorld(ROOT)).world!;

/** Every top-level list of each world file. */
function lists(w: World): unknown[][] {
  const out: unknown[][] = [];
  for (const k of Object.keys(WORLD_FILES) as (keyof World)[]) for (const v of Object.values(w[k] as object)) if (Array.isArray(v)) out.push(v);
  return out;
}

const builds: number[] = [];
function countIds(items: readonly { id: string }[]): number {
  builds.push(items.length);
  return items.length;
}

describe('the loaded world\'s lists', () => {
  it('are finished, each file\'s lists; a copy of the world, and the lists inside entities, are not', async () => {
    const w = await load();
    const all = lists(w);
    expect(all.length).toBeGreaterThanOrEqual(8);
    for (const l of all) expect(isFinished(l)).toBe(true);
    for (const l of lists(structuredClone(w))) expect(isFinished(l)).toBe(false);
    expect(isFinished(w.characters.characters[0]!.bdi.desires)).toBe(false);
  });

  it('keep a lookup while their length holds, and rebuild it after a push in place', async () => {
    const w = await load();
    const chars = w.characters.characters;
    builds.length = 0;
    expect(memoList(chars, countIds)).toBe(chars.length);
    expect(memoList(chars, countIds)).toBe(chars.length);
    expect(builds).toEqual([chars.length]);
    chars.push({ ...chars[0]!, id: 'intrusus' });
    expect(memoList(chars, countIds)).toBe(chars.length);
    expect(builds).toEqual([chars.length - 1, chars.length]);
  });

  it('pushed onto in place after indexing, are indexed as they are', async () => {
    const w = await load();
    const before = indexWorld(w);
    const rel = w.relationships.relationships[0]!;
    expect(before.characters.has('intrusus')).toBe(false);
    const who = { ...w.characters.characters[0]!, id: 'intrusus' };
    const edge = { ...rel, to: 'intrusus' };
    w.characters.characters.push(who);
    w.relationships.relationships.push(edge);
    const after = indexWorld(w);
    expect(after.characters.get('intrusus')).toBe(who);
    expect(edgeOf(after, rel.from, 'intrusus')).toBe(edge);
    expect(after.edgesTo.get('intrusus')).toEqual([edge]);
  });

  it('are copied, not edited, by the delta engine: the loaded list keeps its elements', async () => {
    const w = await load();
    const chars = w.characters.characters;
    const held = chars.slice();
    const id = chars[0]!.id;
    const r = applyDeltas(w, [{ op: 'add', path: `characters.${id}.stats.wealth`, value: 5 }], (_d, i) => ({ episode: 's01e01', scene: 'SC01', event: `e${i}`, operator: null }));
    if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join('; '));
    expect(r.world.characters.characters).not.toBe(chars);
    expect(chars).toEqual(held);
    expect(chars.every((c, i) => c === held[i])).toBe(true);
  });
});
