import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, cli, copyRepo, git, makeWorld, spawnCli } from '../pipeline/world.js';
import { hashTree } from './helpers.js';

afterAll(cleanup);

/**
 * Ctrl-C and kills in the middle of `aureus rollback` (a real CLI process, the built dist/): before
 * its switch nothing changes and it says so (exit 130, AUR6036); in its switch it finishes first;
 * a kill in the switch leaves a journal the next `rollback` finishes and every other command names.
 * The points are the AUREUS_TEST_SIGINT_AT / AUREUS_TEST_KILL_AT hooks of season/rollback.ts and
 * season/rollback-switch.ts. Before the fix a Ctrl-C left two of five reverts committed, 121 files
 * staged and the tags unmoved, with nothing said; the re-run refused (AUR6001).
 */

/** Everything a rollback may change: HEAD, what git status says, every tag and its target, and the files (`.git` and `.aureus` aside). */
function snapshot(root: string) {
  const files = fs.mkdtempSync(path.join(path.dirname(root), 'files-'));
  for (const e of fs.readdirSync(root)) if (e !== '.git' && e !== '.aureus') fs.cpSync(path.join(root, e), path.join(files, e), { recursive: true });
  const tree = hashTree(files);
  fs.rmSync(files, { recursive: true, force: true });
  return {
    head: git(root, 'rev-parse', 'HEAD'),
    status: git(root, 'status', '--porcelain', '--untracked-files=all'),
    tags: git(root, 'for-each-ref', 'refs/tags', '--format=%(refname) %(objectname) %(*objectname)'),
    tree,
  };
}

/** What a rollback that ran through leaves, but the new commits' ids: the same files, tag names, a clean status. */
function rolledBack(root: string) {
  const s = snapshot(root);
  return { headTree: git(root, 'rev-parse', 'HEAD^{tree}'), status: s.status, tree: s.tree, tags: git(root, 'tag', '--list').split('\n'), log: git(root, 'log', '--format=%s', '-4') };
}

const journal = (root: string) => path.join(root, '.git', 'aureus-rollback.json');

