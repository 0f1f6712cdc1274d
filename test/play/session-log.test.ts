import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { captureIo } from '../stages/write-verify/helpers.js';
import { fileSessionStore } from '../../src/play/store.js';
import type { AureusError } from '../../src/errors.js';

/**
 * A play session's log (.aureus/sessions/<id>/turns.jsonl) is a file on disk: empty, truncated or
 * hand-edited, it must give a clear diagnostic (file, line:column, pointer, what was expected, a
 * hint) and exit 3 for `session show` and `play --resume`, never an internal error (exit 1); and
 * `session list` lists the good sessions and marks the bad one instead of failing for all.
 * The good log is a real one (aureus play, offline: brief, user, actor, delta and claim proposals,
 * undo, note, canonized, complete).
 */
const GOOD = fs.readFileSync(path.resolve(__dirname, '../fixtures/play/turns.jsonl'), 'utf8');
const LINES = GOOD.trimEnd().split('\n');

let root = '';
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'aureus-session-log-'));
  // A world repository's folder (sessions live in one): outside a world, `session` is AUR1000.
  fs.mkdirSync(path.join(root, 'world'));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

/**
 * The log `text` as session `id`'s: the fixture is session s5's, and a start record naming another
 * session than its folder is itself a problem (AUR6207), so the start record names the folder.
 */
function session(id: string, text: string | Buffer): string {
  const dir = path.join(root, '.aureus', 'sessions', id);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'turns.jsonl'), typeof text === 'string' ? text.replace('{"type":"start","session":"s5"', `{"type":"start","session":"${id}"`) : text);
  return `.aureus/sessions/${id}/turns.jsonl`;
}

async function run(...args: string[]): Promise<{ rc: number; out: string; err: string }> {
  const x = captureIo(root);
  const rc = await main(args, x);
  return { rc, out: x.out, err: x.err };
}

/** The last line cut after its id, as a write that stopped there would leave it: invalid JSON at the column after it. */
const LAST = LINES[LINES.length - 1]!;
const CUT = LAST.slice(0, LAST.indexOf(',"trigger"'));

/** The log with line `n` (1-based) replaced. */
const withLine = (n: number, line: string) => LINES.map((l, i) => (i === n - 1 ? line : l)).join('\n') + '\n';

