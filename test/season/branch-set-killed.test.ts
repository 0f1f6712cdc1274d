import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, cli, copyRepo, git, makeWorld, spawnCli } from '../pipeline/world.js';

/**
 * `branch <name> --set …` switches to the new branch, then writes and commits the what-if change. A
 * process killed between the two (SIGKILL: no handler runs) left the author on the new branch at
 * `--from`, without the change, and nothing said so: `status` showed the branch as if fine, an
 * `episode run` there compiled the next episode on a world missing the what-if, and the same command
 * was refused (AUR6013 "a branch with that name exists"). Now a journal written before the switch
 * (.git/aureus-branch.json, season/branch-journal.ts) names the half-made branch: `status` says it,
 * `episode run` and `note` refuse to commit on it (exit 10, AUR6035), and the same command finishes it.
 */
let season = '';
beforeAll(async () => {
  season = await makeWorld('branch-killed');
  const r = await cli(['season', 'run', '--count', '2'], season);
  expect(r.code, r.stderr).toBe(0);
}, 300_000);
afterAll(cleanup);

const SET = ['branch', 'wi', '--set', 'world.global.unrest=9', '--from', 's01e01'];
const runs = (w: string) => (fs.existsSync(path.join(w, '.aureus/runs')) ? fs.readdirSync(path.join(w, '.aureus/runs')) : []);
const unrest = (w: string) => JSON.parse(fs.readFileSync(path.join(w, 'world/world.json'), 'utf8')).global.unrest.value;
const journal = (w: string) => path.join(w, '.git/aureus-branch.json');

/**
 * Kill the `aureus` process (SIGKILL) the moment git creates refs/heads/wi, from git's own
 * reference-transaction hook: independent of aureus's code, as the audit's watcher of .git/HEAD was.
 * git, in a process group of its own, finishes its switch; aureus does nothing after it.
 */
async function killedAtSwitch(w: string): Promise<void> {
  const pidFile = path.join(w, '.git/kill-at-switch.pid');
  const hook = path.join(w, '.git/hooks/reference-transaction');
  fs.writeFileSync(hook, `#!/bin/sh\n[ "$1" = committed ] || exit 0\nwhile read old new ref; do\n  if [ "$ref" = refs/heads/wi ] && [ -f "${pidFile}" ]; then kill -9 "$(cat "${pidFile}")"; rm -f "${pidFile}"; fi\ndone\nexit 0\n`);
  fs.chmodSync(hook, 0o755);
  const r = await spawnCli(SET, w, {}, (pid) => fs.writeFileSync(pidFile, String(pid)));
  expect(r.signal, r.stderr).toBe('SIGKILL');
  // git's switch goes on alone for a moment: wait until it is done.
  for (let i = 0; i < 200 && (git(w, 'branch', '--show-current') !== 'wi' || fs.existsSync(path.join(w, '.git/index.lock'))); i++) await new Promise((res) => setTimeout(res, 50));
}

describe.sequential('branch --set killed right after its switch', () => {
  it('leaves a branch that status names, that episode run and note refuse (AUR6035), and that the same command finishes', async () => {
    const w = copyRepo(season, 'branch-killed-switch');
    const before = unrest(w);
    await killedAtSwitch(w);
    expect(git(w, 'branch', '--show-current')).toBe('wi');
    expect(git(w, 'rev-parse', 'HEAD')).toBe(git(w, 'rev-parse', 's01e01^{commit}'));
    expect(fs.existsSync(path.join(w, 'seasons/season_01/what_if/wi.json'))).toBe(false);

    const status = JSON.parse((await spawnCli(['status', '--json'], w)).stdout);
    expect(status.half_made_branch).toEqual({ branch: 'wi', from: 's01e01', finish: 'aureus branch wi --from s01e01 --set world.global.unrest=9' });
    expect((await spawnCli(['status'], w)).stdout).toContain('branch wi is half made');

    const runsBefore = runs(w);
    const run = await spawnCli(['episode', 'run'], w);
    expect(run.code, run.stderr).toBe(10);
    expect(run.stderr).toContain('error AUR6035 branch wi is half made');
    expect(run.stderr).toContain('an episode cannot be compiled on it');
    expect(run.stderr).toContain('run it again to finish it: aureus branch wi --from s01e01 --set world.global.unrest=9');
    expect(runs(w)).toEqual(runsBefore);
    const note = await spawnCli(['note', 'Cato rises'], w);
    expect(note.code, note.stderr).toBe(10);
    expect(note.stderr).toContain('AUR6035');
    // A plain `branch wi` is no way to finish it: refused, naming the command that is.
    const plain = await spawnCli(['branch', 'wi', '--from', 's01e01'], w);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toContain('finish it: aureus branch wi --from s01e01 --set world.global.unrest=9');

    const again = await spawnCli(SET, w);
    expect(again.code, again.stderr).toBe(0);
    expect(git(w, 'branch', '--show-current')).toBe('wi');
    expect(git(w, 'log', '-1', '--format=%s')).toBe('What if: wi');
    expect(git(w, 'rev-parse', 'HEAD~1')).toBe(git(w, 'rev-parse', 's01e01^{commit}'));
    expect(unrest(w)).toBe(9);
    expect(before).not.toBe(9);
    expect(fs.existsSync(path.join(w, 'seasons/season_01/what_if/wi.json'))).toBe(true);
    expect(fs.existsSync(journal(w))).toBe(false);
    expect(git(w, 'status', '--porcelain')).toBe('');
    expect(JSON.parse((await spawnCli(['status', '--json'], w)).stdout).half_made_branch).toBeNull();
  }, 300_000);

  it('at the AUREUS_TEST_KILL_AT=branch-switched point, then switched away: the re-run finishes it, and a refused commit then goes back to where the first run began', async () => {
    const w = copyRepo(season, 'branch-killed-hook');
    const main = git(w, 'rev-parse', 'HEAD');
    const killed = await spawnCli(SET, w, { AUREUS_TEST_KILL_AT: 'branch-switched' });
    expect(killed.signal).toBe('SIGKILL');
    expect(fs.existsSync(journal(w))).toBe(true);
    git(w, 'switch', '-q', 'main');
    // A commit git refuses (a signing program that fails): back on main, the half-made branch dropped.
    git(w, 'config', 'commit.gpgSign', 'true');
    git(w, 'config', 'gpg.program', 'false');
    const refused = await spawnCli(SET, w);
    expect(refused.code, refused.stderr).toBe(10);
    expect(git(w, 'branch', '--show-current')).toBe('main');
    expect(git(w, 'rev-parse', 'HEAD')).toBe(main);
    expect(git(w, 'branch', '--list', 'wi')).toBe('');
    expect(fs.existsSync(journal(w))).toBe(false);
    git(w, 'config', '--unset', 'commit.gpgSign');
    const done = await spawnCli(SET, w);
    expect(done.code, done.stderr).toBe(0);
    expect(git(w, 'log', '-1', '--format=%s')).toBe('What if: wi');
    expect(unrest(w)).toBe(9);
  }, 300_000);
});
