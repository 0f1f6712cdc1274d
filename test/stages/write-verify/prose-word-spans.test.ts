import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/domain/scene.js';
import { anachronismRules } from '../../../src/stages/f-verifier/rules/voice.js';
import { parseWriterOutput } from '../../../src/stages/e-writer/parse.js';
import { wordIn } from '../../../src/stages/f-verifier/prose/span.js';
import { quotedPlace } from '../../../src/pipeline/finding-place.js';
import { contextOf, findings, usePackets } from './prose-scenes.js';

// A finding that knows its offending word carries where it starts in the quote (span.at), so the
// author's editor is taken to the word (pipeline/finding-place.ts), not to the sentence's start.
usePackets();

/** The word a finding's span points at, `length` characters of it. */
const pointed = (f: Finding | undefined, length: number) => (f?.span?.at === undefined ? undefined : f.span.text.slice(f.span.at, f.span.at + length));

describe('the offending word of a finding (span.at)', () => {
  it('is the sum overspent, the name of the dead or of who is not in the cast, the far place of a teleport', () => {
    const money = findings('SC24', 'The lamps are low and the slaves have gone when Caesar pushes ninety thousand denarii across the table to Servilia.');
    expect(money.map((f) => f.code)).toEqual(['AUR5022']);
    expect(pointed(money[0], 'ninety thousand denarii'.length)).toBe('ninety thousand denarii');
    const dead = findings('SC01', 'The doors swing open, and Catiline strides down the aisle.');
    expect(dead.map((f) => f.code)).toEqual(['AUR5015']);
    expect(pointed(dead[0], 'Catiline'.length)).toBe('Catiline');
    const absent = findings('SC24', 'Behind the couches, in the half dark, Clodius steps out from behind a column.');
    const notCast = absent.find((f) => f.code === 'AUR5016');
    expect(notCast?.message).toMatch(/Clodius/);
    expect(pointed(notCast, 'Clodius'.length)).toBe('Clodius');
    const away = findings('SC24', 'Elsewhere, at Ostia, Cato walks the quay and counts the grain ships.');
    expect(away.map((f) => f.code)).toEqual(['AUR5017']);
    expect(pointed(away[0], 'Ostia'.length)).toBe('Ostia');
  });

  it('is the anachronism itself, at its first place on the line', () => {
    const raw = '---SCENE_TEXT---\nCato waits a minute, okay, then another minute.\n---CLAIMS---\n[]\n---SCENE_EVENTS---\n[]\n';
    const lexicon = [{ forbidden: 'minute', replacement: 'moment' }, { forbidden: 'okay', replacement: 'very well' }];
    const got = anachronismRules(parseWriterOutput(raw), { ...contextOf('SC24'), lexicon });
    expect(got.map((f) => [f.message, f.span?.at])).toEqual([['anachronism "minute" (×2)', 13], ['anachronism "okay"', 21]]);
  });

  it('is found as a whole word, outside a quotation first', () => {
    expect(wordIn('"Cato," says Cato.', 'Cato')).toBe(13);
    expect(wordIn('Catonis and Cato', 'Cato')).toBe(12);
    expect(wordIn('"Only Cato."', 'cato')).toBe(6);
    expect(wordIn('nobody here', 'Cato')).toBe(-1);
  });
});

describe('a finding placed in the file the author edits (pipeline/finding-place.ts quotedPlace)', () => {
  const file = '## SC01 — EXT. FORUM - DAY\n\n  The crowd thins. Cato pays a fortune.\n';
  it('is at the quote plus the word\'s offset, a quote with leading blanks included', () => {
    expect(quotedPlace(file, 'Cato pays a fortune.', 'SC01')).toEqual({ line: 3, column: 20 });
    expect(quotedPlace(file, 'Cato pays a fortune.', 'SC01', 10)).toEqual({ line: 3, column: 30 });
    expect(quotedPlace(file, '  The crowd thins.', undefined, 6)).toEqual({ line: 3, column: 7 });
  });
  it('finds a quote cut at 240 characters by what it keeps, the word past the cut included', () => {
    const long = `${'word '.repeat(60)}and then Cato pays.`;
    const cut = `${long.slice(0, 237)}...`;
    expect(quotedPlace(`intro\n${long}\n`, cut, undefined, long.indexOf('Cato'))).toEqual({ line: 2, column: long.indexOf('Cato') + 1 });
  });
});
