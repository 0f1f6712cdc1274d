import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtCli, copyRepo, git } from '../pipeline/world.js';
import { useWorld } from '../support/use-world.js';
import { breakLexicon, changedMidSession, LEXICON as LEX, playScript, records } from './support.js';

/**
 * Play checks the proposals of a session against the world's style/lexicon.md when it canonizes.
 * A byte of it that breaks UTF-8 is refused as `scene verify --lexicon` refuses it (AUR5082 and
 * AUR1003 at its line:column, exit 3): read leniently, it became U+FFFD inside a forbidden word,
 * a word no proposal was checked against any more.
 */
const ARGS = ['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--mode', 'open'];

/** Both diagnostics, on the lexicon's absolute path. */
function expectRefused(stderr: string, w: string): void {
  const file = path.join(w, LEX);
  expect(stderr).toContain(`${file}\n  error AUR5082 lexicon ${file} cannot be used: 1 problem (listed below)`);
  expect(stderr).toMatch(/\n {2}17:5: error AUR1003 file is not valid UTF-8 \(first bad byte at offset \d+\)/);
}

describe.skipIf(!builtCli())('aureus play, a lexicon that is not UTF-8', () => {
  const base = useWorld('play-lexicon');

  it('refuses it before the session starts: exit 3, AUR5082 and AUR1003 at its line:column, nothing played or written', async () => {
    const w = copyRepo(base(), 'play-lexicon-start');
    breakLexicon(w);
    git(w, 'commit', '-qam', 'lexicon saved as Latin-1');
    const r = await playScript([...ARGS, '--session', 'l1'], w, 'Catiline, where were you last night?\n/end\n');
    expect(r.code, r.stderr).toBe(3);
    expectRefused(r.stderr, w);
    expect(r.stdout).not.toMatch(/^CATILINE: /m);
    expect(fs.existsSync(path.join(w, '.aureus/sessions'))).toBe(false);
    expect(git(w, 'rev-list', '--count', 'HEAD')).toBe('2');
  });

  it('broken while the session runs: its canonization is refused (exit 3), nothing committed, proposals staged; restored, --resume canonizes', async () => {
    const w = copyRepo(base(), 'play-lexicon-mid');
    const p = await changedMidSession([...ARGS, '--session', 'l2'], w, 'Catiline, where were you last night?\n', breakLexicon);
    expect(p.code, p.stderr).toBe(3);
    expectRefused(p.stderr, w);
    expect(p.stdout).not.toMatch(/\[canon\] commit/);
    expect(git(w, 'rev-list', '--count', 'HEAD')).toBe('1');
    expect(records(w, 'l2').filter((x) => x.type === 'proposal').length).toBeGreaterThan(0);
    expect(records(w, 'l2').filter((x) => x.type === 'canonized')).toEqual([]);

    git(w, 'checkout', '--', LEX);
    const r = await playScript(['play', '--resume', 'l2'], w, '/end\n');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\[canon\] commit [0-9a-f]{10}: accepted p1/);
    expect(git(w, 'rev-list', '--count', 'HEAD')).toBe('2');
  });
});
