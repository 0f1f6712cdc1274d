import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { INDEX_DIR } from '../../src/store/derived-index/entry.js';
import { KIT_INDEX_DIR } from '../../src/store/derived-index/kit.js';
import { cleanup, copyRepo, git, makeWorld, REPO, spawnCli } from '../pipeline/world.js';

afterAll(cleanup);

/**
 * The derived world index through the built CLI (dist/build-id.txt names the build): a plan leaves an
 * entry, and the run after it, vouched for by that entry, commits exactly the episode a run with the
 * index off commits.
 */
describe('the derived world index, end to end', () => {
  it('episode run after episode plan (index warm) commits the same tree as with AUREUS_INDEX=off, and the same --json plan', async () => {
    const warm = await makeWorld('dindex-warm');
    // Without the starter kit's own entry (init copies it), so that the plan below writes the first one.
    fs.rmSync(path.join(warm, INDEX_DIR), { recursive: true, force: true });
    const cold = copyRepo(warm, 'dindex-cold');
    const planWarm = await spawnCli(['episode', 'plan', '--json'], warm);
    expect(planWarm.code).toBe(0);
    const entries = fs.readdirSync(path.join(warm, INDEX_DIR));
    expect(entries).toHaveLength(1);
    const planAgain = await spawnCli(['episode', 'plan', '--json'], warm);
    expect(planAgain.stdout).toBe(planWarm.stdout);
    // The entry was read, not written again (same name, same bytes).
    expect(fs.readdirSync(path.join(warm, INDEX_DIR))).toEqual(entries);

    const off = { AUREUS_INDEX: 'off' };
    const planCold = await spawnCli(['episode', 'plan', '--json'], cold, off);
    expect(planCold.stdout).toBe(planWarm.stdout);
    expect(fs.existsSync(path.join(cold, INDEX_DIR))).toBe(false);

    const runWarm = await spawnCli(['episode', 'run', '--json'], warm);
    const runCold = await spawnCli(['episode', 'run', '--json'], cold, off);
    expect(runWarm.code).toBe(0);
    expect(runCold.code).toBe(0);
    expect(git(warm, 'rev-parse', 'HEAD^{tree}')).toBe(git(cold, 'rev-parse', 'HEAD^{tree}'));
    expect(fs.existsSync(path.join(cold, INDEX_DIR))).toBe(false);
  }, 180_000);

  it('aureus init copies the starter kit entry, made by the build: the first plan of the new world reads it and writes none', async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'aureus-dindex-kit-'));
    try {
      const init = await spawnCli(['init', 'w'], parent);
      expect(init.code).toBe(0);
      const root = path.join(parent, 'w');
      const dir = path.join(root, INDEX_DIR);
      const names = fs.readdirSync(dir);
      expect(names).toEqual(fs.readdirSync(path.join(REPO, KIT_INDEX_DIR)));
      expect(names).toHaveLength(1);
      // Not a file of the first commit (.aureus/ is git-ignored), and the tree is clean.
      expect(git(root, 'ls-files')).not.toContain('.aureus');
      expect(git(root, 'status', '--porcelain')).toBe('');
      const file = path.join(dir, names[0]!);
      const past = new Date('2026-01-01T00:00:00Z');
      fs.utimesSync(file, past, past);
      const plan = await spawnCli(['episode', 'plan', '--json'], root);
      expect(plan.code).toBe(0);
      // A miss would have written the entry again (derived-index/remember.ts): it was read.
      expect(fs.statSync(file).mtime.getTime()).toBe(past.getTime());
      expect(fs.readdirSync(dir)).toEqual(names);
      const off = await spawnCli(['episode', 'plan', '--json'], root, { AUREUS_INDEX: 'off' });
      expect(off.stdout).toBe(plan.stdout);
    } finally {
      fs.rmSync(parent, { recursive: true, force: true });
    }
  }, 120_000);
});
