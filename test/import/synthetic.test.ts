import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadStarterKit, type StarterKit } from '../../src/import/kit.js';
import { generateSyntheticWorld, syntheticRepoFiles } from '../../src/import/synthetic.js';
import { writeWorldRepo } from '../../src/import/write.js';
import { validateWorldRepository } from '../../src/store/validate.js';
import { checkWorldReferences } from '../../src/store/references.js';
import { ID_PATTERN } from '../../src/domain/world.js';

let kit: StarterKit;
let tmp: string;
beforeAll(async () => {
  kit = await loadStarterKit(path.resolve(__dirname, 'fixtures/kit'));
  tmp = await mkdtemp(path.join(os.tmpdir(), 'aureus-synth-'));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

describe('synthetic world generator', () => {
  it('gives exactly N living principals and a consistent world at 10, 100 and 2,000', () => {
    for (const n of [10, 100, 2000]) {
      const a = generateSyntheticWorld({ principals: n, seed: 's' }, kit);
      const cs = a.world.characters.characters;
      expect(cs.filter((c) => c.principal).length).toBe(n);
      expect(cs.filter((c) => c.principal).every((c) => c.status === 'alive')).toBe(true);
      expect(new Set(cs.map((c) => c.id)).size).toBe(cs.length);
      expect(new Set(cs.map((c) => c.cue)).size).toBe(cs.length);
      expect(cs.every((c) => ID_PATTERN.test(c.id))).toBe(true);
      expect(checkWorldReferences(a.world).filter((d) => d.severity === 'error')).toEqual([]);
    }
  });

  it('is deterministic from the seed and differs across seeds', () => {
    const a = syntheticRepoFiles({ principals: 50, seed: 'x' }, kit).files;
    const b = syntheticRepoFiles({ principals: 50, seed: 'x' }, kit).files;
    const c = syntheticRepoFiles({ principals: 50, seed: 'y' }, kit).files;
    for (const [k, v] of a) expect(b.get(k)!.toString()).toBe(v.toString());
    expect(c.get('world/characters.json')!.toString()).not.toBe(a.get('world/characters.json')!.toString());
  });

  it('writes a repository that passes aureus validate', async () => {
    const target = path.join(tmp, 'syn100');
    await writeWorldRepo(target, syntheticRepoFiles({ principals: 100, seed: 'v' }, kit).files, 'synthetic');
    const r = await validateWorldRepository(target);
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(r.valid).toBe(true);
  });

  it('rejects a non-positive size', () => {
    expect(() => generateSyntheticWorld({ principals: 0, seed: 's' }, kit)).toThrow(RangeError);
  });
});
