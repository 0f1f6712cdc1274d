import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findAnachronisms, parseLexicon } from '../../src/style/lexicon.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const kitLexicon = () => fs.readFileSync(path.join(ROOT, 'style/lexicon.md'), 'utf8');

/** Every text file of the starter kit a writer prompt or a scene could quote from. */
function kitTextFiles(): string[] {
  const files: string[] = ['style/style_guide.md'];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = path.posix.join(dir, e.name);
      if (e.isDirectory()) walk(rel);
      else if (e.name.endsWith('.json')) files.push(rel);
    }
  };
  walk('world');
  walk('operators');
  files.push('seasons/season_01/season_goals.json');
  return files;
}

describe('the starter kit lexicon', () => {
  it('parses with at least 60 entries and no diagnostics', () => {
    const r = parseLexicon(kitLexicon(), 'style/lexicon.md');
    expect(r.diagnostics).toEqual([]);
    expect(r.entries.length).toBeGreaterThanOrEqual(60);
    for (const e of r.entries) {
      expect(e.forbidden.trim()).toBe(e.forbidden);
      expect(e.replacement.length).toBeGreaterThan(0);
    }
    // Spot-check a few of the slips writers really make.
    const words = r.entries.map((e) => e.forbidden.toLowerCase());
    for (const w of ['okay', 'clock', 'paper', 'million', 'police', 'newspaper', 'monday', 'sugar', 'potato']) expect(words).toContain(w);
  });

  it('no forbidden word appears in the kit JSON or the style guide', () => {
    const { entries } = parseLexicon(kitLexicon());
    const found: string[] = [];
    const files = kitTextFiles();
    expect(files.length).toBeGreaterThanOrEqual(11);
    for (const rel of files) {
      for (const h of findAnachronisms(fs.readFileSync(path.join(ROOT, rel), 'utf8'), entries)) {
        found.push(`${rel}:${h.line}:${h.column} "${h.word}" (use: ${h.replacement})`);
      }
    }
    expect(found).toEqual([]);
  });
});

describe('parseLexicon diagnostics', () => {
  const md = [
    '# Lexicon', //                                          1
    '', //                                                   2
    '| forbidden | replacement | note |', //                 3
    '| --- | --- | --- |', //                                4
    '| okay | very well | fine |', //                        5
    '| clock | sundial |', //                                6  two cells
    '| paper |  | note |', //                                7  empty replacement
    '| Okay | so be it | dup |', //                           8  duplicate (case-insensitive)
    "| 'tis | it is | starts with a quote |", //             9  bad word edges
    '| a \\| b | c | escaped pipe |', //                     10 one cell with a literal pipe
    '| one | two | three | four |', //                      11 four cells
    '', //                                                   12
    'Prose between tables is ignored.', //                   13
    '| forbidden | replacement | note |', //                14 header with no separator
    '| sugar | honey | |', //                               15
  ].join('\n');

  it('reports each malformed row with its line number and keeps the good ones', () => {
    const r = parseLexicon(md, 'style/lexicon.md');
    expect(r.entries.map((e) => [e.forbidden, e.line])).toEqual([
      ['okay', 5],
      ['a | b', 10],
    ]);
    expect(r.diagnostics.map((d) => [d.code, d.line])).toEqual([
      ['AUR1802', 6],
      ['AUR1803', 7],
      ['AUR1804', 8],
      ['AUR1806', 9],
      ['AUR1802', 11],
      ['AUR1805', 14],
    ]);
    for (const d of r.diagnostics) {
      expect(d.file).toBe('style/lexicon.md');
      expect(d.severity).toBe('error');
      expect(d.hint).toBeTruthy();
    }
    expect(r.diagnostics[2]!.message).toContain('first at line 5');
    expect(r.diagnostics[1]!.message).toContain('replacement');
  });

  it('reports a file with no lexicon table', () => {
    const r = parseLexicon('# Lexicon\n\n| word | instead |\n| --- | --- |\n| okay | well |\n', 'x.md');
    expect(r.entries).toEqual([]);
    expect(r.diagnostics.map((d) => [d.code, d.line, d.file])).toEqual([['AUR1801', 1, 'x.md']]);
  });

  it('reads a GFM table without outer pipes (as GitHub renders it), with each row\'s line and width checked', () => {
    const text = [
      '# Lexicon', //                                  1
      '', //                                           2
      'forbidden | replacement | note', //             3
      ':--- | --- | ---:', //                           4
      'okay | very well | modern', //                  5
      'clock | sundial', //                            6  two cells
      'a \\| b | c | escaped pipe', //                 7
      'one | two | three | four', //                   8  four cells
      '', //                                           9
      'Forbidden | Replacement | Note', //             10 a second table, mixed pipes
      '--- | --- | ---', //                            11
      '| sugar | honey | |', //                        12
    ].join('\n');
    const r = parseLexicon(text, 'x.md');
    expect(r.entries.map((e) => [e.forbidden, e.replacement, e.note, e.line])).toEqual([
      ['okay', 'very well', 'modern', 5],
      ['a | b', 'c', 'escaped pipe', 7],
      ['sugar', 'honey', '', 12],
    ]);
    expect(r.diagnostics.map((d) => [d.code, d.line, d.message])).toEqual([
      ['AUR1802', 6, 'lexicon row has 2 cells; expected 3 (forbidden | replacement | note)'],
      ['AUR1802', 8, 'lexicon row has 4 cells; expected 3 (forbidden | replacement | note)'],
    ]);
  });

  it('a header without outer pipes and no separator under it is AUR1805 at its line', () => {
    const r = parseLexicon('# Lexicon\n\nSome prose.\nforbidden | replacement | note\nokay | well | x\n', 'x.md');
    expect(r.entries).toEqual([]);
    expect(r.diagnostics.map((d) => [d.code, d.line])).toEqual([['AUR1805', 4]]);
  });

  it('accepts CRLF line endings, a BOM, alignment colons and several tables', () => {
    const text = '\uFEFF| Forbidden | Replacement | Note |\r\n|:---|:---:|---:|\r\n| okay | well | |\r\n\r\n## More\r\n| forbidden | replacement | note |\r\n| --- | --- | --- |\r\n| stock market | the tax companies\' shares | phrase |\r\n';
    const r = parseLexicon(text);
    expect(r.diagnostics).toEqual([]);
    expect(r.entries.map((e) => [e.forbidden, e.replacement, e.note, e.line])).toEqual([
      ['okay', 'well', '', 3],
      ['stock market', "the tax companies' shares", 'phrase', 8],
    ]);
  });
});

