import { execFileSync, spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, builtCli, cleanup, copyRepo, git, makeWorld } from '../pipeline/world.js';
import { records, until } from './support.js';

/**
 * The terminal REPL, driven through tmux: type into a real pty, read the screen. Skips with a
 * message when tmux is not installed (apt-get install tmux).
 */
const hasTmux = spawnSync('tmux', ['-V']).status === 0;
if (!hasTmux) console.warn('test/play/play-tmux.test.ts skipped: tmux is not installed (apt-get install tmux)');

describe.skipIf(!hasTmux || !builtCli())('aureus play on a terminal (tmux)', () => {
  const sock = `aureus-play-${process.pid}`;
  const tmux = (...a: string[]) => execFileSync('tmux', ['-L', sock, ...a], { encoding: 'utf8' });
  const screen = () => tmux('capture-pane', '-p', '-t', 'play', '-S', '-200');
  let base: string;
  beforeAll(async () => {
    base = await makeWorld('play-tmux');
  });
  afterAll(() => {
    spawnSync('tmux', ['-L', sock, 'kill-server']);
    cleanup();
  });

  it('prompts, answers each line, edits the line, and Ctrl-C pauses resumably', async () => {
    const w = copyRepo(base, 'play-tty');
    const cmd = `cd '${w}' && NO_COLOR=1 ANTHROPIC_API_KEY= '${process.execPath}' '${BIN}' play --as cicero --at forum --with catiline --mode open --session tty1; echo EXIT=$?; sleep 30`;
    tmux('new-session', '-d', '-s', 'play', '-x', '160', '-y', '50', cmd);
    await until(() => screen().includes('/help for commands'));
    await until(() => /^> ?$/m.test(screen()));
    tmux('send-keys', '-t', 'play', 'Catiline, where were you', 'Enter');
    await until(() => /CATILINE: \*/.test(screen()));
    // Line editing: type, erase a word with backspaces, finish the line.
    tmux('send-keys', '-t', 'play', 'Tell me the truthXXX');
    tmux('send-keys', '-t', 'play', 'BSpace', 'BSpace', 'BSpace', '?', 'Enter');
    await until(() => (screen().match(/CATILINE: \*/g) ?? []).length >= 2);
    tmux('send-keys', '-t', 'play', '/status', 'Enter');
    await until(() => screen().includes('turn 2 · beat'));
    tmux('send-keys', '-t', 'play', 'C-c');
    await until(() => screen().includes('EXIT=130'));
    expect(screen()).toContain('aureus play --resume tty1');
    expect(screen()).not.toMatch(/DIRECTIVE|director_brief/);
    const users = records(w, 'tty1').filter((r) => r.type === 'user').map((r) => r.text);
    expect(users).toEqual(['Catiline, where were you', 'Tell me the truth?']);
    expect(git(w, 'rev-list', '--count', 'HEAD')).toBe('1');
  });
});