describe('session show: a bad log is exit 3 with its line:column, never an internal error', () => {
  it('a real log reads (the schema accepts every record aureus writes)', async () => {
    session('good', GOOD);
    const r = await run('session', 'show', 'good', '--json');
    expect(r.rc, r.err).toBe(0);
    const x = JSON.parse(r.out);
    expect(x.session).toBe('good');
    expect(x.proposals.map((p: { kind: string }) => p.kind)).toEqual(['claim']);
  });

  it('an empty log: no start record (AUR6202), with a hint', async () => {
    const file = session('empty', '');
    const r = await run('session', 'show', 'empty');
    expect(r.rc).toBe(3);
    expect(r.err).not.toContain('internal error');
    expect(r.err).toContain(file);
    expect(r.err).toContain('error AUR6201 session empty cannot be read: its log is empty');
    expect(r.err).toContain('error AUR6202 no start record: the file is empty');
    expect(r.err).toContain('hint: the session was created but nothing was written to it');
  });

  it('the header counts turns as they read ("1 turn"); the evaluation keeps the words its log stored', async () => {
    session('s5', GOOD);
    const r = await run('session', 'show', 's5');
    expect(r.rc, r.err).toBe(0);
    expect(r.out.split('\n')[0]).toBe('session s5: cicero at forum (PLAY), 1 turn, beat establishment');
    expect(r.out).toContain('evaluation: Marcus Tullius Cicero played 1 turn(s) at');
  });

  it('a field of the wrong type: the line, the column of the value, the pointer, what was expected', async () => {
    const line = LINES[2]!.replace('"id":"t0002"', '"id":2');
    expect(line).not.toBe(LINES[2]);
    const file = session('typed', withLine(3, line));
    const r = await run('session', 'show', 'typed');
    expect(r.rc).toBe(3);
    expect(r.err).not.toContain('internal error');
    expect(r.err).toContain(file);
    expect(r.err).toContain('AUR6201 session typed cannot be read: 1 line is not a turn record');
    // The column of the member (its key), as for world files.
    expect(r.err).toContain(`3:${line.indexOf('"id"') + 1} /id: error AUR1011 wrong type: expected a string, got integer 2`);
    expect(r.err).toContain('hint: change the value to a string');
  });

  it('a missing key, an unknown record type, and a nested wrong type are each listed', async () => {
    const actor = JSON.parse(LINES[3]!) as { answer: Record<string, unknown> };
    actor.answer.tension_shift = 'high';
    let text = withLine(3, '{"type":"user","id":"t0002","text":"hello"}');
    text = text.replace(LINES[3]!, JSON.stringify(actor));
    text += '{"type":"whisper","id":"t0099"}\n';
    session('many', text);
    const r = await run('session', 'show', 'many');
    expect(r.rc).toBe(3);
    expect(r.err).toContain('3 lines are not a turn record');
    expect(r.err).toContain('3:1 /: error AUR1012 missing required key "truncated"');
    expect(r.err).toMatch(/4:\d+ \/answer\/tension_shift: error AUR1011 wrong type: expected a number, got string "high"/);
    expect(r.err).toMatch(new RegExp(`${LINES.length + 1}:\\d+ /type: error AUR1014 value "whisper" is not allowed here`));
  });

  it('a truncated last line: invalid JSON at its line:column', async () => {
    session('cut', LINES.slice(0, -1).join('\n') + '\n' + CUT);
    const r = await run('session', 'show', 'cut');
    expect(r.rc).toBe(3);
    expect(r.err).toContain(`${LINES.length}:${CUT.length + 1}: error AUR1005 invalid JSON: unexpected end of the file`);
  });

  it('a log that does not begin with its start record (AUR6203)', async () => {
    session('headless', LINES.slice(1).join('\n') + '\n');
    const r = await run('session', 'show', 'headless');
    expect(r.rc).toBe(3);
    expect(r.err).toContain('1:1: error AUR6203 the first record is a "brief" record, not the session\'s "start" record');
  });

  it('a byte that breaks UTF-8: the session error (exit 3) with the line:column, not a U+FFFD read silently', async () => {
    // Line 3 with a Latin-1 "é" (0xe9) inside its text, as an editor saving in another encoding leaves it.
    const line3 = Buffer.from(LINES[2]!, 'utf8');
    const at = line3.indexOf('"t0002"') + 2;
    const bad = Buffer.concat([Buffer.from(LINES.slice(0, 2).join('\n') + '\n'), line3.subarray(0, at), Buffer.from([0xe9]), line3.subarray(at), Buffer.from('\n' + LINES.slice(3).join('\n') + '\n')]);
    const file = session('latin1', bad);
    const offset = Buffer.from(LINES.slice(0, 2).join('\n') + '\n').length + at;
    const r = await run('session', 'show', 'latin1');
    expect(r.rc).toBe(3);
    expect(r.err).not.toContain('internal error');
    expect(r.err).toContain(file);
    expect(r.err).toContain('error AUR6201 session latin1 cannot be read: 1 line is not UTF-8');
    expect(r.err).toContain(`3:${at + 1}: error AUR1003 file is not valid UTF-8 (first bad byte at offset ${offset})`);
    // play --resume stops the same way and appends nothing: the bytes stay as they were.
    // (play refuses a folder with no world/ first, AUR1000)
    execFileSync('git', ['init', '-q'], { cwd: root });
    fs.mkdirSync(path.join(root, 'world'), { recursive: true });
    const p = await run('play', '--resume', 'latin1');
    expect(p.rc).toBe(3);
    expect(p.err).toContain('AUR1003');
    expect(fs.readFileSync(path.join(root, '.aureus/sessions/latin1/turns.jsonl')).equals(bad)).toBe(true);
  });

  it('a turns.jsonl that is a directory: cannot be read (AUR1008), exit 3', async () => {
    fs.mkdirSync(path.join(root, '.aureus/sessions/dir/turns.jsonl'), { recursive: true });
    const r = await run('session', 'show', 'dir');
    expect(r.rc).toBe(3);
    expect(r.err).not.toContain('internal error');
    expect(r.err).toContain('error AUR6201 session dir cannot be read: it is a directory');
    expect(r.err).toContain('error AUR1008 cannot read .aureus/sessions/dir/turns.jsonl: it is a directory');
  });

  it('play --resume of a bad session is exit 3 too, and appends nothing', async () => {
    const bad = withLine(3, LINES[2]!.replace('"id":"t0002"', '"id":2'));
    session('typed', bad);
    const written = fs.readFileSync(path.join(root, '.aureus/sessions/typed/turns.jsonl'), 'utf8');
    // play refuses a folder that is not a git repository, or has no world/ (AUR1000), first
    execFileSync('git', ['init', '-q'], { cwd: root });
    fs.mkdirSync(path.join(root, 'world'), { recursive: true });
    const r = await run('play', '--resume', 'typed');
    expect(r.rc).toBe(3);
    expect(r.err).not.toContain('internal error');
    expect(r.err).toContain('/id: error AUR1011');
    expect(fs.readFileSync(path.join(root, '.aureus/sessions/typed/turns.jsonl'), 'utf8')).toBe(written);
  });
});

