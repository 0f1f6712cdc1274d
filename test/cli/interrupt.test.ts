import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { steps } from '../support/fake-anthropic-server.js';
import { useFakeAnthropic } from '../support/use-fake-anthropic.js';
import { BIN, cleanup, cli, git, makeWorld, tempDir } from '../pipeline/world.js';

/**
 * Ctrl-C on a real terminal (tmux) and in a pipe: exit 130 with a message, no .aureus/lock left,
 * and the same command resumes to a committed episode. The run is held in stage B by a local
 * Messages API that never answers, so the interrupt lands mid-run every time.
 */
const TMUX = spawnSync('tmux', ['-V']).status === 0;
if (!TMUX) console.warn('interrupt.test.ts: tmux is not installed (apt-get install tmux): the terminal Ctrl-C tests are skipped');

const server = useFakeAnthropic({ handler: () => steps.hang() });
afterEach(cleanup);

async function until(cond: () => boolean, what: string, ms = 30_000): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function interruptIn(session: string, root: string, shell: string): Promise<{ code: number; screen: string }> {
  const out = path.join(tempDir('intr-out'), 'exit');
  const before = server.requests.length;
  const env = `env -u CI -u NO_COLOR ANTHROPIC_API_KEY=sk-ant-test ANTHROPIC_BASE_URL=${server.url}`;
  const script = `cd '${root}' && ${shell.replace('RUN', `${env} node '${BIN}' episode run`)}; echo $CODE > '${out}'; sleep 30`;
  execFileSync('tmux', ['new-session', '-d', '-s', session, '-x', '120', '-y', '40', 'bash', '-c', script]);
  try {
    await until(() => server.requests.length > before, 'the run to reach the provider');
    await new Promise((r) => setTimeout(r, 300));
    execFileSync('tmux', ['send-keys', '-t', session, 'C-c']);
    await until(() => fs.existsSync(out) && fs.readFileSync(out, 'utf8').trim() !== '', 'the run to exit');
    const screen = execFileSync('tmux', ['capture-pane', '-p', '-t', session], { encoding: 'utf8' });
    return { code: Number(fs.readFileSync(out, 'utf8').trim()), screen };
  } finally {
    spawnSync('tmux', ['kill-session', '-t', session]);
  }
}

describe.skipIf(!TMUX)('Ctrl-C during episode run', () => {
  for (const [label, shell] of [
    ['on a terminal (listr progress)', 'RUN; CODE=$?'],
    ['in a pipe (stdout piped, plain progress)', 'RUN | cat; CODE=${PIPESTATUS[0]}'],
  ] as const) {
    it(`${label}: exits 130 with a message, releases the lock, and the run resumes`, async () => {
      const root = await makeWorld('intr');
      const head = git(root, 'rev-parse', 'HEAD');
      const r = await interruptIn(`aureus-intr-${process.pid}-${label.length}`, root, shell);
      expect(r.code).toBe(130);
      expect(r.screen).toMatch(/interrupted/);
      expect(r.screen).toMatch(/resum/);
      expect(fs.existsSync(path.join(root, '.aureus/lock'))).toBe(false);
      expect(git(root, 'rev-parse', 'HEAD')).toBe(head);
      expect(git(root, 'status', '--porcelain')).toBe('');
      // The same command (offline now) resumes and commits.
      const again = await cli(['episode', 'run'], root);
      expect(again.stderr).not.toMatch(/lock/i);
      expect(again.code).toBe(0);
      expect(git(root, 'tag', '--list')).toContain('s01e01');
    }, 90_000);
  }

  it('a whole run on a terminal draws every stage and commits (exit 0)', async () => {
    const root = await makeWorld('tty');
    const out = path.join(tempDir('tty-out'), 'exit');
    const session = `aureus-tty-${process.pid}`;
    execFileSync('tmux', ['new-session', '-d', '-s', session, '-x', '120', '-y', '60', 'bash', '-c', `cd '${root}' && env -u CI -u NO_COLOR -u ANTHROPIC_API_KEY node '${BIN}' episode run; echo $? > '${out}'; sleep 30`]);
    try {
      await until(() => fs.existsSync(out) && fs.readFileSync(out, 'utf8').trim() !== '', 'the run to exit', 120_000);
      const screen = execFileSync('tmux', ['capture-pane', '-p', '-t', session, '-S', '-200'], { encoding: 'utf8' });
      expect(Number(fs.readFileSync(out, 'utf8').trim()), screen).toBe(0);
      for (const stage of ['A  snapshot', 'B  agent proposals', 'C  director plan', 'D  scene packets', 'E–G write, verify, repair', 'H  deltas, recap, cliffhanger', 'commit and tag']) expect(screen).toMatch(new RegExp(`✔ +${stage}`));
      expect(screen).not.toMatch(/internal error|null/);
    } finally {
      spawnSync('tmux', ['kill-session', '-t', session]);
    }
  }, 150_000);
});
