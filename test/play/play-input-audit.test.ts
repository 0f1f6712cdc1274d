import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtCli, cli, copyRepo, git } from '../pipeline/world.js';
import { useWorld } from '../support/use-world.js';
import { playScript, records } from './support.js';
import { cutCodePoints } from '../../src/core/code-points.js';
import { playNoteText } from '../../src/play/notes.js';

const IMPROVISED = ['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline'];
type Event = { type: string; message?: string; trigger?: string };
const events = (stdout: string): Event[] => stdout.trim().split('\n').map((l) => JSON.parse(l) as Event);

/** Play-mode input, as the audit found it: what a user types is played, cut or refused as the README says. */
describe.skipIf(!builtCli())('aureus play: input the audit found mishandled', () => {
  const base = useWorld('play-input-audit');

  it('--objective constructor (an Object.prototype member) is not met before a line states it', async () => {
    const w = copyRepo(base(), 'objective-proto');
    const r = await playScript([...IMPROVISED, '--mode', 'objective', '--objective', 'constructor', '--session', 'ob1', '--json'], w, 'Good morning, Catiline.\nHow is the weather?\n');
    expect(r.code, r.stderr).toBe(0);
    // Before: episode_complete with trigger objective_met on turn 1.
    expect(events(r.stdout).filter((e) => e.type === 'episode_complete')).toEqual([]);
    expect(records(w, 'ob1').filter((x) => x.type === 'user')).toHaveLength(2);
  });

  it('--objective that is not a flag name is a usage error (exit 2, AUR7010) naming the form; a log holding one is unreadable', async () => {
    const w = copyRepo(base(), 'objective-form');
    for (const key of ['__proto__', 'toString', 'hasOwnProperty', 'accusation-made']) {
      const r = await playScript([...IMPROVISED, '--mode', 'objective', '--objective', key, '--session', 'ob2'], w, 'I accuse you!\n');
      expect(r.code, key).toBe(2);
      expect(r.stderr).toContain(`error AUR7010 --objective ${key}: expected a flag name: a lower-case letter, then lower-case letters, digits or _`);
      expect(r.stderr).toContain('hint: e.g. --objective accusation_made');
      expect(fs.existsSync(path.join(w, '.aureus/sessions/ob2'))).toBe(false);
    }
    // A stored objective is held to the same form when the log is read (session show, --resume).
    const ok = await playScript([...IMPROVISED, '--mode', 'objective', '--objective', 'accusation_made', '--session', 'ob3'], w, 'Good morning.\n');
    expect(ok.code, ok.stderr).toBe(0);
    const file = path.join(w, '.aureus/sessions/ob3/turns.jsonl');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('"objective":"accusation_made"', '"objective":"toString"'));
    for (const argv of [['session', 'show', 'ob3'], ['play', '--resume', 'ob3']]) {
      const r = await cli(argv, w);
      expect(r.code, argv.join(' ')).toBe(3);
      expect(r.stderr).toContain('error AUR6201 session ob3 cannot be read');
      expect(r.stderr).toMatch(/\/setup\/objective: error AUR10\d\d/);
    }
  });

  it('a resumed session whose objective is `constructor` is not met by the resume either', async () => {
    const w = copyRepo(base(), 'objective-resume');
    const a = await playScript([...IMPROVISED, '--mode', 'objective', '--objective', 'constructor', '--session', 'ob4', '--json'], w, '');
    expect(a.code, a.stderr).toBe(0);
    const r = await playScript(['play', '--resume', 'ob4', '--json'], w, 'How is the weather?\n');
    expect(r.code, r.stderr).toBe(0);
    expect(events(r.stdout).some((e) => e.type === 'episode_complete')).toBe(false);
  });

  it('a /note over the season notes limit is cut where it is accepted, with a notice, in code points; session show says what was committed', async () => {
    const w = copyRepo(base(), 'note-limit');
    // 1,501 code points (3,001 UTF-16 units): under --max-input and under the notes' 2,000: kept whole.
    const emoji = 'a' + '\u{1F600}'.repeat(1500);
    const long = 'x'.repeat(2999) + '\u{1F600}';
    const input = [`/note ${emoji}`, `/thread ${long}?`, '/end'].join('\n') + '\n';
    const r = await playScript([...IMPROVISED, '--max-input', '5000', '--session', 'nl', '--json'], w, input);
    expect(r.code, r.stderr).toBe(0);
    const notes = JSON.parse(fs.readFileSync(path.join(w, 'seasons/season_01/notes.json'), 'utf8')) as { notes: { text: string }[]; proposed_threads: { question: string }[] };
    // Before: 1,000 emoji and a lone \ud83d, the rest dropped in silence.
    expect(notes.notes.at(-1)!.text).toBe(emoji);
    expect(notes.notes.at(-1)!.text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    const question = notes.proposed_threads.at(-1)!.question;
    expect(question).toBe('x'.repeat(2000));
    const said = events(r.stdout).filter((e) => e.type === 'notice').map((e) => e.message);
    expect(said).toContain("/thread: it was 3001 characters; cut at the season notes' limit of 2000 (the first 2000 are kept)");
    expect(said.filter((m) => m?.includes('cut at'))).toHaveLength(1);
    // session show lists what the canonization committed, not the line as typed.
    const show = JSON.parse((await cli(['session', 'show', 'nl', '--json'], w)).stdout) as { notes: { text: string }[]; proposed_threads: { question: string }[] };
    expect(show.notes.map((n) => n.text)).toEqual([emoji]);
    expect(show.proposed_threads.map((t) => t.question)).toEqual([question]);
  });

  it('piped input splits at LF only: a lone CR stays in its line (removed with a notice), CRLF is one line, the UTF-8 notice comes with its own line', async () => {
    const w = copyRepo(base(), 'input-cr');
    const input = Buffer.concat([Buffer.from('Hello\rthere Catiline\r\nbad '), Buffer.from([0xff]), Buffer.from(' byte\n/end\n')]);
    const r = await playScript([...IMPROVISED, '--mode', 'open', '--session', 'cr1', '--json'], w, input);
    expect(r.code, r.stderr).toBe(0);
    const users = records(w, 'cr1').filter((x) => x.type === 'user');
    // Before: three user turns ("Hello", "there Catiline", "bad � byte").
    expect(users.map((u) => u.text)).toEqual(['Hellothere Catiline', 'bad \ufffd byte']);
    const ev = events(r.stdout).map((e) => (e.type === 'notice' ? `notice: ${e.message}` : e.type));
    expect(ev.slice(0, 5)).toEqual([
      'notice: removed 1 control or bidi character(s) from your line',
      'message_complete',
      expect.stringMatching(/^notice: line 2 of the input is not valid UTF-8 \(a bad byte at column 5\)/),
      'message_complete',
      'canonized',
    ]);
  });

  it('input after a scene the resume finished is not played, and a notice says how many lines', async () => {
    const { acquireLock } = await import('../../src/pipeline/lock.js');
    const w = copyRepo(base(), 'resume-finishes');
    const lock = acquireLock(w, 'episode run (test)');
    try {
      const a = await playScript([...IMPROVISED, '--session', 'wl1', '--json'], w, 'Catiline, traitor!\n/end\n');
      expect(a.code, a.stderr).toBe(9);
    } finally {
      lock.release();
    }
    const r = await playScript(['play', '--resume', 'wl1', '--json'], w, '/status\n');
    expect(r.code, r.stderr).toBe(0);
    const ev = events(r.stdout);
    expect(ev.map((e) => e.type)).toEqual(['canonized', 'episode_complete', 'notice', 'done']);
    expect(ev[2]!.message).toBe('the scene ended before 1 more line of your input: it was not played');
    expect(git(w, 'rev-list', '--count', 'HEAD')).toBe('2');
  });
});

describe('cutting by code points', () => {
  it('never splits a surrogate pair, and counts an emoji as one', () => {
    expect(cutCodePoints('ab', 2)).toEqual({ text: 'ab', length: 2, cut: false });
    expect(cutCodePoints('\u{1F600}\u{1F600}\u{1F600}', 2)).toEqual({ text: '\u{1F600}\u{1F600}', length: 3, cut: true });
    expect(cutCodePoints('\u{1F600}'.repeat(3), 3)).toEqual({ text: '\u{1F600}'.repeat(3), length: 3, cut: false });
    expect(playNoteText('  a \n b  ')).toEqual({ text: 'a b', length: 3, cut: false });
    expect(playNoteText('\u{1F600}'.repeat(2001)).text).toBe('\u{1F600}'.repeat(2000));
  });
});
