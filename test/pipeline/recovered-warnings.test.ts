import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { builtCli, cleanup, cli, git, makeWorld, spawnCli } from './world.js';

/**
 * A commit rolled forward from its journal (the run killed once the journal was written; the next
 * command finishes it) reports the warnings its run kept in its checkpoints, as the commit would
 * have had it not been cut: here planning's AUR3004, a previous cliffhanger at a location gone.
 */
afterAll(cleanup);

/** A world whose first episode is committed, its cliffhanger edited by hand to open at a location no world file has. */
async function worldWithLostCliffhanger(): Promise<string> {
  const root = await makeWorld('recovered-warnings');
  expect((await cli(['episode', 'run'], root)).code).toBe(0);
  const rel = 'seasons/season_01/episode_01/cliffhanger_constraints.json';
  const cliff = JSON.parse(fs.readFileSync(path.join(root, rel), 'utf8')) as Record<string, unknown>;
  fs.writeFileSync(path.join(root, rel), JSON.stringify({ ...cliff, must_start_immediately: true, location: 'lost_villa' }, null, 2) + '\n');
  git(root, 'commit', '-qam', 'the cliffhanger opens at a lost villa');
  return root;
}

const LOST = 'the previous cliffhanger names location "lost_villa", which no longer exists or cannot act; it is left out of the opening';

describe.skipIf(!builtCli())('a commit rolled forward from its journal', () => {
  it('lists its run\'s planning warnings in --json, as the run would have (AUR3004), after AUR6004', async () => {
    const root = await worldWithLostCliffhanger();
    const killed = await spawnCli(['episode', 'run'], root, { AUREUS_TEST_KILL_AT: 'commit-staged' });
    expect(killed.signal, killed.stderr.slice(-400)).toBe('SIGKILL');
    // A run says its planning warnings at its end, which the kill cut off: the recovery is the only place left to say them.
    expect(killed.stderr).not.toContain('AUR3004');
    const r = await cli(['episode', 'run', '--json'], root);
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout) as { status: string; tag: string; warnings: { code: string; message: string }[] };
    expect([s.status, s.tag]).toEqual(['recovered', 's01e02']);
    // The killed run's lock taken over (AUR6003), its commit finished (AUR6004), then what its planning warned.
    expect(s.warnings.map((w) => w.code)).toEqual(['AUR6003', 'AUR6004', 'AUR3004']);
    expect(s.warnings[2]!.message).toBe(LOST);
  }, 120_000);

  it('says them on stderr without --json', async () => {
    const root = await worldWithLostCliffhanger();
    const killed = await spawnCli(['episode', 'run'], root, { AUREUS_TEST_KILL_AT: 'commit-staged' });
    expect(killed.signal, killed.stderr.slice(-400)).toBe('SIGKILL');
    const r = await cli(['episode', 'run'], root);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('✓ recovered S01E02');
    expect(r.stderr).toMatch(/AUR6004 finished the interrupted commit of s01e02[^\n]*\n[\s\S]*warning AUR3004 the previous cliffhanger names location "lost_villa"/);
  }, 120_000);
});
