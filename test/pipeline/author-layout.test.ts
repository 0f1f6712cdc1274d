import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stableStringify } from '../../src/core/json.js';
import { WORLD_FILES } from '../../src/domain/world.js';
import { INDEX_DIR } from '../../src/store/derived-index/entry.js';
import { cleanup, cli, git, makeWorld } from './world.js';

afterAll(cleanup);

/**
 * An episode commit writes back the world files it changes as their author laid them out (4 spaces,
 * tabs, their own key order: core/json-layout.ts), so its diff is the episode's change alone: as
 * many lines as the same change between the two versions in canonical form. A file aureus wrote
 * (canonical) stays canonical. `aureus branch --set` leaves the files it does not change alone.
 */
describe('the author\'s layout of a world file', () => {
  const rewrite = (root: string, rel: string, fn: (v: unknown) => string) => fs.writeFileSync(path.join(root, rel), fn(JSON.parse(fs.readFileSync(path.join(root, rel), 'utf8'))));
  const idFirst = (v: unknown) => {
    const f = v as { characters: Record<string, unknown>[] };
    return { ...f, characters: f.characters.map(({ id, name, ...rest }) => ({ id, name, ...rest })) };
  };
  /** Lines added and deleted between two texts, as git counts them. */
  const numstat = (a: string, b: string): string => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aureus-numstat-'));
    fs.writeFileSync(path.join(dir, 'a'), a);
    fs.writeFileSync(path.join(dir, 'b'), b);
    let out = '';
    try {
      git(dir, 'diff', '--no-index', '--numstat', 'a', 'b');
    } catch (e) {
      out = String((e as { stdout?: string }).stdout ?? '');
    }
    fs.rmSync(dir, { recursive: true, force: true });
    return out.split('\t').slice(0, 2).join(' ');
  };
  const at = (root: string, ref: string, rel: string) => git(root, 'show', `${ref}:${rel}`) + '\n';

  it('is kept by the episode commit: the diff is as long as the change in canonical form', async () => {
    const w = await makeWorld('author-layout');
    rewrite(w, WORLD_FILES.characters, (v) => JSON.stringify(idFirst(v), null, 4) + '\n');
    rewrite(w, WORLD_FILES.relationships, (v) => JSON.stringify(v, null, '\t') + '\n');
    rewrite(w, WORLD_FILES.assets, (v) => JSON.stringify(v, null, 4) + '\n');
    git(w, 'commit', '-qam', 'the author lays the files out');
    // A plan first: the run then loads files the derived index vouches for (store/load.ts parseAllVouched).
    expect((await cli(['episode', 'plan'], w)).code).toBe(0);
    expect(fs.readdirSync(path.join(w, INDEX_DIR)).length).toBeGreaterThan(0);
    const r = await cli(['episode', 'run'], w);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/AUR1041/);
    const changed = git(w, 'diff', '--name-only', 'HEAD~1', 'HEAD', '--', 'world').split('\n');
    for (const rel of [WORLD_FILES.characters, WORLD_FILES.relationships, WORLD_FILES.assets, WORLD_FILES.threads]) {
      expect(changed, rel).toContain(rel);
      const before = at(w, 'HEAD~1', rel);
      const after = at(w, 'HEAD', rel);
      const canonical = numstat(stableStringify(JSON.parse(before)), stableStringify(JSON.parse(after)));
      expect(numstat(before, after), rel).toBe(canonical);
      // The first indented line keeps its indent.
      expect(after.split('\n')[1]!.match(/^\s*/)![0], rel).toBe(before.split('\n')[1]!.match(/^\s*/)![0]);
    }
    expect(at(w, 'HEAD', WORLD_FILES.characters)).toMatch(/^ {8}\{\n {12}"id": "[a-z_]+",\n {12}"name": /m);
    // A file aureus wrote is canonical still.
    const threads = at(w, 'HEAD', WORLD_FILES.threads);
    expect(threads).toBe(stableStringify(JSON.parse(threads)));
  }, 240_000);

  it('is left alone by `aureus branch --set` in every file it does not change', async () => {
    const w = await makeWorld('author-layout-branch');
    for (const rel of [WORLD_FILES.characters, WORLD_FILES.assets, WORLD_FILES.threads]) rewrite(w, rel, (v) => JSON.stringify(v, null, 4) + '\n');
    git(w, 'commit', '-qam', 'the author lays the files out');
    const r = await cli(['branch', 'whatif', '--set', 'characters.cicero.stats.wealth=60'], w);
    expect(r.code, r.stderr).toBe(0);
    expect(git(w, 'diff', '--numstat', 'HEAD~1', 'HEAD').split('\n').map((l) => l.split('\t')).map(([a, d, f]) => `${f} ${a} ${d}`)).toEqual([
      'seasons/season_01/what_if/whatif.json 20 0',
      `${WORLD_FILES.characters} 1 1`,
    ]);
    expect(git(w, 'diff', 'HEAD~1', 'HEAD', '--', WORLD_FILES.characters)).toMatch(/\n- {16}"wealth": 55\n\+ {16}"wealth": 60\n/);
  }, 240_000);
});
