import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, builtCli, cleanup, cli, git, makeWorld } from '../pipeline/world.js';

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
    expect(r.stderr).toMatch(/AUR6008 interrupted during [^\n]*\n\s*hint: nothing of the episode it stopped in was committed; `aureus season run --count 2` continues it where it stopped\n/);
    expect(r.stderr).toMatch(/AUR6028 1 of the 3 episodes asked stays committed \(s01e01\)/);
    expect(r.stderr).toContain('`aureus season run --count 2` finishes the season');
    const rest = await cli(['season', 'run', '--count', '2'], root);
    expect(rest.code, rest.stderr).toBe(0);
    expect(git(root, 'tag', '--list', 's01e*').split('\n')).toEqual(['s01e01', 's01e02', 's01e03']);
  }, 300_000);
});
