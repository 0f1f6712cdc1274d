import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli, cleanup, copyRepo, git, spawnCli } from '../pipeline/world.js';
import { authorEdit, stagedEpisode, type Staged } from './staged-episode.js';

/**
 * A reviewed episode committed by a plain `episode run` or `season run` (README: "a later plain run
 * commits it"), not `episode commit`: the same tree, with the author's SC03, but only `episode
 * commit` passed the review trailers, so the others committed the author's text without
 * Aureus-Edited (and without Aureus-Reviewed). The commit step now computes them for every path.
 */
const LINE = 'Cato waits until the footsteps fade, then breathes.';
const SCRIPT = 'seasons/season_01/episode_01/episode_script.md';
let s: Staged;
let edited = '';
beforeAll(async () => {
  s = await stagedEpisode('plain-run-trailers', ['--seed', '7']);
  edited = copyRepo(s.root, 'plain-run-trailers-edited');
  const r = await spawnCli(['scene', 'edit', 'SC03', '--from', authorEdit(s, 'SC03', 'SC04', LINE)], edited);
  if (r.code !== 0) throw new Error(r.stderr);
}, 240_000);
afterAll(cleanup);

/** The first episode's commit message (`season run --count 2` commits a second one after it). */
const messageOf = (w: string) => git(w, 'log', '-1', '--format=%B', 's01e01');

describe.skipIf(!builtCli())('a staged episode committed by a plain run', () => {
  const commands: [string, string[]][] = [['episode commit', ['episode', 'commit']], ['episode run', ['episode', 'run', '--seed', '7']], ['season run', ['season', 'run', '--count', '1', '--seed', '7']]];
  for (const [name, args] of commands) {
    it(`${name}: Aureus-Reviewed and Aureus-Edited with the author's text`, async () => {
      const w = copyRepo(edited, `plain-run-trailers-${name.replace(' ', '-')}`);
      const r = await spawnCli(args, w);
      expect(r.code, r.stderr).toBe(0);
      expect(git(w, 'show', `s01e01:${SCRIPT}`)).toContain(LINE);
      const message = messageOf(w);
      expect(message).toContain('Aureus-Reviewed: yes');
      expect(message).toContain('Aureus-Edited: SC03 (author: human)');
    }, 240_000);
  }

  it('season run adopting a hand edit of the staged script (AUR6107): Aureus-Edited names it', async () => {
    const w = copyRepo(s.root, 'plain-run-trailers-hand');
    const script = s.script.replace(s.root, w);
    const text = fs.readFileSync(script, 'utf8');
    const at = text.indexOf('\n## SC04');
    fs.writeFileSync(script, `${text.slice(0, at).trimEnd()}\n\n${LINE}\n${text.slice(at)}`);
    const r = await spawnCli(['season', 'run', '--count', '2', '--seed', '7'], w);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('AUR6107 adopted the hand edit of SC03');
    expect(git(w, 'show', `s01e01:${SCRIPT}`)).toContain(LINE);
    expect(messageOf(w)).toContain('Aureus-Edited: SC03 (author: human)');
  }, 240_000);

  it('a plain run of an episode never staged carries no review trailer', async () => {
    const w = copyRepo(s.root, 'plain-run-trailers-none');
    fs.rmSync(`${w}/.aureus`, { recursive: true, force: true });
    const r = await spawnCli(['episode', 'run', '--seed', '7'], w);
    expect(r.code, r.stderr).toBe(0);
    expect(messageOf(w)).not.toMatch(/Aureus-(Reviewed|Edited|Rewritten|Pinned)/);
  }, 240_000);
});
