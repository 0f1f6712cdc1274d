import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtCli, cli, copyRepo, git } from '../pipeline/world.js';
import { useWorld } from '../support/use-world.js';
import { changedMidSession, LEXICON as LEX, playScript, records } from './support.js';

/**
 * Play checks the proposals of a session against the world's style/lexicon.md when it canonizes.
 * A lexicon `scene verify --lexicon` refuses is refused by play as well, with the same diagnostics
 * (AUR5082 and each problem at its line:column, exit 3): a byte that breaks UTF-8 (read leniently,
 * it became U+FFFD inside a forbidden word), a markdown row or a JSON entry that does not parse
 * (skipped, it was a word no proposal was checked against any more).
 */
const ARGS = ['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--mode', 'open'];
/** The starter lexicon, checked to have "okay" on line 17 (where each breakage below puts its problem). */
function lexiconText(w: string): string {
  const text = fs.readFileSync(path.join(w, LEX), 'utf8');
  expect(text.split('\n')[16]).toMatch(/^\| okay \|/);
  return text;
}

interface Breakage {
  name: string;
  /** Breaks the lexicon of world `w`. */
  apply: (w: string) => void;
  /** The problem listed under AUR5082 (after its line:column). */
  problem: RegExp;
  /** What `aureus validate` (src/style, markdown only) reports on the same file: the same row, its own code for the rest. */
  validate: RegExp;
}

const BREAKAGES: Breakage[] = [
  {
    name: 'a byte that is not UTF-8',
    // "okay" (line 17) saved as Latin-1 "okæy": byte 0xE6 at column 5.
    apply: (w) => {
      const bytes = Buffer.from(lexiconText(w).replace('| okay |', '| ok\u0000y |'));
      bytes[bytes.indexOf(0)] = 0xe6;
      fs.writeFileSync(path.join(w, LEX), bytes);
    },
    problem: /\n {2}17:5: error AUR1003 file is not valid UTF-8 \(first bad byte at offset \d+\)/,
    validate: /^style\/lexicon\.md\n {2}17:5: error AUR1808 style file style\/lexicon\.md is not valid UTF-8 \(first bad byte at offset \d+\)\n/,
  },
  {
    name: 'a markdown row that does not parse',
    // The "okay" row (line 17) lost its note cell: skipped, "okay" was no longer checked.
    apply: (w) => fs.writeFileSync(path.join(w, LEX), lexiconText(w).replace(/^\| okay \| very well; so be it \|.*$/m, '| okay | very well; so be it |')),
    problem: /\n {2}17:1: error AUR1802 lexicon row has 2 cells; expected 3 \(forbidden \| replacement \| note\)\n/,
    validate: /^style\/lexicon\.md\n {2}17:1: error AUR1802 lexicon row has 2 cells; expected 3 \(forbidden \| replacement \| note\)\n/,
  },
  {
    name: 'a JSON entry that does not parse',
    // A JSON lexicon (text that opens like JSON is read as JSON) whose entry /1 has no "forbidden" word.
    apply: (w) => fs.writeFileSync(path.join(w, LEX), '[\n  {"forbidden": "okay", "replacement": "very well"},\n  {"word": 3, "replacement": "agreed"}\n]\n'),
    problem: /\n {2}3:3 \/1: error AUR5083 lexicon entry \/1 has no "forbidden" word \(a non-empty string\)\n/,
    // validate reads style/lexicon.md as markdown only: JSON there is a file with no table.
    validate: /^style\/lexicon\.md\n {2}1:1: error AUR1801 no lexicon table found/,
  },
];

/** AUR5082 on the lexicon's absolute path, and the one problem listed under it. */
function expectRefused(stderr: string, w: string, problem: RegExp): void {
  const file = path.join(w, LEX);
  expect(stderr).toContain(`${file}\n  error AUR5082 lexicon ${file} cannot be used: 1 problem (listed below)`);
  expect(stderr).toMatch(problem);
}

describe.skipIf(!builtCli()).each(BREAKAGES)('aureus play, a lexicon with $name', ({ apply, problem, validate }) => {
  const base = useWorld('play-lexicon');

  it('refuses it before the session starts: exit 3, AUR5082 and the problem at its line:column, nothing played or written', async () => {
    const w = copyRepo(base(), 'play-lexicon-start');
    apply(w);
    git(w, 'commit', '-qam', 'lexicon broken');
    const r = await playScript([...ARGS, '--session', 'l1'], w, 'Catiline, where were you last night?\n/end\n');
    expect(r.code, r.stderr).toBe(3);
    expectRefused(r.stderr, w, problem);
    expect(r.stdout).not.toMatch(/^CATILINE: /m);
    expect(fs.existsSync(path.join(w, '.aureus/sessions'))).toBe(false);
    expect(git(w, 'rev-list', '--count', 'HEAD')).toBe('2');

    // `validate` refuses the file as well (exit 3), before any `episode run` would use it.
    const v = await cli(['validate'], w);
    expect(v.code, v.stdout).toBe(3);
    expect(v.stdout).toMatch(validate);
  });

  it('broken while the session runs: its canonization is refused (exit 3), nothing committed, proposals staged; restored, --resume canonizes', async () => {
    const w = copyRepo(base(), 'play-lexicon-mid');
    const p = await changedMidSession([...ARGS, '--session', 'l2'], w, 'Catiline, where were you last night?\n', apply);
    expect(p.code, p.stderr).toBe(3);
    expectRefused(p.stderr, w, problem);
    expect(p.stdout).not.toMatch(/\[canon\] commit/);
    expect(git(w, 'rev-list', '--count', 'HEAD')).toBe('1');
    expect(records(w, 'l2').filter((x) => x.type === 'proposal').length).toBeGreaterThan(0);
    expect(records(w, 'l2').filter((x) => x.type === 'canonized')).toEqual([]);

    // Still broken, --resume is refused before its first turn, the same way.
    const again = await playScript(['play', '--resume', 'l2'], w, 'And the letters?\n/end\n');
    expect(again.code, again.stderr).toBe(3);
    expectRefused(again.stderr, w, problem);
    expect(again.stdout).not.toMatch(/\[canon\] commit/);
    expect(git(w, 'rev-list', '--count', 'HEAD')).toBe('1');

    git(w, 'checkout', '--', LEX);
    const r = await playScript(['play', '--resume', 'l2'], w, '/end\n');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\[canon\] commit [0-9a-f]{10}: accepted p1/);
    expect(git(w, 'rev-list', '--count', 'HEAD')).toBe('2');
  });
});
