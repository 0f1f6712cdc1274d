import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findAnachronisms, MAX_FORBIDDEN_CHARS, MAX_FORBIDDEN_WORDS, MAX_LEXICON_ENTRIES, parseLexicon } from '../../src/style/lexicon.js';
import { isAureusError } from '../../src/errors.js';
import { builtCli, cleanup, git, makeWorld, spawnCli } from '../pipeline/world.js';

/**
 * The scanner compiles the whole lexicon into one regular expression. An entry of 3,000 words passed
 * `validate` and then broke `episode run` (exit 1, "Invalid regular expression … Stack overflow",
 * the 16 KB expression on stderr). validate now refuses what the scanner cannot take, located, and
 * the scanner turns an expression V8 refuses into exit 3 naming the lexicon.
 */
afterAll(cleanup);

const table = (rows: string[]) => ['| forbidden | replacement | note |', '| --- | --- | --- |', ...rows].join('\n') + '\n';

describe('lexicon limits', () => {
  it('refuses an entry of too many words or characters, at its line (AUR1811)', () => {
    const ok = Array(MAX_FORBIDDEN_WORDS).fill('w').join(' ');
    const r = parseLexicon(table(['| okay | well | |', `| ${ok} | x | |`, `| ${'w '.repeat(3000)}| x | y |`, `| ${'a'.repeat(MAX_FORBIDDEN_CHARS + 1)} | x | |`]), 'style/lexicon.md');
    expect(r.entries.map((e) => e.forbidden)).toEqual(['okay', ok]);
    expect(r.diagnostics.map((d) => [d.code, d.file, d.line])).toEqual([
      ['AUR1811', 'style/lexicon.md', 5],
      ['AUR1811', 'style/lexicon.md', 6],
    ]);
    expect(r.diagnostics[0]!.message).toMatch(/^forbidden entry "w w w .{30,}…" is too long: 3000 words \(at most 12 words and 100 characters\)$/);
    expect(r.diagnostics[1]!.message).toContain(`${MAX_FORBIDDEN_CHARS + 1} characters`);
  });

  it('refuses a lexicon of more entries than the limit, once, at the first row over it (AUR1812)', () => {
    const rows = Array.from({ length: MAX_LEXICON_ENTRIES + 5 }, (_, i) => `| w${i} | x | |`);
    const r = parseLexicon(table(rows), 'style/lexicon.md');
    expect(r.entries).toHaveLength(MAX_LEXICON_ENTRIES);
    expect(r.diagnostics.map((d) => [d.code, d.line])).toEqual([['AUR1812', MAX_LEXICON_ENTRIES + 3]]);
  });

  it('the scanner turns an expression V8 cannot compile into exit 3 (AUR5082), without quoting it', () => {
    // Past 32,766 capture groups V8 refuses the expression whatever the stack: entries from elsewhere than parseLexicon.
    const entries = Array.from({ length: 40_000 }, (_, i) => ({ forbidden: `w${i}`, replacement: 'x' }));
    let thrown: unknown;
    try {
      findAnachronisms('w1 says okay', entries);
    } catch (e) {
      thrown = e;
    }
    expect(isAureusError(thrown)).toBe(true);
    if (!isAureusError(thrown)) return;
    expect(thrown.exitCode).toBe(3);
    expect(thrown.diagnostics.map((d) => d.code)).toEqual(['AUR5082']);
    expect(thrown.diagnostics[0]!.message).toContain('40000 entries make a pattern the scanner cannot compile (Too many captures)');
    expect(thrown.diagnostics[0]!.message.length).toBeLessThan(400);
  });
});

describe.skipIf(!builtCli())('a lexicon entry of 3,000 words, from the CLI', () => {
  it('validate refuses it at its line; episode run exits 3 with the same diagnostic, not an internal error', async () => {
    const root = await makeWorld('lexicon-long');
    const file = path.join(root, 'style/lexicon.md');
    const text = fs.readFileSync(file, 'utf8');
    const line = text.split('\n').findIndex((l) => l.startsWith('| okay |')) + 1;
    fs.writeFileSync(file, text.replace('| okay | very well; so be it | modern interjection |', `| ${'w '.repeat(3000)}| x | y |`));
    git(root, 'commit', '-qam', 'lex');
    const v = await spawnCli(['validate'], root);
    expect(v.code, v.stdout).toBe(3);
    expect(v.stdout).toMatch(new RegExp(`style/lexicon.md\\n  ${line}:1: error AUR1811 forbidden entry "w w w`));
    const r = await spawnCli(['episode', 'run', '--no-commit'], root);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain('AUR1811');
    expect(r.stderr).not.toMatch(/internal error|Invalid regular expression/);
    expect(r.stderr.length).toBeLessThan(4000);
  }, 120_000);
});
