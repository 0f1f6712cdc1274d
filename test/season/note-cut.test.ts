import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, git, makeWorld, spawnCli } from '../pipeline/world.js';

/**
 * `aureus note` over the notes' limit (2,000 characters): it cut the text at 2,000 UTF-16 units,
 * which left half an emoji (a lone surrogate) in notes.json and in the commit, and said nothing of
 * the cut. Now it cuts in code points (core/code-points.ts, as play's /note does) and says so.
 */
afterAll(cleanup);

const NOTES = 'seasons/season_01/notes.json';
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe('note over the limit', () => {
  it('is cut at 2,000 code points (never inside an emoji), with a notice saying so', async () => {
    const w = await makeWorld('note-cut');
    const text = 'a'.repeat(1999) + '\u{1F600}'.repeat(3);
    const r = await spawnCli(['note', text, '--json'], w);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("note: it was 2002 characters; cut at the season notes' limit of 2000 (the first 2000 are kept)");
    const stored = JSON.parse(fs.readFileSync(path.join(w, NOTES), 'utf8')).notes[0].text as string;
    expect(stored).toBe('a'.repeat(1999) + '\u{1F600}');
    expect(LONE.test(stored)).toBe(false);
    expect(JSON.parse(r.stdout).text).toBe(stored);
    expect(git(w, 'log', '-1', '--format=%B')).toContain(stored);
    // A note under the limit is kept whole, without a notice.
    const ok = await spawnCli(['note', 'short \u{1F600}'], w);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stderr).not.toContain('cut at');
  }, 60_000);
});
