import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stableStringify } from '../../src/core/json.js';
import { WORLD_FILES } from '../../src/domain/world.js';
import { loadWorld } from '../../src/store/load.js';
import { writeJsonFile, writeWorld, writeWorldFile } from '../../src/store/write.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
function copyMinimal(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'aureus-write-'));
  dirs.push(d);
  fs.cpSync(path.join(REPO, 'test/fixtures/worlds/minimal'), d, { recursive: true });
  return d;
}

describe('writing the world', () => {
  it('writes nothing when nothing changed (bytes and mtimes untouched)', async () => {
    const dir = copyMinimal();
    const { world } = await loadWorld(dir);
    const stamp = new Date('2001-01-01T00:00:00Z');
    for (const rel of Object.values(WORLD_FILES)) fs.utimesSync(path.join(dir, rel), stamp, stamp);
    expect(await writeWorld(dir, world!)).toEqual([]);
    for (const rel of Object.values(WORLD_FILES)) expect(fs.statSync(path.join(dir, rel)).mtime.getTime()).toBe(stamp.getTime());
  });

  it('a changed value is a one-line diff in canonical JSON, only in its file', async () => {
    const dir = copyMinimal();
    const { world } = await loadWorld(dir);
    const before = fs.readFileSync(path.join(dir, WORLD_FILES.world), 'utf8');
    world!.world.global.unrest!.value = 7;
    expect(await writeWorld(dir, world!)).toEqual(['world/world.json']);
    const after = fs.readFileSync(path.join(dir, WORLD_FILES.world), 'utf8');
    const a = before.split('\n');
    const b = after.split('\n');
    expect(b.length).toBe(a.length);
    const changed = a.map((l, i) => [l, b[i]]).filter(([x, y]) => x !== y);
    expect(changed).toEqual([['      "value": 4', '      "value": 7']]);
    const reloaded = await loadWorld(dir);
    expect(reloaded.diagnostics).toEqual([]);
    expect(reloaded.world!.world.global.unrest!.value).toBe(7);
  });

  it('writes canonical JSON (sorted keys, 2 spaces, trailing newline) whatever the key order in memory', async () => {
    const dir = copyMinimal();
    const f = path.join(dir, 'out/x.json');
    expect(await writeJsonFile(f, { b: 1, a: { d: [2, 1], c: 'x' } })).toBe(true);
    expect(fs.readFileSync(f, 'utf8')).toBe('{\n  "a": {\n    "c": "x",\n    "d": [\n      2,\n      1\n    ]\n  },\n  "b": 1\n}\n');
    expect(await writeJsonFile(f, { a: { c: 'x', d: [2, 1] }, b: 1 })).toBe(false);
  });

  it('writeWorldFile writes one part, atomically (no temp files left)', async () => {
    const dir = copyMinimal();
    const { world } = await loadWorld(dir);
    world!.factions.factions[0]!.name = 'Boni';
    expect(await writeWorldFile(dir, 'factions', world!.factions)).toBe(true);
    expect(fs.readFileSync(path.join(dir, WORLD_FILES.factions), 'utf8')).toBe(stableStringify(world!.factions));
    expect(fs.readdirSync(path.join(dir, 'world')).sort()).toEqual(
      Object.values(WORLD_FILES).filter((f) => f.startsWith('world/')).map((f) => f.slice(6)).sort(),
    );
  });

  it('the minimal fixture and the starter kit are stored in canonical form', async () => {
    const roots = [path.join(REPO, 'test/fixtures/worlds/minimal')];
    if (fs.existsSync(path.join(REPO, 'world/world.json'))) roots.push(REPO);
    for (const root of roots) {
      for (const rel of Object.values(WORLD_FILES)) {
        const text = fs.readFileSync(path.join(root, rel), 'utf8');
        expect(text, `${root}/${rel}`).toBe(stableStringify(JSON.parse(text)));
      }
    }
  });
});
