import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, builtCli, cleanup, cli, copyRepo, git, makeWorld, spawnCli } from '../pipeline/world.js';

/**
 * Ctrl-C during a season's second episode: the first stays committed, and what the user is told to
 * run next finishes the season they asked for (three episodes), not three more.
 */
let root = '';
beforeAll(async () => {
  root = await makeWorld('season-interrupt');
}, 120_000);
afterAll(cleanup);

/** `season run --count 3`, sent SIGINT once its first episode's summary (committed, tagged) is printed. */
function interruptedAfterFirst(cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.ANTHROPIC_API_KEY;
  const child = spawn(process.execPath, [BIN, 'season', 'run', '--count', '3'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let sent = false;
  child.stdout.on('data', (d) => {
    stdout += d;
    if (!sent && /tag s01e01/.test(stdout)) {
      sent = true;
      child.kill('SIGINT');
    }
  });
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe.skipIf(!builtCli())('season run interrupted after its first episode', () => {
  it('says the committed episode stays and which --count finishes the season; that command does', async () => {
    const r = await interruptedAfterFirst(root);
    expect(r.code, r.stderr).toBe(130);
    expect(git(root, 'tag', '--list', 's01e*')).toBe('s01e01');
    expect(git(root, 'status', '--porcelain')).toBe('');
    expect(r.stderr).toContain('AUR6008');
    // Its hint is true of a season: what it says of nothing committed is of the episode it stopped in.
    expect(r.stderr).not.toContain('nothing was committed');
    expect(r.stderr).toMatch(/AUR6008 interrupted during [^\n]* of s01e02\n\s*hint: nothing of the episode it stopped in was committed; `aureus season run --count 2` continues it where it stopped\n/);
    expect(r.stderr).toMatch(/AUR6028 1 of the 3 episodes asked stays committed \(s01e01\)/);
    expect(r.stderr).toContain('`aureus season run --count 2` finishes the season');
    const rest = await cli(['season', 'run', '--count', '2'], root);
    expect(rest.code, rest.stderr).toBe(0);
    expect(git(root, 'tag', '--list', 's01e*').split('\n')).toEqual(['s01e01', 's01e02', 's01e03']);
  }, 300_000);
});

/**
 * Ctrl-C during an episode's commit (a real SIGINT the CLI sends itself once the commit is made,
 * AUREUS_TEST_SIGINT_AT): the commit is atomic and finished first, as `episode run` says. Before the
 * fix a season said "The run stays resumable." and then "AUR6008 interrupted during planning" of an
 * episode it never began (also in --json's message).
 */
describe.skipIf(!builtCli())('season run interrupted during a commit', () => {
  // A world of its own: the test above commits episodes in `root`.
  let pristine = '';
  beforeAll(async () => {
    pristine = await makeWorld('season-intr-commit');
  }, 120_000);
  const COMMIT_NOTICE = 'stopping at the next safe point (Ctrl-C again to quit now). The commit under way is atomic: it is finished first.';

  it('says the commit is finished first, reports the episode, and stops the season after it (130)', async () => {
    const w = copyRepo(pristine, 'season-intr-commit-text');
    const r = await spawnCli(['season', 'run', '--count', '4'], w, { AUREUS_TEST_SIGINT_AT: 'commit-committed' });
    expect(r.code, r.stderr).toBe(130);
    expect(git(w, 'tag', '--list', 's01e*')).toBe('s01e01');
    expect(r.stderr).toContain(COMMIT_NOTICE);
    expect(r.stderr).not.toContain('The run stays resumable');
    expect(r.stderr).not.toContain('interrupted during');
    expect(r.stdout).toMatch(/✓ committed S01E01[\s\S]*tag s01e01/);
    expect(r.stderr).toMatch(/AUR6030 interrupted: the season stopped after s01e01, which is committed and tagged; its next episode was not begun\n\s*hint: `aureus season run --count 3` continues it with the next episode\n/);
    expect(git(w, 'status', '--porcelain')).toBe('');
  }, 180_000);

  it('with --json the error names the episode it stopped after; the last episode asked ends 0', async () => {
    const w = copyRepo(pristine, 'season-intr-commit-json');
    const r = await spawnCli(['season', 'run', '--count', '2', '--json'], w, { AUREUS_TEST_SIGINT_AT: 'commit-committed' });
    expect(r.code, r.stderr).toBe(130);
    const doc = JSON.parse(r.stdout);
    expect(doc.error.codes).toEqual(['AUR6030']);
    expect(doc.error.message).toContain('the season stopped after s01e01');
    expect(doc.episodes.map((e: { tag: string }) => e.tag)).toEqual(['s01e01']);
    // The interrupt during the last episode's commit: the season is done, said as `episode run` says it.
    const last = await spawnCli(['season', 'run', '--count', '1'], w, { AUREUS_TEST_SIGINT_AT: 'commit-committed' });
    expect(last.code, last.stderr).toBe(0);
    expect(last.stderr).toContain(COMMIT_NOTICE);
    expect(last.stderr).toMatch(/the commit was finished first: s01e02 is committed \([0-9a-f]{12}\) and tagged s01e02\. Nothing is left to resume\./);
    expect(git(w, 'tag', '--list', 's01e*').split('\n')).toEqual(['s01e01', 's01e02']);
  }, 180_000);
});
