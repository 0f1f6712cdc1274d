import { describe, expect, it } from 'vitest';
import { stripControl, stripControlIn } from '../../src/diagnostics/sanitize.js';

/**
 * What stripControl removes is what a terminal (ECMA-48) takes as one escape sequence: a whole CSI
 * or control string, an Fe escape (ESC and one byte 0x40–0x5F) with its byte, and otherwise only the ESC.
 */
describe('stripControl and ECMA-48 escape sequences', () => {
  it('removes an ESC before a capital letter with the letter: ESC N is SS2, ESC M is RI, a real Fe escape', () => {
    expect(stripControl('\u001bNone of them came.')).toEqual({ text: 'one of them came.', removed: ['\\u001b'] });
    expect(stripControl('Crassus\u001bM spoke')).toEqual({ text: 'Crassus spoke', removed: ['\\u001b'] });
    // The 8-bit form of the same control (SS2, U+008E) goes the same way.
    expect(stripControl('\u008eNone').text).toBe('None');
    expect(stripControlIn({ line: '\u001bNo.' }, '', () => {})).toEqual({ line: 'o.' });
  });
  it('removes only the ESC before anything that starts no Fe escape: lower case, digits, space, punctuation', () => {
    expect(stripControl('\u001bnone, \u001b7 legions, \u001b (quietly), \u001b!').text).toBe('none, 7 legions,  (quietly), !');
    expect(stripControl('Cicer\u001bō').text).toBe('Cicerō');
  });
  it('removes a CSI whole with any ECMA-48 parameter bytes (0x30–0x3F), not only digits, ; and ?', () => {
    expect(stripControl('a \u001b[38:2:255:0:0mred\u001b[0m b').text).toBe('a red b');
    expect(stripControl('\u001b[>0cCatiline\u001b[=5h').text).toBe('Catiline');
    expect(stripControl('\u001b[1;31mConsul\u001b[m').text).toBe('Consul');
  });
  it('removes an OSC with its payload, ended by BEL or ST, and the other control strings ended by ST', () => {
    expect(stripControl('Rome\u001b]0;pwned\u0007 burns')).toEqual({ text: 'Rome burns', removed: ['\\u001b', '\\u0007'] });
    expect(stripControl('\u001b]8;;https://example.com/\u001b\\the Senate\u001b]8;;\u001b\\').text).toBe('the Senate');
    expect(stripControl('x\u001bPq#0;2;0;0;0\u001b\\y \u001b_apc\u001b\\z').text).toBe('xy z');
  });
  it('removes only the opener of a control string that is never terminated (or broken by a newline), not the prose after it', () => {
    expect(stripControl('\u001b]Rome burns while Nero plays.').text).toBe('Rome burns while Nero plays.');
    expect(stripControl('\u001b]0;title\nNext line\u0007').text).toBe('0;title\nNext line');
  });
});
