import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtCli, copyRepo, git } from '../pipeline/world.js';
import { steps } from '../support/fake-anthropic-server.js';
import { isActor, playHandler, usePlayModel } from '../support/play-model.js';
import { playScript, records, startPlay, until } from './support.js';

/**
 * Ctrl-C (SIGINT) and SIGTERM with piped stdio (a script, an editor, `play --json | jq`): the
 * contract of the terminal — the turn in progress ends, `done` is written, the session pauses with
 * exit 130 and resumes with the same state. A turn in flight is an Actor call the fake Messages API
 * holds until the signal is in; a canonization in flight is reached by the test-only
 * `AUREUS_TEST_SIGINT_AT` hook (src/pipeline/checkpoint.ts), which sends real SIGINTs.
 */
const LINE = 'Catiline, where were you last night?';
const ARGS = ['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--mode', 'open'];

/** stdout's lines, each parsed as JSON (a line that is not throws). */
const events = (stdout: string) => stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string; [k: string]: unknown });

const pendingProposals = (w: string, session: string) => records(w, session).filter((r) => r.type === 'proposal').length;

/** A session that answered LINE, then got `sig` while waiting for its next line (stdin still open). */
async function interruptedAfterOneTurn(w: string, args: string[], sig: NodeJS.Signals) {
  const p = startPlay(args, w);
  p.child.stdin.write(LINE + '\n');
  await until(() => /^CATILINE: |"type":"message_complete"/m.test(p.out()));
  p.child.kill(sig);
  const code = await p.closed;
  return { code, stdout: p.out(), stderr: p.err() };
}

