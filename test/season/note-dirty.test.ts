import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, copyRepo, git, makeWorld, spawnCli } from '../pipeline/world.js';

/**
 * `aureus note` and what its commit carries. It committed a hand edit of notes.json as part of the
 * note's own commit, without a word (play refuses that edit: AUR6001, exit 8); and it put a note's
 * raw escape bytes into the commit subject, where `git log` would obey them.
 */
let pristine = '';
beforeAll(async () => {
  pristine = await makeWorld('note-dirty');
  const r = await spawnCli(['note', 'first'], pristine);
  expect(r.code, r.stderr).toBe(0);
}, 120_000);
afterAll(cleanup);

const NOTES = 'seasons/season_01/notes.json';

describe('note', () => {
  it('refuses an uncommitted edit of notes.json (exit 8, AUR6001 naming it): nothing written or committed, the edit kept', async () => {
    const w = copyRepo(pristine, 'note-hand-edit');
    const file = path.join(w, NOTES);
    const edited = fs.readFileSync(file, 'utf8').replace('"first"', '"HAND EDIT"');
    fs.writeFileSync(file, edited);
    const head = git(w, 'rev-parse', 'HEAD');
    const r = await spawnCli(['note', 'second'], w);
    expect(r.code, r.stderr).toBe(8);
    expect(r.stderr).toContain(`error AUR6001 uncommitted changes to the season notes: ${NOTES}`);
    expect(r.stderr).not.toContain('--allow-dirty');
    expect(git(w, 'rev-parse', 'HEAD')).toBe(head);
    expect(fs.readFileSync(file, 'utf8')).toBe(edited);
    // An edit elsewhere is not the note's commit's business: it is neither refused nor carried.
    git(w, 'checkout', '-q', '--', NOTES);
    fs.appendFileSync(path.join(w, 'style/style_guide.md'), '\nA hand edit.\n');
    const ok = await spawnCli(['note', 'second'], w);
    expect(ok.code, ok.stderr).toBe(0);
    expect(git(w, 'show', '--pretty=format:', '--name-only', 'HEAD')).toBe(NOTES);
    expect(git(w, 'status', '--porcelain')).toBe('M style/style_guide.md');
  }, 60_000);

  it('refuses control and bidi characters in a note (exit 2, AUR3062): nothing written or committed', async () => {
    const w = copyRepo(pristine, 'note-control');
    const head = git(w, 'rev-parse', 'HEAD');
    const before = fs.readFileSync(path.join(w, NOTES), 'utf8');
    for (const [text, shown] of [['evil\x1b[31mred', '\\u001b'], ['abc\u202edef', '\\u202e']] as const) {
      const r = await spawnCli(['note', text], w);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`it holds control or bidi characters (${shown}); a note is plain text`);
      expect(r.stderr).not.toMatch(/[\x1b\u202e]/);
    }
    expect(git(w, 'rev-parse', 'HEAD')).toBe(head);
    expect(fs.readFileSync(path.join(w, NOTES), 'utf8')).toBe(before);
    // Line breaks and tabs are white space: made one space, as before.
    const ok = await spawnCli(['note', 'two\nlines\there'], w);
    expect(ok.code, ok.stderr).toBe(0);
    expect(git(w, 'log', '-1', '--format=%s')).toBe('Note for S01E01: two lines here');
  }, 60_000);
});