describe('rollback interrupted', () => {
  let season: string;
  let expected: ReturnType<typeof rolledBack>;
  beforeAll(async () => {
    season = await makeWorld('rb-int');
    const run = await cli(['season', 'run', '--count', '3'], season);
    expect(run.code, run.stderr).toBe(0);
    const whole = copyRepo(season, 'rb-int-whole');
    const r = await spawnCli(['rollback', 's01e02'], whole);
    expect(r.code, r.stderr).toBe(0);
    expected = rolledBack(whole);
    expect(expected.tags).toEqual(['rolledback/s01e02/' + git(season, 'rev-parse', 's01e02^{commit}').slice(0, 10), 'rolledback/s01e03/' + git(season, 'rev-parse', 's01e03^{commit}').slice(0, 10), 's01e01']);
  }, 300_000);

  it('a Ctrl-C before the switch changes nothing and says so (exit 130, AUR6036); the same rollback then runs', async () => {
    const root = copyRepo(season, 'rb-int-built');
    const before = snapshot(root);
    const r = await spawnCli(['rollback', 's01e02'], root, { AUREUS_TEST_SIGINT_AT: 'rollback-built' });
    expect(r.code).toBe(130);
    expect(r.stderr).toContain('AUR6036 interrupted: the rollback of s01e02 was stopped before it changed anything');
    expect(r.stderr).toContain('HEAD, the index, the work tree and the tags are as they were');
    expect(r.stdout).toBe('');
    expect(snapshot(root)).toEqual(before);
    expect(fs.existsSync(journal(root))).toBe(false);
    expect(fs.existsSync(path.join(root, '.git', 'aureus-revert-index'))).toBe(false);

    const again = await spawnCli(['rollback', 's01e02'], root);
    expect(again.code, again.stderr).toBe(0);
    expect(rolledBack(root)).toEqual(expected);
  }, 120_000);

  it('a Ctrl-C in the switch lets it finish: fully rolled back, exit 0, and it says so', async () => {
    const root = copyRepo(season, 'rb-int-switch');
    const r = await spawnCli(['rollback', 's01e02'], root, { AUREUS_TEST_SIGINT_AT: 'rollback-journaled' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('the interrupt came during the rollback\'s switch, which is atomic: it was finished first');
    expect(r.stdout).toContain('rolled back s01e02: 2 commits reverted');
    expect(rolledBack(root)).toEqual(expected);
    expect(fs.existsSync(journal(root))).toBe(false);
  }, 120_000);

  it('a kill in the switch is named by status, refused by episode run, note and branch (AUR6037), and finished by the same rollback', async () => {
    const root = copyRepo(season, 'rb-int-kill');
    const killed = await spawnCli(['rollback', 's01e02'], root, { AUREUS_TEST_KILL_AT: 'rollback-moved' });
    expect(killed.signal).toBe('SIGKILL');
    expect(fs.existsSync(journal(root))).toBe(true);

    const status = await spawnCli(['status'], root);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain('the rollback of s01e02 was interrupted: `aureus rollback s01e02` finishes it');
    expect(JSON.parse((await spawnCli(['status', '--json'], root)).stdout).interrupted_rollback).toBe('s01e02');

    const stuck = snapshot(root);
    const run = await spawnCli(['episode', 'run'], root);
    expect(run.code).toBe(10);
    expect(run.stderr).toContain('AUR6037 the rollback of s01e02 was interrupted before it finished');
    expect(run.stderr).toContain('`aureus rollback s01e02` finishes it');
    expect(snapshot(root)).toEqual(stuck);
    // The other commands that commit refuse too: a note or a branch taken on the half-moved HEAD
    // would strand the journal's expected HEAD, and the rollback could no longer be finished.
    for (const args of [['note', 'The trial must feel close to collapse'], ['branch', 'whatif', '--from', 's01e01'], ['branch', 'whatif', '--from', 's01e01', '--set', 'characters.varo.status=exiled']]) {
      const r = await spawnCli(args, root);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(10);
      expect(r.stderr).toContain('AUR6037 the rollback of s01e02 was interrupted before it finished');
      expect(snapshot(root)).toEqual(stuck);
    }

    const again = await spawnCli(['rollback', 's01e02'], root);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('AUR6038 finished the interrupted rollback of s01e02 from its journal');
    expect(again.stdout).toContain('rolled back s01e02: 2 commits reverted');
    expect(rolledBack(root)).toEqual(expected);
    expect(fs.existsSync(journal(root))).toBe(false);
  }, 120_000);

  it('a kill that left the switch\'s files half written is finished too: they are the switch\'s own', async () => {
    const root = copyRepo(season, 'rb-int-half');
    const killed = await spawnCli(['rollback', 's01e02'], root, { AUREUS_TEST_KILL_AT: 'rollback-journaled' });
    expect(killed.signal).toBe('SIGKILL');
    // As git's checkout cut by the kill would leave them: one file cut short, one removed, one written.
    fs.writeFileSync(path.join(root, 'world/world.json'), '{"wor');
    fs.rmSync(path.join(root, 'seasons/season_01/episode_03/episode_plan.json'));
    const again = await spawnCli(['rollback', 's01e02'], root);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('AUR6038 finished the interrupted rollback of s01e02 from its journal (the files the kill left half moved were rewritten');
    expect(rolledBack(root)).toEqual(expected);
  }, 120_000);

  it('a damaged journal refuses status (exit 3, AUR6039) and is left as it is', async () => {
    const root = copyRepo(season, 'rb-int-damaged');
    fs.writeFileSync(journal(root), '{"version": 1');
    const r = await spawnCli(['status'], root);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('AUR6039 the rollback journal');
    expect(fs.readFileSync(journal(root), 'utf8')).toBe('{"version": 1');
  }, 120_000);
});