describe.skipIf(!builtCli())('aureus play interrupted with piped stdio', () => {
  const { server, base, env } = usePlayModel('play-interrupt');

  /**
   * A session on a copy of the world whose Actor begins its answer `line` (its action and the first
   * words of its dialogue, shown as a chunk) and finishes it only once `release` is called.
   */
  function heldActor(label: string, line: { action: string; dialogue: string }, args: string[]) {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const answer = { speaker: 'catiline', ...line, internal: 'x', mood: 'cold', tension_shift: 0.1 };
    const text = JSON.stringify(answer);
    const after = Math.floor((text.indexOf('"dialogue":"') + 30) / 40) + 1;
    server.handler = playHandler('establishment', () => steps.ok(text, { hold: { after, until: gate } }));
    const w = copyRepo(base(), label);
    return { w, p: startPlay([...ARGS, ...args], w, env()), release };
  }

  /**
   * Ctrl-C once the Actor's held answer has begun, seen by the CLI (its first words are out, a
   * `chunk`: an answer arriving is let finish); then (again: a second Ctrl-C first) the answer goes on.
   */
  async function interruptHeld(p: ReturnType<typeof startPlay>, release: () => void, again = false): Promise<number | null> {
    try {
      await until(() => p.out().includes('"type":"chunk"'));
      p.child.kill('SIGINT');
      await until(() => p.err().includes('aureus: interrupted; stopping at the next safe point'));
      if (again) p.child.kill('SIGINT');
      return await (again ? p.closed : Promise.resolve(null));
    } finally {
      release();
    }
  }

  it('--json: SIGINT while reading ends the stream with done then the error event (exit 130), and --resume continues at the same turn', async () => {
    const w = copyRepo(base(), 'play-int-json');
    const r = await interruptedAfterOneTurn(w, [...ARGS, '--session', 'i1', '--json'], 'SIGINT');
    expect(r.code, r.stderr).toBe(130);
    const all = events(r.stdout); // every line is JSON
    expect(all.filter((e) => e.type === 'message_complete')).toHaveLength(1);
    expect(all.slice(-2)).toEqual([
      { type: 'done', session: 'i1', turns: 1 },
      // The session it paused, named: the script resumes or inspects that one.
      { type: 'error', message: 'interrupted: session i1 is paused; `aureus play --resume i1` continues it', exit_code: 130, codes: ['AUR6008'], session: 'i1' },
    ]);
    expect(r.stderr).toMatch(/aureus: interrupted; stopping at the next safe point/);
    expect(fs.existsSync(path.join(w, '.aureus/lock'))).toBe(false);
    const staged = pendingProposals(w, 'i1');
    expect(staged).toBeGreaterThan(0);

    const again = await playScript(['play', '--resume', 'i1', '--json'], w, '/status\n');
    expect(again.code, again.stderr).toBe(0);
    const resumed = events(again.stdout);
    expect(resumed.at(-1)).toEqual({ type: 'done', session: 'i1', turns: 1 });
    const status = resumed.find((e) => e.type === 'notice')?.message as string;
    expect(status).toContain('turn 1 ·');
    expect(status).toContain(`staged proposals: ${staged} pending, 0 canon`);
  });

  it('text: SIGINT says paused with the resume command on stderr (exit 130); SIGTERM does the same', async () => {
    for (const [sig, session, said] of [['SIGINT', 'i2', 'interrupted'], ['SIGTERM', 'i3', 'terminated']] as const) {
      const w = copyRepo(base(), `play-int-text-${session}`);
      const r = await interruptedAfterOneTurn(w, [...ARGS, '--session', session], sig);
      expect(r.code, `${sig}: ${r.stderr}`).toBe(130);
      expect(r.stderr).toContain(`aureus: ${said}; stopping at the next safe point`);
      expect(r.stderr).toContain(`aureus: session ${session} paused; continue with \`aureus play --resume ${session}\``);
      expect(r.stdout).toMatch(/^CATILINE: /m);
      expect(records(w, session).filter((x) => x.type === 'actor')).toHaveLength(1);
    }
  });

  it('SIGINT while the Actor call is in flight: that turn is played to its end, the lines after it are not', async () => {
    const { w, p, release } = heldActor('play-int-turn', { action: 'laughs', dialogue: 'Where I was is my affair, Consul, and where I go next is none of yours either.' }, ['--session', 'i4', '--json']);
    p.child.stdin.end(`${LINE}\nYou must answer me!\n/end\n`);
    // The Actor's answer has begun and waits: Ctrl-C now, then the rest of the answer.
    await interruptHeld(p, release);
    const code = await p.closed;
    expect(code, p.err()).toBe(130);
    const log = records(w, 'i4');
    expect(log.filter((x) => x.type === 'user').map((x) => x.text)).toEqual([LINE]);
    expect(log.filter((x) => x.type === 'actor').map((x) => x.content)).toEqual(['CATILINE: *laughs* "Where I was is my affair, Consul, and where I go next is none of yours either."']);
    expect(log.filter((x) => x.type === 'complete' || x.type === 'canonized')).toEqual([]);
    expect(server.requests.filter(isActor)).toHaveLength(1);
    const out = events(p.out());
    expect(out.filter((e) => e.type === 'message_complete')).toHaveLength(1);
    expect(out.slice(-2).map((e) => e.type)).toEqual(['done', 'error']);
    expect(out.at(-2)).toEqual({ type: 'done', session: 'i4', turns: 1 });
    expect(out.at(-1)).toMatchObject({ exit_code: 130, codes: ['AUR6008'], session: 'i4' });
    expect(git(w, 'rev-list', '--count', 'HEAD')).toBe('1'); // /end was not played

    const again = await playScript(['play', '--resume', 'i4', '--json'], w, '/end\n', env());
    expect(again.code, again.stderr).toBe(0);
    expect(events(again.stdout).map((e) => e.type)).toContain('episode_complete');
  });

  it('SIGINT while the Actor call has not begun to answer (a stalled provider): the call is cancelled at once, the session pauses (130), and --resume answers the line', async () => {
    server.handler = playHandler('establishment', () => steps.hang());
    const w = copyRepo(base(), 'play-int-stalled');
    const p = startPlay([...ARGS, '--session', 'i8', '--json'], w, env());
    p.child.stdin.write(`${LINE}\n`);
    await until(() => server.requests.some(isActor));
    const t0 = Date.now();
    p.child.kill('SIGINT');
    const code = await p.closed;
    // Not the call's timeout (minutes) and its exit 7: the pause, now.
    expect(code, p.err()).toBe(130);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(p.err()).not.toMatch(/AUR420[57]/);
    const out = events(p.out());
    expect(out.at(-2)).toEqual({ type: 'done', session: 'i8', turns: 0 });
    expect(out.at(-1)).toMatchObject({ type: 'error', exit_code: 130, codes: ['AUR6008'], session: 'i8' });
    expect(records(w, 'i8').filter((x) => x.type === 'user' || x.type === 'actor').map((x) => x.type)).toEqual(['user']);

    server.handler = playHandler('establishment', () => steps.json({ speaker: 'catiline', action: 'shrugs', dialogue: 'At home, Consul.', internal: 'x', mood: 'cold', tension_shift: 0 }));
    const again = await playScript(['play', '--resume', 'i8', '--json'], w, '', env());
    expect(again.code, again.stderr).toBe(0);
    expect(records(w, 'i8').filter((x) => x.type === 'actor').map((x) => x.content)).toEqual(['CATILINE: *shrugs* "At home, Consul."']);
  });

  it('SIGINT while an answer arrives that then stops arriving: it is cancelled once it stalls, and the session pauses (130)', async () => {
    const { w, p } = heldActor('play-int-stall-mid', { action: 'laughs', dialogue: 'Where I was is my affair, Consul, and where I go next is none of yours either.' }, ['--session', 'i9', '--json']);
    p.child.stdin.write(`${LINE}\n`);
    await until(() => p.out().includes('"type":"chunk"'));
    p.child.kill('SIGINT');
    // Never released: the answer stalls after its first words.
    const code = await p.closed;
    expect(code, p.err()).toBe(130);
    expect(events(p.out()).filter((e) => e.type === 'message_complete')).toEqual([]);
    expect(records(w, 'i9').filter((x) => x.type === 'actor')).toEqual([]);
  });

  it('SIGINT during the turn that completes the scene: the scene completes and is canonized, exit 0, nothing to resume', async () => {
    const { w, p, release } = heldActor('play-int-last', { action: 'laughs', dialogue: 'Ask the consul what he paid for his informers.' }, ['--session', 'i7', '--json', '--mode', 'turn_limited', '--turns', '1']);
    p.child.stdin.write(`${LINE}\n`);
    await interruptHeld(p, release);
    const code = await p.closed;
    expect(code, p.err()).toBe(0);
    const out = events(p.out());
    expect(out.map((e) => e.type)).toEqual(expect.arrayContaining(['canonized', 'episode_complete']));
    expect(out.at(-1)).toEqual({ type: 'done', session: 'i7', turns: 1 });
    expect(p.err()).not.toContain('paused');
    expect(records(w, 'i7').at(-1)?.type).toBe('complete');
  });

  it('a second SIGINT while the Actor call is in flight quits at once (130), and --resume answers that line', async () => {
    const { w, p, release } = heldActor('play-int-twice', { action: 'shrugs', dialogue: 'At home, Consul, as every honest man was.' }, ['--session', 'i6', '--json']);
    p.child.stdin.write(`${LINE}\n`);
    const code = await interruptHeld(p, release, true);
    expect(code, p.err()).toBe(130);
    expect(p.err()).toContain('aureus: interrupted again; quitting now. Continue the session with `aureus play --resume i6`.');
    // The line is in the log, its answer is not: the resume answers it.
    expect(records(w, 'i6').filter((x) => x.type === 'user' || x.type === 'actor').map((x) => x.type)).toEqual(['user']);
    const again = await playScript(['play', '--resume', 'i6', '--json'], w, '', env());
    expect(again.code, again.stderr).toBe(0);
    expect(events(again.stdout).at(-1)).toEqual({ type: 'done', session: 'i6', turns: 1 });
    expect(records(w, 'i6').filter((x) => x.type === 'actor').map((x) => x.content)).toEqual(['CATILINE: *shrugs* "At home, Consul, as every honest man was."']);
  });

  it('a second SIGINT during a canonization waits for its commit and its record, then quits (130); the session resumes', async () => {
    const w = copyRepo(base(), 'play-int-canon');
    // The first Ctrl-C as the /commit starts, the second once its commit is made, before it is tagged.
    const r = await playScript([...ARGS, '--session', 'i5', '--json'], w, `${LINE}\n/commit\n`, { AUREUS_TEST_SIGINT_AT: 'play-canonize,commit-committed' });
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain('aureus: interrupted again; quitting once the canonization in progress ends. Continue the session with `aureus play --resume i5`.');
    const canonized = records(w, 'i5').filter((x) => x.type === 'canonized');
    expect(canonized).toHaveLength(1);
    expect(canonized[0]!.commit).toBe(git(w, 'rev-parse', 'play/i5/1^{commit}'));
    expect(git(w, 'status', '--porcelain')).toBe('');
    expect(fs.existsSync(path.join(w, '.aureus/lock'))).toBe(false);

    const again = await playScript(['play', '--resume', 'i5', '--json'], w, '/status\n/end\n');
    expect(again.code, again.stderr).toBe(0);
    const resumed = events(again.stdout);
    expect(resumed.find((e) => e.type === 'notice')?.message).toMatch(/staged proposals: 0 pending, \d+ canon/);
    expect(resumed.map((e) => e.type)).toContain('episode_complete');
    expect(again.stderr).not.toMatch(/AUR6009/);
  });

  it('a second SIGINT in a session named by default (no --session) names it in the resume command, as a named one does', async () => {
    const w = copyRepo(base(), 'play-int-default');
    const r = await playScript([...ARGS, '--json'], w, `${LINE}\n/commit\n`, { AUREUS_TEST_SIGINT_AT: 'play-canonize,commit-committed' });
    expect(r.code, r.stderr).toBe(130);
    // <principal>-NNN: the first session of this world's cicero.
    expect(r.stderr).toContain('aureus: interrupted again; quitting once the canonization in progress ends. Continue the session with `aureus play --resume cicero-001`.');
    expect(r.stderr).not.toContain('session list');
    expect(records(w, 'cicero-001').filter((x) => x.type === 'canonized')).toHaveLength(1);
  });
});
