import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli, cleanup, copyRepo, git, spawnCli } from '../pipeline/world.js';
import { stagedEpisode, type Staged } from './staged-episode.js';

/**
 * `scene rewrite` interrupted once its nonce is spent, before a draft of it is recorded. Ctrl-C's
 * abort reason (an Error named after the signal) escaped as "internal error: SIGINT … This is a bug"
 * (exit 1), and the rewrite was counted before its call: `episode review` showed `rewritten ×1`,
 * `status` listed the scene as rewritten and `episode commit` committed the model's original text
 * with `Aureus-Rewritten`. Now: exit 130 with AUR6008, and "rewritten" is what the scenes checkpoint
 * holds; the spent nonce still makes the next rewrite a new call.
 */
const SCRIPT = 'seasons/season_01/episode_01/episode_script.md';
let s: Staged;
beforeAll(async () => {
  s = await stagedEpisode('rewrite-interrupt', ['--seed', '7']);
}, 240_000);
afterAll(cleanup);

type ReviewJson = { scenes: { id: string; rewrites: number }[] };
const record = (w: string) => JSON.parse(fs.readFileSync(path.join(w, '.aureus/review.json'), 'utf8')) as { scenes: Record<string, { rewrites: number; nonce?: number; notes: string[] }> };

async function rewrites(w: string, id: string): Promise<number> {
  const r = await spawnCli(['episode', 'review', '--json'], w);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as ReviewJson).scenes.find((x) => x.id === id)!.rewrites;
}

describe.skipIf(!builtCli())('scene rewrite interrupted before a draft', () => {
  it('Ctrl-C: exit 130 (AUR6008), nothing counted as rewritten; the next rewrite is a new call and is counted', async () => {
    const w = copyRepo(s.root, 'rewrite-interrupt-int');
    const r = await spawnCli(['scene', 'rewrite', 'SC05', '--note', 'Colder.'], w, { AUREUS_TEST_SIGINT_AT: 'rewrite-nonce' });
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain('AUR6008 interrupted during the rewrite of SC05');
    expect(r.stderr).toContain('SC05 keeps its text');
    expect(r.stderr).not.toContain('internal error');
    expect(record(w).scenes.SC05).toMatchObject({ rewrites: 0, nonce: 1, notes: [] });
    expect(await rewrites(w, 'SC05')).toBe(0);
    const status = await spawnCli(['status', '--json'], w);
    expect(JSON.parse(status.stdout).staged_for_review.rewritten).toEqual([]);
    // Asked again: a fresh nonce (rewrite/2), adopted and counted once.
    const again = await spawnCli(['scene', 'rewrite', 'SC05', '--note', 'Colder.', '--json'], w);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).adopted).toBe(true);
    expect(record(w).scenes.SC05).toMatchObject({ rewrites: 1, nonce: 2, notes: ['Colder.'] });
    expect(await rewrites(w, 'SC05')).toBe(1);
    const commit = await spawnCli(['episode', 'commit'], w);
    expect(commit.code, commit.stderr).toBe(0);
    expect(git(w, 'log', '-1', '--format=%B')).toContain('Aureus-Rewritten: SC05');
  }, 240_000);

  it('killed once the nonce is spent: the commit holds the original text and no Aureus-Rewritten', async () => {
    const w = copyRepo(s.root, 'rewrite-interrupt-kill');
    const original = fs.readFileSync(s.script, 'utf8');
    const killed = await spawnCli(['scene', 'rewrite', 'SC05', '--note', 'Colder.'], w, { AUREUS_TEST_KILL_AT: 'rewrite-nonce' });
    expect(killed.signal, killed.stderr.slice(-400)).toBe('SIGKILL');
    expect(await rewrites(w, 'SC05')).toBe(0);
    const commit = await spawnCli(['episode', 'commit'], w);
    expect(commit.code, commit.stderr).toBe(0);
    const section = (t: string) => /## SC05[\s\S]*?(?=\n## SC06)/.exec(t)![0];
    expect(section(git(w, 'show', `HEAD:${SCRIPT}`))).toBe(section(original));
    const message = git(w, 'log', '-1', '--format=%B');
    expect(message).toContain('Aureus-Reviewed: yes');
    expect(message).not.toContain('Aureus-Rewritten');
  }, 240_000);
});
