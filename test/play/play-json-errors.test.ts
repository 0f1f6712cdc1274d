import { describe, expect, it } from 'vitest';
import { builtCli, copyRepo, git } from '../pipeline/world.js';
import { useWorld } from '../support/use-world.js';
import { steps } from '../support/fake-anthropic-server.js';
import { isActor, playHandler, usePlayModel } from '../support/play-model.js';
import { breakLexicon, changedMidSession, HAND_EDITED as REL, handEdit, playScript } from './support.js';

/**
 * `play --json` is JSON Lines: once it has written events, a failure ends the stream with one
 * `{"type": "error", message, exit_code, codes, session}` event (the fields of the CLI boundary's
 * error document, and the session's id), not only stderr and the exit code. A failure before any event keeps the boundary's
 * one-line `{"error": …}` document; a session that ends well ends with `done`, as before.
 */
const ARGS = ['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--mode', 'open', '--json'];
const TYPES = ['chunk', 'message_complete', 'notice', 'canonized', 'episode_complete', 'done'];

/** stdout's lines, each parsed as JSON (a line that is not throws). */
const lines = (stdout: string) => stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type?: string; [k: string]: unknown });

/** A played session's stdout: documented events, then exactly one error event, last. */
function expectErrorLast(stdout: string, exitCode: number, code: string, session: string): { message: string } {
  const events = lines(stdout);
  const last = events.at(-1)!;
  // The session it stopped, named: a script resumes or inspects that one.
  expect(last).toEqual({ type: 'error', message: expect.any(String), exit_code: exitCode, codes: expect.arrayContaining([code]), session });
  expect(Object.keys(last).sort()).toEqual(['codes', 'exit_code', 'message', 'session', 'type']);
  for (const e of events.slice(0, -1)) expect(TYPES, JSON.stringify(e)).toContain(e.type);
  expect(events.filter((e) => e.type === 'message_complete').length).toBeGreaterThan(0);
  expect(stdout).not.toContain('{"error"'); // the boundary's document is not printed after the event
  return last as unknown as { message: string };
}

describe.skipIf(!builtCli())('aureus play --json, failures in the stream', () => {
  const base = useWorld('play-json-errors');

  it('a canonization refused on a world made dirty after turns were played: the last line is the error event (exit 8, AUR6001)', async () => {
    const w = copyRepo(base(), 'play-json-dirty-mid');
    const p = await changedMidSession([...ARGS, '--session', 'j1'], w, 'Catiline, where were you last night?\n', handEdit);
    expect(p.code, p.stderr).toBe(8);
    expect(p.stdout).toMatch(/"type":"notice","message":"[^"]*uncommitted changes/); // the /commit postponed, said in the stream
    const last = expectErrorLast(p.stdout, 8, 'AUR6001', 'j1');
    expect(last.message).toContain('session j1 ended with its proposals staged');
    // stderr keeps its diagnostics, as without --json.
    expect(p.stderr).toMatch(/AUR6001/);
    expect(p.stderr).toContain(REL);
  });

  it('a lexicon broken while the session runs: the canonization fails (exit 3) and the error event ends the stream', async () => {
    const w = copyRepo(base(), 'play-json-lexicon-mid');
    const p = await changedMidSession([...ARGS, '--session', 'j4'], w, 'Catiline, where were you last night?\n', breakLexicon);
    expect(p.code, p.stderr).toBe(3);
    expectErrorLast(p.stdout, 3, 'AUR5082', 'j4');
    expect(p.stderr).toMatch(/AUR5082/);
  });

  it('a session started without --session: the error event names the id it was given (<principal>-NNN)', async () => {
    const w = copyRepo(base(), 'play-json-default-id');
    const p = await changedMidSession(ARGS, w, 'Catiline, where were you last night?\n', breakLexicon);
    expect(p.code, p.stderr).toBe(3);
    expectErrorLast(p.stdout, 3, 'AUR5082', 'cicero-001');
  });

  it('a failure before any event keeps the boundary document, alone on its one line', async () => {
    const w = copyRepo(base(), 'play-json-dirty-start');
    handEdit(w);
    expect(git(w, 'status', '--porcelain')).toBe(`M ${REL}`);
    const r = await playScript([...ARGS, '--session', 'j2'], w, 'Catiline, where were you last night?\n/end\n');
    expect(r.code, r.stderr).toBe(8);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    const doc = JSON.parse(r.stdout) as { error: { message: string; exit_code: number; codes: string[] } };
    expect(Object.keys(doc)).toEqual(['error']);
    expect(doc.error).toMatchObject({ exit_code: 8, codes: ['AUR6001'] });
    expect(r.stdout).not.toContain('"type"');
  });

  it('a session that ends well ends with done and has no error event', async () => {
    const w = copyRepo(base(), 'play-json-ok');
    const r = await playScript([...ARGS, '--session', 'j3'], w, 'Catiline, where were you last night?\n/end\n');
    expect(r.code, r.stderr).toBe(0);
    const events = lines(r.stdout);
    expect(events.at(-1)).toEqual({ type: 'done', session: 'j3', turns: 1 });
    for (const e of events) expect(TYPES, JSON.stringify(e)).toContain(e.type);
    expect(r.stdout).not.toMatch(/"type":"error"|\{"error"/);
  });
});

describe.skipIf(!builtCli())('aureus play --json, a provider error after turns were played', () => {
  const { server, base, env } = usePlayModel('play-json-provider');

  it('the Actor call refused (401) on the second turn: exit 7, the error event last', async () => {
    let actorCalls = 0;
    const answer = { speaker: 'catiline', dialogue: 'Ask Crassus.', action: 'smiles', internal: 'x', mood: 'calm', tension_shift: 0.1 };
    server.handler = playHandler('establishment', (req) => (isActor(req) && ++actorCalls > 1 ? steps.unauthorized() : steps.ok(JSON.stringify(answer))));
    const w = copyRepo(base(), 'play-json-provider');
    const r = await playScript([...ARGS, '--session', 'j5'], w, 'Catiline, where were you?\nAnswer me!\n', env());
    expect(r.code, r.stderr).toBe(7);
    const last = expectErrorLast(r.stdout, 7, 'AUR4203', 'j5');
    expect(last.message).toMatch(/HTTP 401/);
    expect(r.stderr).toMatch(/AUR4203/);
  });
});
