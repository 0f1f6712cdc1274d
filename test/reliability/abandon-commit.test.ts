import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtCli, copyRepo, git, spawnCli } from '../pipeline/world.js';
import { useWorld } from '../support/use-world.js';

/**
 * An interrupted commit that cannot be finished (a staged file that no longer matches its journal's
 * hash: AUR6018). Its hint said "delete the run folder … (world files may need `git checkout`)":
 * done so, the episode files its apply step had written stayed, and the next run refused them
 * (AUR6001, or AUR6066 "would overwrite … which git has no copy of", whose hint said to commit them)
 * without a word of where they came from. The hint now gives the commands that undo it all.
 */
describe.skipIf(!builtCli())('abandoning a commit that cannot be finished (AUR6018)', () => {
  const base = useWorld('abandon-commit');

  it('the hint names the commands (run folder, world files, episode folder); run as given, the next run commits', async () => {
    const w = copyRepo(base(), 'abandon-commit');
    const head = git(w, 'rev-parse', 'HEAD');
    const killed = await spawnCli(['episode', 'run', '--seed', '7'], w, { AUREUS_TEST_KILL_AT: 'commit-applied' });
    expect(killed.signal, killed.stderr.slice(-400)).toBe('SIGKILL');
    const run = fs.readdirSync(path.join(w, '.aureus/runs'))[0]!;
    fs.appendFileSync(path.join(w, '.aureus/runs', run, 'stage/seasons/season_01/episode_01/recap.md'), 'edited\n');
    const r = await spawnCli(['episode', 'run', '--seed', '7'], w);
    expect(r.code, r.stderr).toBe(10);
    expect(r.stderr).toContain(`error AUR6018 the commit journal .aureus/runs/${run}/commit.json is unreadable: staged file seasons/season_01/episode_01/recap.md does not match its hash`);
    const hint = /hint: .*abandon the commit and undo what it wrote \(`git status` shows it\): (.*)$/m.exec(r.stderr)?.[1];
    expect(hint).toBeDefined();
    expect(hint).toMatch(new RegExp(`^rm -rf \\.aureus/runs/${run} && git checkout -- world/\\S+\\.json( world/\\S+\\.json)* && git clean -fd -- seasons/season_01/episode_01$`));
    execFileSync('sh', ['-c', hint!], { cwd: w });
    expect(git(w, 'status', '--porcelain')).toBe('');
    expect(git(w, 'rev-parse', 'HEAD')).toBe(head);
    const next = await spawnCli(['episode', 'run', '--seed', '7'], w);
    expect(next.code, next.stderr).toBe(0);
    expect(git(w, 'tag', '--list')).toBe('s01e01');
  }, 120_000);

  it('abandoned by removing only the run folder: the next run, --allow-dirty or --review, refuses the leftover episode folder (AUR6067) instead of compiling the episode after it', async () => {
    const w = copyRepo(base(), 'abandon-partly');
    const head = git(w, 'rev-parse', 'HEAD');
    const killed = await spawnCli(['episode', 'run', '--seed', '7'], w, { AUREUS_TEST_KILL_AT: 'commit-applied' });
    expect(killed.signal, killed.stderr.slice(-400)).toBe('SIGKILL');
    const run = fs.readdirSync(path.join(w, '.aureus/runs'))[0]!;
    fs.appendFileSync(path.join(w, '.aureus/runs', run, 'stage/seasons/season_01/episode_01/recap.md'), 'edited\n');
    expect((await spawnCli(['episode', 'run', '--seed', '7'], w)).code).toBe(10);
    // The old hint's way out, half taken: the run folder deleted, its world edits and episode folder left.
    fs.rmSync(path.join(w, '.aureus/runs', run), { recursive: true });
    // Before: S01E02 compiled on episode 1's world and committed with episode_01/episode_plan.json and
    // cliffhanger_constraints.json and the world edits, episode 1 never tagged.
    for (const args of [['--allow-dirty'], ['--allow-dirty', '--json'], ['--review']]) {
      const r = await spawnCli(['episode', 'run', '--seed', '7', ...args], w);
      expect(r.code, `${args.join(' ')}: ${r.stderr.slice(-800)}`).toBe(8);
      expect(r.stderr).toContain('error AUR6067 seasons/season_01/episode_01: an episode folder git has no copy of, taken for a committed episode');
      if (args.includes('--json')) expect(JSON.parse(r.stdout).error.codes).toEqual(['AUR6067']);
    }
    expect(git(w, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(w, 'tag', '--list')).toBe('');
    expect(fs.existsSync(path.join(w, 'seasons/season_01/episode_02'))).toBe(false);
    const r = await spawnCli(['episode', 'run', '--seed', '7', '--allow-dirty'], w);
    const undo = /undo the rest \(`([^`]*)`/.exec(r.stderr)?.[1];
    expect(undo).toMatch(/^git clean -fd -- seasons\/season_01\/episode_01 && git checkout HEAD -- world\/\S+\.json( world\/\S+\.json)*$/);
    execFileSync('sh', ['-c', undo!], { cwd: w });
    expect(git(w, 'status', '--porcelain')).toBe('');
    const next = await spawnCli(['episode', 'run', '--seed', '7'], w);
    expect(next.code, next.stderr).toBe(0);
    expect(git(w, 'tag', '--list')).toBe('s01e01');
  }, 180_000);
});
