import { describe, expect, it } from 'vitest';
import { checkNameCharacters, mayHoldUnseen, UNSEEN_LEADS } from '../../src/store/limits.js';
import { unseenIn } from '../../src/diagnostics/sanitize.js';

/** A world-like file whose one name holds `name`, as aureus and editors write it (pretty-printed). */
const file = (name: string) => Buffer.from(JSON.stringify({ characters: [{ id: 'cicero', name, description: 'Consul — “new man” of Arpinum' }] }, null, 2) + '\n', 'utf8');

describe('mayHoldUnseen: the byte pre-check that lets a clean file skip the name walk', () => {
  it('names the lead byte of every non-ASCII character unseenIn refuses, derived from its regex', () => {
    const leads = new Set<number>();
    for (let cp = 0x80; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const ch = String.fromCodePoint(cp);
      if (unseenIn(ch).length) leads.add(Buffer.from(ch, 'utf8')[0]!);
    }
    expect([...leads].sort((a, b) => a - b)).toEqual([...UNSEEN_LEADS].sort((a, b) => a - b));
  });

  it('clears clean files, ASCII or not, so their walk is skipped', () => {
    expect(mayHoldUnseen(file('Marcus Tullius Cicero'))).toBe(false);
    expect(mayHoldUnseen(file('Quīntus Hortēnsius – the “orator”'))).toBe(false);
    // An escaped backslash before an n is a backslash and a letter, not a line break.
    expect(mayHoldUnseen(file('C:\\new'))).toBe(false);
    expect(mayHoldUnseen(file('a "quoted" / name'))).toBe(false);
  });

  it('flags every way a refused character can be written, escaped or raw', () => {
    for (const name of ['Marcus \u001b[31mCicero', 'two\nlines', 'tab\there', 'del\u007f', 'zero\u200bwidth', 'bidi\u202eevil', 'bom\ufeff', 'tag\u{e0001}', 'c1\u0085', 'soft\u00adhyphen', 'sep\u2028']) {
      const bytes = file(name);
      expect(checkNameCharacters(JSON.parse(bytes.toString('utf8')), 'world/characters.json').length, name).toBe(1);
      expect(mayHoldUnseen(bytes), JSON.stringify(name)).toBe(true);
    }
    // Raw, not escaped: JSON.stringify escapes C0 controls but writes format characters as they are.
    expect(mayHoldUnseen(Buffer.from('{"name": "a\u200bb"}'))).toBe(true);
    expect(mayHoldUnseen(Buffer.from('{"name": "a\\u200bb"}'))).toBe(true);
  });

  it('never clears a file the walk would refuse (random names from a mixed pool)', () => {
    const pool = ['a', 'ē', '–', '“', '\u200b', '\u202e', '\u0007', '\n', '\\', '"', '\u{1f600}', '\u00ad', '\ufeff', ' '];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % pool.length;
    for (let i = 0; i < 2000; i++) {
      const name = Array.from({ length: 1 + (i % 6) }, () => pool[next()]).join('');
      const bytes = file(name);
      if (checkNameCharacters(JSON.parse(bytes.toString('utf8')), 'f').length) expect(mayHoldUnseen(bytes), JSON.stringify(name)).toBe(true);
    }
  });
});
