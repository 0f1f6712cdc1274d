import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadStyle } from '../../src/style/guide.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const temps: string[] = [];
async function tempRepo(files: Record<string, string | Uint8Array>): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'aureus-style-'));
  temps.push(dir);
  for (const [rel, body] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await fs.writeFile(path.join(dir, rel), body);
  }
  return dir;
}
afterEach(async () => {
  for (const d of temps.splice(0)) await fs.rm(d, { recursive: true, force: true });
});

describe('loadStyle', () => {
  it('loads the starter kit: guide sections for every setting family, and the parsed lexicon', async () => {
    const s = await loadStyle(ROOT);
    expect(s.diagnostics).toEqual([]);
    expect(s.lexicon.length).toBeGreaterThanOrEqual(60);
    expect(s.guide).toContain('Thriller Mode');
    expect(s.lexiconMarkdown).toContain('| forbidden | replacement | note |');
    const headings = Object.keys(s.sections);
    expect(headings).toEqual(expect.arrayContaining(['voice and tone', 'court and villa scenes: rhetoric', 'street and port scenes: thriller mode', 'content safety']));
    const rhetoric = s.sections['court and villa scenes: rhetoric']!;
    for (const device of ['Anaphora', 'Tricolon', 'Sententia', 'Praeteritio']) expect(rhetoric).toContain(device);
    expect(s.sections['street and port scenes: thriller mode']).toMatch(/Short sentences/);
    expect(s.sections['content safety']).toMatch(/Slavery/);
  });

  it('reports missing style files without throwing', async () => {
    const dir = await tempRepo({ 'world/.keep': '' });
    const s = await loadStyle(dir);
    expect(s.diagnostics.map((d) => [d.code, d.file])).toEqual([
      ['AUR1807', 'style/style_guide.md'],
      ['AUR1807', 'style/lexicon.md'],
    ]);
    expect(s.guide).toBe('');
    expect(s.lexicon).toEqual([]);
  });

  it('reports a lexicon that is not UTF-8, an empty guide, and a malformed lexicon row with its line', async () => {
    const bad = new Uint8Array([0x7c, 0x20, 0xff, 0xfe, 0x0a]);
    const d1 = await tempRepo({ 'style/style_guide.md': '   \n', 'style/lexicon.md': bad });
    const s1 = await loadStyle(d1);
    expect(s1.diagnostics.map((d) => [d.code, d.file])).toEqual([
      ['AUR1809', 'style/style_guide.md'],
      ['AUR1808', 'style/lexicon.md'],
    ]);
    expect(s1.diagnostics[1]!.message).toContain('offset 2');
    expect([s1.diagnostics[1]!.line, s1.diagnostics[1]!.column]).toEqual([1, 3]);
    // Located on a later line too, by its column in that line (as a world file's AUR1003 is).
    const d3 = await tempRepo({ 'style/style_guide.md': '# Guide\n', 'style/lexicon.md': new Uint8Array([...Buffer.from('| a | b | c |\n| é ok'), 0xe6, 0x0a]) });
    const bad3 = (await loadStyle(d3)).diagnostics.find((d) => d.code === 'AUR1808')!;
    expect([bad3.line, bad3.column, bad3.message]).toEqual([2, 7, 'style file style/lexicon.md is not valid UTF-8 (first bad byte at offset 21)']);

    const d2 = await tempRepo({
      'style/style_guide.md': '# Guide\r\n\r\n## Voice\r\nShort.\r\n',
      'style/lexicon.md': '| forbidden | replacement | note |\n| --- | --- | --- |\n| okay | well | |\n| clock |\n',
    });
    const s2 = await loadStyle(d2);
    expect(s2.sections).toEqual({ voice: 'Short.' });
    expect(s2.lexicon.map((e) => e.forbidden)).toEqual(['okay']);
    expect(s2.diagnostics.map((d) => [d.code, d.file, d.line])).toEqual([['AUR1802', 'style/lexicon.md', 4]]);
  });
});
