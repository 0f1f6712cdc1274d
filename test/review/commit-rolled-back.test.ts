import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, cli, copyRepo, git } from '../pipeline/world.js';
import { stagedEpisode } from './staged-episode.js';

/**
 * `episode commit` of a staged review that git refuses (a stale .git/index.lock) is rolled back:
 * world, git and the staged review stay exactly as they were before the commit began — its stage/
 * folder included, which the roll-back used to delete, so the retry read every staged file as
 * deleted (AUR6111). With the lock removed, the retry commits the tree an unrefused commit makes.
 */
let staged = '';
let wholeTree = '';
beforeAll(async () => {
  staged = (await stagedEpisode('commit-rolled-back', ['--seed', '7'])).root;
  const whole = copyRepo(staged, 'commit-rolled-back-whole');
  const c = await cli(['episode', 'commit'], whole);
  if (c.code !== 0) throw new Error(c.stderr);
  wholeTree = git(whole, 'rev-parse', 'HEAD^{tree}');
}, 180_000);
afterAll(cleanup);

/** Every file under `dir` with a hash of its bytes, by path (the run's calls/ and the derived index are caches). */
function files(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rel of fs.readdirSync(dir, { recursive: true }) as string[]) {
    const abs = path.join(dir, rel);
    if (/^index\/|\/calls\//.test(rel.split(path.sep).join('/')) || !fs.statSync(abs).isFile()) continue;
    out[rel] = createHash('sha256').update(fs.readFileSync(abs)).digest('hex');
  }
  return out;
}

describe('episode commit rolled back by a stale .git/index.lock', () => {
  it('keeps the staged review (stage/ and all) as it was; the retry without the lock commits cleanly', async () => {
    const w = copyRepo(staged, 'commit-rolled-back-lock');
    const head = git(w, 'rev-parse', 'HEAD');
    const review = files(path.join(w, '.aureus'));
    expect(Object.keys(review).filter((f) => f.split(path.sep).includes('stage')).length).toBeGreaterThan(20);
    fs.writeFileSync(path.join(w, '.git/index.lock'), '');
    const refused = await cli(['episode', 'commit'], w);
    expect(refused.code, refused.stderr).toBe(10);
    expect(refused.stderr).toContain('AUR6052 the commit of s01e01 failed and was rolled back');
    expect(git(w, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(w, 'tag', '--list')).toBe('');
    expect(files(path.join(w, '.aureus'))).toEqual(review);
    fs.rmSync(path.join(w, '.git/index.lock'));
    expect(git(w, 'status', '--porcelain')).toBe('');
    const retry = await cli(['episode', 'commit'], w);
    expect(retry.code, retry.stderr).toBe(0);
    expect(retry.stderr).not.toContain('AUR6111');
    expect(git(w, 'tag', '--list')).toBe('s01e01');
    expect(git(w, 'rev-parse', 'HEAD^{tree}')).toBe(wholeTree);
    expect(fs.existsSync(path.join(w, '.aureus/review.json'))).toBe(false);
  }, 120_000);
});
