import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtCli, copyRepo, git } from '../pipeline/world.js';
import { useWorld } from '../support/use-world.js';
import { HAND_EDITED as REL, handEdit, playingWithCatiline, playScript, records, until } from './support.js';

/**
 * Uncommitted edits under world/ (or to the season notes play rewrites) are the user's: play never
 * commits them as its own. Before a session starts it refuses like `episode run` (exit 8, AUR6001);
 * an edit made while a session runs postpones the canonization (proposals stay staged) and the
 * session ends with exit 8.
 */
const ARGS = ['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--mode', 'open'];

/** The +/- lines of a commit's diff of one file. */
const changed = (w: string, rev: string, rel: string) =>
  git(w, 'show', '--format=', rev, '--', rel)
    .split('\n')
    .filter((l) => /^[+-] /.test(l));

describe.skipIf(!builtCli())('aureus play, uncommitted world edits', () => {
  const base = useWorld('play-dirty');

  it('refuses a dirty world before the session starts: exit 8, AUR6001, nothing played or written, the edit kept', async () => {
    const w = copyRepo(base(), 'play-dirty-start');
    handEdit(w);
    const r = await playScript([...ARGS, '--session', 'd1'], w, 'Catiline, where were you last night?\n/end\n');
    expect(r.code, r.stderr).toBe(8);
    expect(r.stderr).toMatch(/AUR6001/);
    expect(r.stderr).toContain(REL);
    expect(r.stderr).not.toMatch(/--allow-dirty/); // play does not accept it
    expect(r.stdout).not.toMatch(/^CATILINE: /m);
    expect(fs.existsSync(path.join(w, '.aureus/sessions'))).toBe(false);
    expect(git(w, 'rev-list', '--count', 'HEAD')).toBe('1');
    expect(git(w, 'status', '--porcelain')).toBe(`M ${REL}`);
    expect(fs.readFileSync(path.join(w, REL), 'utf8')).toContain('"fear": 0.35,');
  });

  it('refuses uncommitted season notes (its commit rewrites notes.json) but not an edit its commit cannot carry', async () => {
    const w = copyRepo(base(), 'play-dirty-notes');
    const notes = 'seasons/season_01/notes.json';
    fs.mkdirSync(path.join(w, 'seasons/season_01'), { recursive: true });
    fs.writeFileSync(path.join(w, notes), JSON.stringify({ format: 1, season: 1, notes: [] }) + '\n');
    const r = await playScript([...ARGS, '--session', 'd2'], w, '/end\n');
    expect(r.code, r.stderr).toBe(8);
    expect(r.stderr).toContain(notes);
    expect(fs.existsSync(path.join(w, '.aureus/sessions'))).toBe(false);

    // An uncommitted style edit is never rewritten nor committed by play: the session runs.
    fs.rmSync(path.join(w, notes));
    fs.appendFileSync(path.join(w, 'style/style_guide.md'), '\nA hand-written line.\n');
    const ok = await playScript([...ARGS, '--session', 'd3'], w, 'Catiline, where were you last night?\n/end\n');
    expect(ok.code, ok.stderr).toBe(0);
    expect(git(w, 'show', '--stat', '--format=', 'HEAD')).not.toContain('style/');
    expect(git(w, 'status', '--porcelain')).toBe('M style/style_guide.md');
  });

  it('refuses --resume on a dirty world before it canonizes anything', async () => {
    const w = copyRepo(base(), 'play-dirty-resume');
    const first = await playScript([...ARGS, '--session', 'd4'], w, 'Catiline, where were you last night?\n');
    expect(first.code, first.stderr).toBe(0);
    handEdit(w);
    const r = await playScript(['play', '--resume', 'd4'], w, '/end\n');
    expect(r.code, r.stderr).toBe(8);
    expect(r.stderr).toContain(REL);
    expect(git(w, 'rev-list', '--count', 'HEAD')).toBe('1');
    expect(records(w, 'd4').filter((x) => x.type === 'canonized' || x.type === 'command')).toEqual([]);
  });

  it('an edit made while the session runs: the canonization is postponed (proposals staged), exit 8; committed by hand, --resume canonizes without it', async () => {
    const w = copyRepo(base(), 'play-dirty-mid');
    const p = await playingWithCatiline([...ARGS, '--session', 'd5'], w, 'Catiline, where were you last night?\n');
    handEdit(w);
    p.child.stdin.write('/commit\n');
    await until(() => /uncommitted changes/.test(p.err()));
    p.child.stdin.end('/end\n');
    const code = await p.closed;
    expect(code, p.err()).toBe(8);
    expect(p.err()).toContain(REL);
    expect(p.err()).toMatch(/staged proposals stay staged/);
    expect(p.err()).toMatch(/aureus play --resume d5/);
    expect(p.out()).not.toMatch(/\[canon\] commit/);
    expect(git(w, 'rev-list', '--count', 'HEAD')).toBe('1');
    expect(git(w, 'status', '--porcelain')).toBe(`M ${REL}`);
    const staged = records(w, 'd5').filter((x) => x.type === 'proposal');
    expect(staged.length).toBeGreaterThan(0);
    expect(records(w, 'd5').filter((x) => x.type === 'canonized')).toEqual([]);

    // The user commits the edit as their own; the session then canonizes on top of it.
    git(w, 'commit', '-q', '-m', 'hand edit: fear 0.35', '--', REL);
    const r = await playScript(['play', '--resume', 'd5'], w, '/end\n');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\[canon\] commit [0-9a-f]{10}: accepted p1/);
    expect(git(w, 'rev-list', '--count', 'HEAD')).toBe('3');
    expect(git(w, 'log', '-1', '--format=%s', 'HEAD~1')).toBe('hand edit: fear 0.35');
    expect(changed(w, 'HEAD~1', REL)).toEqual(['-        "fear": 0.3,', '+        "fear": 0.35,']);
    expect(changed(w, 'HEAD', REL).join('\n')).not.toContain('"fear"');
    expect(git(w, 'status', '--porcelain')).toBe('');

    // A finished session canonizes nothing more: resuming it on a dirty world is harmless, not refused.
    handEdit(w);
    const head = git(w, 'rev-parse', 'HEAD');
    const again = await playScript(['play', '--resume', 'd5'], w, 'Another line\n');
    expect(again.code, again.stderr).toBe(0);
    expect(git(w, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(w, 'status', '--porcelain')).toBe(`M ${REL}`);
  });
});
