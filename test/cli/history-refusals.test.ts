import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STACK_TRACE } from './helpers.js';
import { cleanup, cli, copyRepo, git, makeWorld } from '../pipeline/world.js';

afterAll(cleanup);

/**
 * The refusals of the commands that read a world's history (export, recap, diff, branch, rollback)
 * and of a commit that cannot write over an episode file, each with its catalog code, exit code and
 * nothing changed. These codes were in the catalog with no test naming them.
 */
describe('history refusals', () => {
  let w = '';
  beforeAll(async () => {
    w = await makeWorld('hist-refusals');
    const r = await cli(['episode', 'run', '--seed', '7'], w);
    expect(r.code, r.stderr.slice(-800)).toBe(0);
  }, 240_000);

  const refused = (r: { code: number; stderr: string }, exit: number, text: string) => {
    expect(r.code, r.stderr).toBe(exit);
    expect(r.stderr).toContain(text);
    expect(r.stderr).not.toMatch(STACK_TRACE);
  };

  it('an episode never committed (AUR6006), an unknown ref (AUR6012), an unknown export format (AUR6017): exit 2', async () => {
    refused(await cli(['export', 's01e05'], w), 2, 'error AUR6006 episode s01e05 has not been committed (no tag s01e05)');
    refused(await cli(['recap', 's01e05'], w), 2, 'error AUR6006 episode s01e05 has not been committed');
    refused(await cli(['diff', 'main', 'no-such-ref'], w), 2, 'error AUR6012 unknown episode or ref: "no-such-ref"');
    refused(await cli(['export', 's01e01', '--format', 'pdf'], w), 2, 'error AUR6017 unknown export format "pdf"');
  });

  it('a branch name git refuses, or one that exists: AUR6013, exit 2, HEAD and branches unchanged', async () => {
    const head = git(w, 'rev-parse', 'HEAD');
    const branches = git(w, 'branch', '--list');
    refused(await cli(['branch', 'bad name', '--from', 's01e01'], w), 2, 'error AUR6013 cannot create branch "bad name": not a valid git branch name');
    refused(await cli(['branch', 'main', '--from', 's01e01'], w), 2, 'error AUR6013 cannot create branch "main": a branch with that name exists');
    expect(git(w, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(w, 'branch', '--list')).toBe(branches);
  });

  it('rolling back an episode committed on another line: AUR6014 naming its tag, exit 2, nothing reverted', async () => {
    const r = copyRepo(w, 'hist-other-line');
    git(r, 'checkout', '-q', '-b', 'other', git(r, 'rev-list', '--max-parents=0', 'HEAD'));
    const head = git(r, 'rev-parse', 'HEAD');
    const out = await cli(['rollback', 's01e01'], r);
    refused(out, 2, 'error AUR6014 episode s01e01 is not in the history of the current branch');
    // One hint, naming the branch that holds the episode (there were two: the catalog's and the tag's).
    expect(out.stderr).toContain('hint: tag s01e01 is on another line, branch main: switch to it first (git switch main)');
    expect(out.stderr.match(/hint:/g)).toHaveLength(1);
    expect(git(r, 'rev-parse', 'HEAD')).toBe(head);
  });

  it('a committed episode without its recap.md or script: AUR6019 naming the file, exit 3', async () => {
    const r = copyRepo(w, 'hist-missing');
    const dir = 'seasons/season_01/episode_01';
    git(r, 'rm', '-q', `${dir}/recap.md`);
    git(r, 'commit', '-q', '-m', 'drop the recap');
    git(r, 'tag', '-f', 's01e01');
    refused(await cli(['recap', 's01e01'], r), 3, `error AUR6019 the episode folder ${dir} is missing recap.md`);
    git(r, 'rm', '-q', `${dir}/episode_script.md`);
    git(r, 'commit', '-q', '-m', 'drop the script');
    git(r, 'tag', '-f', 's01e01');
    refused(await cli(['export', 's01e01', '-o', '-'], r), 3, `error AUR6019 the episode folder ${dir} is missing episode_script.md`);
  });

  it('an episode file the commit would write is a folder: AUR6051, exit 10, no tag, the world as it was', async () => {
    const r = await makeWorld('hist-eisdir');
    const world = git(r, 'rev-parse', 'HEAD:world');
    fs.mkdirSync(path.join(r, 'seasons/season_01/episode_01/recap.md'), { recursive: true });
    refused(await cli(['episode', 'run', '--seed', '7'], r), 10, 'error AUR6051 cannot commit over seasons/season_01/episode_01/recap.md: EISDIR');
    expect(git(r, 'tag', '--list')).toBe('');
    expect(git(r, 'status', '--porcelain', 'world')).toBe('');
    expect(git(r, 'rev-parse', 'HEAD:world')).toBe(world);
  }, 240_000);
});
