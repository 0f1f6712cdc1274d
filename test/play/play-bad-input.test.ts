import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtCli, cli, copyRepo, git } from '../pipeline/world.js';
import { useWorld } from '../support/use-world.js';
import { playScript, records } from './support.js';

/** Bad input: clear messages, the session goes on or stops cleanly, nothing half-written. */
describe.skipIf(!builtCli())('aureus play, bad input', () => {
  const base = useWorld('play-bad');

  it('empty lines, a long line, control characters, unknown commands, a missing or dead character', async () => {
    const w = copyRepo(base(), 'play-bad-lines');
    const long = 'Catiline, ' + 'listen '.repeat(40);
    const input = ['', '   ', long, 'Crassus\u0007, \u001b[31mwhat\u001b[0m now?', '/frobnicate', '/character nobody', '/character catiline', '/beat climax', '/note', '/undo', '/status', '/end'].join('\n') + '\n';
    const r = await playScript(['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline,crassus', '--mode', 'open', '--max-input', '60', '--session', 'b1'], w, input);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('empty line ignored');
    expect(r.stderr).toMatch(/cut at the limit of 60/);
    expect(r.stderr).toMatch(/removed \d+ control or bidi character/);
    expect(r.stderr).toContain('unknown command /frobnicate');
    expect(r.stderr).toContain('no character "nobody"');
    expect(r.stderr).toContain('already on stage');
    expect(r.stderr).toContain('is not a beat');
    expect(r.stderr).toContain('usage: /note <idea>');
    expect(r.stdout).toContain('took back');
    expect(r.stdout).toMatch(/turn 1 · beat/);
    // /status rounds the tension curve as every reader does (core/readable.ts): "0.3", never "0.30".
    expect(r.stdout).toMatch(/^tension \d+(?:\.\d*[1-9])?(?: → \d+(?:\.\d*[1-9])?)*$/m);
    expect(r.stdout).toContain('Scene complete (user_end)');
    const log = records(w, 'b1');
    const users = log.filter((x) => x.type === 'user');
    expect(users[0]).toMatchObject({ truncated: true });
    expect([...(users[0]!.text as string)].length).toBe(60);
    expect(users[1]!.text).toBe('Crassus, what now?');
    // Rejected commands recorded nothing.
    expect(log.filter((x) => x.type === 'command').map((x) => x.name)).toEqual(['end']);
    expect(r.stdout + r.stderr).not.toMatch(/at .*\.js:\d+/); // no stack trace
  });

  it('a line of piped input that is not UTF-8: a notice naming the line, and the session goes on', async () => {
    const w = copyRepo(base(), 'play-bad-utf8');
    // Line 2 is Latin-1 ("Crassus, café?" with 0xe9), the others UTF-8.
    const input = Buffer.concat([Buffer.from('Catiline, a word.\nCrassus, caf'), Buffer.from([0xe9]), Buffer.from('?\nCicero é bene.\n/end\n')]);
    const r = await playScript(['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline,crassus', '--mode', 'open', '--session', 'u1'], w, input);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('aureus: line 2 of the input is not valid UTF-8 (a bad byte at column 13)');
    expect(r.stderr).not.toMatch(/line [13] of the input/);
    const users = records(w, 'u1').filter((x) => x.type === 'user');
    expect(users.map((u) => u.text)).toEqual(['Catiline, a word.', 'Crassus, caf\ufffd?', 'Cicero é bene.']);
  });

  it('play.max_input and play.brief_budget come from aureus.config.yaml; the flags override them; a bad value is exit 3', async () => {
    const w = copyRepo(base(), 'play-config');
    const cfg = path.join(w, 'aureus.config.yaml');
    const yaml = fs.readFileSync(cfg, 'utf8');
    fs.writeFileSync(cfg, yaml.replace(/^play:\n(?: .*\n)+/m, 'play:\n  brief_budget: 60\n  max_input: 30\n'));
    git(w, 'commit', '-qam', 'play limits');
    const long = 'Catiline, ' + 'listen '.repeat(20);
    const a = await playScript(['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline,crassus', '--mode', 'open', '--session', 'c1'], w, `${long}\n/end\n`);
    expect(a.code, a.stderr).toBe(0);
    expect(a.stderr).toMatch(/cut at the limit of 30 \(play\.max_input/);
    const briefs = records(w, 'c1').filter((x) => x.type === 'brief').map((x) => x.brief as { tokens: number });
    expect(briefs.length).toBeGreaterThan(0);
    for (const b of briefs) expect(b.tokens).toBeLessThanOrEqual(64);
    const b = await playScript(['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--mode', 'open', '--session', 'c2', '--max-input', '50', '--brief-budget', '400'], w, `${long}\n/end\n`);
    expect(b.stderr).toMatch(/cut at the limit of 50/);
    expect(Math.max(...records(w, 'c2').filter((x) => x.type === 'brief').map((x) => (x.brief as { tokens: number }).tokens))).toBeGreaterThan(64);
    fs.writeFileSync(cfg, yaml.replace(/^play:\n(?: .*\n)+/m, 'play:\n  max_input: 3\n'));
    const bad = await playScript(['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--session', 'c3'], w, 'hello\n');
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/aureus\.config\.yaml/);
    expect(bad.stderr).toMatch(/\/play\/max_input/);
    expect(fs.existsSync(path.join(w, '.aureus/sessions/c3'))).toBe(false);
  });

  it('refuses an empty or blank --seed as episode run does (AUR4003, exit 2), writing nothing', async () => {
    const w = copyRepo(base(), 'play-bad-seed');
    for (const seed of ['', '  ']) {
      const r = await playScript(['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--seed', seed], w, 'Catiline, speak.\n/end\n');
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('AUR4003 bad --seed value');
      expect(r.stderr).toContain('the seed is empty');
      expect(r.stderr).toContain('leave --seed out for the default seed (the session id)');
    }
    expect(fs.existsSync(path.join(w, '.aureus/sessions'))).toBe(false);
  });

  it('refuses an unknown or dead principal, an unknown location and a missing scene, writing nothing', async () => {
    const w = copyRepo(base(), 'play-bad-args');
    const chars = path.join(w, 'world/characters.json');
    const doc = JSON.parse(fs.readFileSync(chars, 'utf8')) as { characters: { id: string; status: string; bdi: { intentions: string[] } }[] };
    const varo = doc.characters.find((c) => c.id === 'varo')!;
    varo.status = 'dead';
    varo.bdi.intentions = []; // the dead do not act (AUR1024)
    fs.writeFileSync(chars, JSON.stringify(doc, null, 2) + '\n');
    git(w, 'commit', '-qam', 'varo dies');
    const cases: [string[], RegExp][] = [
      [['--as', 'brutus', '--at', 'forum', '--with', 'catiline'], /--as brutus: no such character/],
      [['--as', 'varo', '--at', 'forum', '--with', 'catiline'], /is dead and cannot be played/],
      [['--as', 'cicero', '--at', 'forum', '--with', 'varo'], /--with varo: .* is dead/],
      [['--as', 'cicero', '--at', 'atlantis', '--with', 'catiline'], /--at atlantis: no such location/],
      [['--as', 'cicero', '--scene', 'SC42'], /scene SC42 not found in any planned or committed episode/],
      [['--as', 'cicero', '--scene', 'nonsense'], /expected SCxx or sNNeNN\/SCxx/],
      // The episode part is an episode id as every command reads one (season/episode-id.ts): strictly sNNeNN, AUR6005 and its hint.
      [['--as', 'cicero', '--scene', 'S01E01/SC01'], /error AUR6005 not an episode id: "S01E01"\n\s+hint: write it as s01e03/],
      [['--as', 'cicero', '--scene', 's1e1/SC01'], /error AUR6005 not an episode id: "s1e1"/],
      [['--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--mode', 'forever'], /--mode forever: expected/],
      // Nobody but the principal on stage: no one for the Actor to voice.
      [['--as', 'cicero', '--at', 'forum', '--with', 'cicero'], /--with names no one besides cicero, the character you play/],
      // No --with at all: said as the option missing (AUR7011), not as a --with that names no one.
      [['--as', 'cicero', '--at', 'forum'], /aureus play --at forum needs --with <ids>/],
    ];
    for (const [args, re] of cases) {
      const r = await playScript(['play', ...args], w, 'hello\n');
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(re);
      expect(r.stderr).not.toMatch(/internal error/);
    }
    expect(fs.existsSync(path.join(w, '.aureus/sessions'))).toBe(false);
    const missing = await cli(['session', 'show', 'nope'], w);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no session nope/);
  });

  it('--scene whose planned packet is broken or of the wrong shape: exit 3 with line:column, no session written', async () => {
    const w = copyRepo(base(), 'play-bad-packet');
    expect((await cli(['episode', 'plan'], w)).code).toBe(0);
    const runs = path.join(w, '.aureus/runs');
    const packet = path.join(runs, fs.readdirSync(runs)[0]!, 'packets', 'SC01.json');
    const text = fs.readFileSync(packet, 'utf8');
    fs.writeFileSync(packet, text.slice(0, Math.floor(text.length / 2)));
    const cut = await playScript(['play', '--as', 'cicero', '--scene', 'SC01'], w, 'hello\n');
    expect(cut.code, cut.stderr).toBe(3);
    expect(cut.stderr).toContain('AUR5081');
    expect(cut.stderr).toMatch(/\d+:\d+: error AUR1005 invalid JSON/);
    const doc = JSON.parse(text) as { cast: unknown };
    doc.cast = 'cicero';
    fs.writeFileSync(packet, JSON.stringify(doc, null, 2));
    const typed = await playScript(['play', '--as', 'cicero', '--scene', 'SC01'], w, 'hello\n');
    expect(typed.code, typed.stderr).toBe(3);
    expect(typed.stderr).toMatch(/\d+:\d+ \/cast: error AUR10\d\d/);
    expect(typed.stderr + typed.stdout).not.toMatch(/internal error|at .*\.js:\d+/);
    expect(fs.existsSync(path.join(w, '.aureus/sessions'))).toBe(false);
  });

  it('a held world lock postpones canonization: the proposals stay staged, the session goes on, and ends with exit 9', async () => {
    const { acquireLock } = await import('../../src/pipeline/lock.js');
    const w = copyRepo(base(), 'play-locked');
    const lock = acquireLock(w, 'episode run (test)');
    try {
      const r = await playScript(['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--mode', 'open', '--session', 'l1'], w, 'Catiline, where were you?\n/commit\nAnd then?\n');
      // The input ended with the proposals still staged because of the lock: exit 9, as the README's table says.
      expect(r.code, r.stderr).toBe(9);
      expect(r.stderr).toMatch(/another run holds the world lock/);
      expect(r.stderr).toMatch(/AUR6002/);
      expect(r.stderr).toMatch(/aureus play --resume l1/);
      expect((r.stdout.match(/^CATILINE: /gm) ?? []).length).toBe(2);
      expect(git(w, 'rev-list', '--count', 'HEAD')).toBe('1');
      expect(records(w, 'l1').filter((x) => x.type === 'proposal').length).toBeGreaterThan(0);
    } finally {
      lock.release();
    }
    const r2 = await playScript(['play', '--resume', 'l1'], w, '/end\n');
    expect(r2.code, r2.stderr).toBe(0);
    expect(r2.stdout).toMatch(/\[canon\] commit [0-9a-f]{10}: accepted p1/);
    expect(git(w, 'rev-list', '--count', 'HEAD')).toBe('2');
  });

  it('--objective without --mode objective (which alone ends on it) is a usage error, nothing written', async () => {
    const w = copyRepo(base(), 'play-bad-objective');
    for (const mode of [[], ['--mode', 'open']]) {
      const r = await playScript(['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', ...mode, '--objective', 'accusation_made', '--session', 'o1'], w, 'I accuse you!\n/end\n');
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain('AUR7012 --objective cannot be used with --mode');
      expect(fs.existsSync(path.join(w, '.aureus/sessions/o1'))).toBe(false);
    }
    const ok = await playScript(['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--mode', 'objective', '--objective', 'accusation_made', '--session', 'o2'], w, 'I accuse you!\n');
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('Scene complete (objective_met)');
  });
});
