import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { INDEX_DIR } from '../../src/store/derived-index/entry.js';
import { cleanup, copyRepo, git, makeWorld, spawnCli } from '../pipeline/world.js';

afterAll(cleanup);

/**
 * The derived world index through the built CLI (dist/build-id.txt names the build): a plan leaves an
 * entry, and the run after it, vouched for by that entry, commits exactly the episode a run with the
 * index off commits.
 */
describe('the derived world index, end to end', () => {
  it('episode run after episode plan (index warm) commits the same tree as with AUREUS_INDEX=off, and the same --json plan', async () => {
    const warm = await makeWorld('dindex-warm');
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
});