describe('session list: a bad log is marked, the good ones are listed (exit 0, a warning on stderr)', () => {
  it('lists every session, marks the broken ones with their problem and warns once for each', async () => {
    session('a-good', GOOD);
    session('b-empty', '');
    session('c-typed', withLine(3, LINES[2]!.replace('"id":"t0002"', '"id":2')));
    session('d-cut', LINES.slice(0, -1).join('\n') + '\n' + CUT);
    const r = await run('session', 'list');
    expect(r.rc, r.err).toBe(0);
    expect(r.err).not.toContain('internal error');
    const rows = r.out.trimEnd().split('\n');
    expect(rows).toHaveLength(4);
    expect(rows[0]).toMatch(/^a-good\s+cicero\s+PLAY\s+1 turn {3}complete$/);
    expect(rows[1]).toMatch(/^b-empty\s+unreadable: no start record: the file is empty$/);
    expect(rows[2]).toMatch(/^c-typed\s+unreadable: line 3:\d+ \/id: wrong type: expected a string, got integer 2$/);
    expect(rows[3]).toMatch(new RegExp(`^d-cut\\s+unreadable: line ${LINES.length}:${CUT.length + 1}: invalid JSON: unexpected end of the file`));
    for (const id of ['b-empty', 'c-typed', 'd-cut']) expect(r.err).toContain(`.aureus/sessions/${id}/turns.jsonl: warning AUR6204 session ${id} is listed as unreadable: `);
    expect(r.err).toContain('hint: `aureus session show c-typed` lists every problem of its log');
    expect(r.err.match(/AUR6204/g)).toHaveLength(3);
  });

  it('--json: the broken session is a row with state "unreadable" and its problem; stdout stays JSON', async () => {
    session('a-good', GOOD);
    session('b-empty', '');
    const r = await run('session', 'list', '--json');
    expect(r.rc).toBe(0);
    expect(JSON.parse(r.out)).toEqual([
      { session: 'a-good', principal: 'cicero', scene: 'PLAY', turns: 1, state: 'complete' },
      { session: 'b-empty', principal: null, scene: null, turns: null, state: 'unreadable', problem: 'no start record: the file is empty' },
    ]);
    expect(r.err).toContain('warning AUR6204 session b-empty');
  });
});

describe('a session id that is not valid: a hint the command can follow (AUR7106)', () => {
  it('session show and play --resume point to `aureus session list`; a new session is named with --session', async () => {
    execFileSync('git', ['init', '-q'], { cwd: root });
    for (const argv of [['session', 'show', 'NOPE'], ['play', '--resume', 'NOPE']]) {
      const r = await run(...argv);
      expect([r.rc, r.err], argv.join(' ')).toEqual([2, expect.stringContaining('error AUR7106 session id "NOPE" is not valid')]);
      expect(r.err, argv.join(' ')).toContain('hint: no session can have that id: `aureus session list` names them');
      expect(r.err, argv.join(' ')).not.toContain('--session');
    }
    const named = (() => {
      try {
        fileSessionStore(root).create('Bad!');
      } catch (e) {
        return (e as AureusError).diagnostics;
      }
    })();
    expect(named).toEqual([expect.objectContaining({ code: 'AUR7106', hint: 'e.g. --session cicero-forum' })]);
  });
});
