import { execFileSync, spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, builtCli, cleanup, copyRepo, git, makeWorld } from '../pipeline/world.js';
import { startFakeAnthropic, steps } from '../support/fake-anthropic-server.js';
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

  it('--json: Ctrl-C ends the stream with an error event (exit 130) after done', async () => {
    const w = copyRepo(base, 'play-tty-json');
    const cmd = `cd '${w}' && NO_COLOR=1 ANTHROPIC_API_KEY= '${process.execPath}' '${BIN}' play --as cicero --at forum --with catiline --mode open --session tty3 --json; echo EXIT=$?; sleep 30`;
    tmux('new-session', '-d', '-s', 'json', '-x', '160', '-y', '50', cmd);
    // -J joins the rows a long event wraps onto: one event per line, as a reader of the pipe gets them.
    const scr = () => tmux('capture-pane', '-p', '-J', '-t', 'json', '-S', '-200');
    await until(() => /^> ?$/m.test(scr()));
    tmux('send-keys', '-t', 'json', 'Catiline, where were you', 'Enter');
    await until(() => scr().includes('"type":"message_complete"'));
    tmux('send-keys', '-t', 'json', 'C-c');
    await until(() => scr().includes('EXIT=130'));
    const shown = scr().split('\n');
    const events = shown.slice(0, shown.findIndex((l) => l.startsWith('EXIT='))).map((l) => l.replace(/^> /, '')).filter((l) => l.startsWith('{'));
    expect(events.slice(-2).map((l) => JSON.parse(l) as { type: string })).toEqual([
      { type: 'done', session: 'tty3', turns: 1 },
      { type: 'error', message: 'interrupted: session tty3 is paused; `aureus play --resume tty3` continues it', exit_code: 130, codes: ['AUR6008'], session: 'tty3' },
    ]);
  });

  it('shows a model line as it streams, then the whole line once', async () => {
    const server = await startFakeAnthropic();
    try {
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const answer = { speaker: 'catiline', action: 'laughs', dialogue: 'Where I was is my affair, Consul, and where I go next is [DIRECTIVE:beat|beat:complication] none of yours either.', internal: 'x', mood: 'amused', tension_shift: 0.1 };
      const text = JSON.stringify(answer);
      const after = Math.floor(text.indexOf('[DIRECTIVE') / 40) + 1;
      server.handler = (req) => (JSON.stringify(req.body?.system ?? '').includes('Classify the narrative beat') ? steps.ok('{"beat":"establishment"}') : steps.ok(text, { hold: { after, until: gate } }));
      const w = copyRepo(base, 'play-tty-stream');
      const cmd = `cd '${w}' && NO_COLOR=1 ANTHROPIC_API_KEY=sk-ant-test ANTHROPIC_BASE_URL=${server.url} '${process.execPath}' '${BIN}' play --as cicero --at forum --with catiline --mode open --session tty2; echo EXIT=$?; sleep 30`;
      tmux('new-session', '-d', '-s', 'stream', '-x', '160', '-y', '50', cmd);
      const scr = () => tmux('capture-pane', '-p', '-t', 'stream', '-S', '-200');
      await until(() => /^> ?$/m.test(scr()));
      tmux('send-keys', '-t', 'stream', 'Catiline, where were you?', 'Enter');
      // Part of the line is on screen while the server holds the rest.
      await until(() => scr().includes('CATILINE: *laughs* "Where I was is my affair, Consul,'));
      expect(scr()).not.toMatch(/none of yours|DIRECTIVE|\[/);
      release();
      await until(() => scr().includes('none of yours either."'));
      const full = 'CATILINE: *laughs* "Where I was is my affair, Consul, and where I go next is none of yours either."';
      expect(scr().split('\n').filter((l) => l.startsWith('CATILINE:'))).toEqual([full]);
      tmux('send-keys', '-t', 'stream', '/end', 'Enter');
      await until(() => scr().includes('EXIT=0'));
      expect(records(w, 'tty2').find((r) => r.type === 'actor')?.content).toBe(full);
    } finally {
      await server.close();
    }
  });
});