describe('findAnachronisms', () => {
  const entries = [
    { forbidden: 'okay', replacement: 'very well' },
    { forbidden: 'tea', replacement: 'warm wine' },
    { forbidden: 'clock', replacement: 'sundial' },
    { forbidden: "o'clock", replacement: 'the third hour' },
    { forbidden: 'stock market', replacement: 'the money-changers' },
    { forbidden: 'dollar', replacement: 'denarius' },
  ];

  it('matches whole words, case-insensitively, with index, line and column', () => {
    const text = 'OKAY, said Crassus.\nTeapots are not tea. Okayish? No: Okay.';
    const hits = findAnachronisms(text, entries);
    expect(hits.map((h) => [h.word, h.index, h.line, h.column])).toEqual([
      ['OKAY', 0, 1, 1],
      ['tea', 36, 2, 17],
      ['Okay', 54, 2, 35],
    ]);
    expect(hits[0]!.replacement).toBe('very well');
    expect(hits[0]!.forbidden).toBe('okay');
    expect(text.slice(hits[1]!.index, hits[1]!.index + 3)).toBe('tea');
  });

  it('matches multi-word phrases across any whitespace, and plurals', () => {
    const text = 'He played the stock\n   market with ten dollars.';
    const hits = findAnachronisms(text, entries);
    expect(hits.map((h) => [h.word, h.line, h.forbidden])).toEqual([
      ['stock\n   market', 1, 'stock market'],
      ['dollars', 2, 'dollar'],
    ]);
  });

  it('reports an overlapping span once, preferring the longer entry, and accepts a curly apostrophe', () => {
    const hits = findAnachronisms("At six o'clock. At seven o’clock. The clock struck.", entries);
    expect(hits.map((h) => h.forbidden)).toEqual(["o'clock", "o'clock", 'clock']);
    expect(hits[1]!.word).toBe('o’clock');
  });

  it('finds nothing in clean Roman prose and gives the same answer twice', () => {
    const text = 'At the third hour the consul read the tablets by the sundial and called for warm wine.';
    expect(findAnachronisms(text, entries)).toEqual([]);
    const dirty = 'okay okay';
    expect(findAnachronisms(dirty, entries)).toEqual(findAnachronisms(dirty, entries));
    expect(findAnachronisms(dirty, entries)).toHaveLength(2);
  });
});

describe('the scanner regex (one look-ahead after the alternation)', () => {
  /** The former scanner, with the whole-word look-ahead at the end of every entry: the reference. */
  function reference(text: string, entries: { forbidden: string }[]): { word: string; forbidden: string; index: number }[] {
    const normal = (s: string) => s.toLowerCase().replace(/[’‘]/g, "'").replace(/\s+/g, ' ').trim();
    const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const pat = (f: string) => `${normal(f).split(' ').map((w) => esc(w).replace(/'/g, "['’]")).join('\\s+')}${/\p{L}$/u.test(f) ? '(?:e?s)?' : ''}`;
    const order = entries.map((_, i) => i).sort((a, b) => entries[b]!.forbidden.length - entries[a]!.forbidden.length || a - b);
    const re = new RegExp(`(?<![\\p{L}\\p{N}_])(?:${order.map((i) => `(${pat(entries[i]!.forbidden)}(?![\\p{L}\\p{N}_]))`).join('|')})`, 'giu');
    return [...text.matchAll(re)].map((m) => ({ word: m[0], forbidden: entries[order[m.findIndex((g, i) => i > 0 && g !== undefined) - 1]!]!.forbidden, index: m.index }));
  }

  it('finds exactly what the per-entry look-ahead found, on texts made of the kit lexicon words', () => {
    const { entries } = parseLexicon(kitLexicon());
    const words = entries.flatMap((e) => [e.forbidden, e.forbidden.toUpperCase(), `${e.forbidden}s`, `${e.forbidden}es`, `${e.forbidden}x`, `_${e.forbidden}`]);
    const glue = [' ', '  ', '\n', ', ', "'", '’', '-', '_', 'é', '1', '. '];
    // A seeded walk (no Math.random): every text is reproducible.
    let seed = 12345;
    const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
    for (let t = 0; t < 300; t++) {
      let text = '';
      for (let k = 0; k < 12; k++) text += words[next(words.length)]! + glue[next(glue.length)]!;
      const got = findAnachronisms(text, entries).map(({ word, forbidden, index }) => ({ word, forbidden, index }));
      expect(got).toEqual(reference(text, entries));
    }
  });
});
