import { describe, expect, it } from 'vitest';
import { escapeControl, escapeControlIn, stripControl, unseenIn } from '../../src/diagnostics/sanitize.js';

/**
 * Messages showed a zero-width space, a soft hyphen or a BOM as nothing: "no character "cato"" for an
 * id that was "cato\u200b", and two names that look the same could not be told apart. escapeControl
 * now shows every character a name may not hold (unseenIn, AUR1055) escaped, as it shows a control
 * character; the two classes still differ where layout needs it (tab, newline, an emoji's joiner).
 */
describe('escapeControl shows invisible characters', () => {
  it('zero-width characters, the BOM, a soft hyphen, the word joiner, line and paragraph separators, tag characters', () => {
    expect(escapeControl('no character "cato\u200b"')).toBe('no character "cato\\u200b"');
    expect(escapeControl('Ci\u200ccero \u200dCato\u2060 \ufeffCaesar')).toBe('Ci\\u200ccero \\u200dCato\\u2060 \\ufeffCaesar');
    expect(escapeControl('Cati\u00adline')).toBe('Cati\\xadline');
    expect(escapeControl('one\u2028two\u2029three')).toBe('one\\u2028two\\u2029three');
    expect(escapeControl('Crassus\u{e0041}\u{e0042}')).toBe('Crassus\\u{e0041}\\u{e0042}');
  });

  it('as unseenIn (the names rule, AUR1055) names each one: the same spelling', () => {
    const name = 'M\u200barcus\u00ad \u2066Tullius\u2069\u{e0020}';
    const shown = escapeControl(name);
    for (const u of unseenIn(name)) expect(shown).toContain(u);
    expect(unseenIn(name)).toEqual(['\\u200b', '\\xad', '\\u2066', '\\u2069', '\\u{e0020}']);
  });

  it('still escapes control and bidi characters as before, and keeps tab and newline (a message has lines)', () => {
    expect(escapeControl('\u001b[31mred\u001b[0m \u202eevil \u200eltr')).toBe('\\x1b[31mred\\x1b[0m \\u202eevil \\u200eltr');
    expect(escapeControl('line one\n\tline two')).toBe('line one\n\tline two');
  });

  it('leaves visible text alone: macrons, Greek, dashes, emoji, and a joiner that draws one emoji', () => {
    const text = 'Cicerō — Κικέρων 🏛️ 👨‍👩‍👧 👩🏽‍⚖️ ❤️‍🔥';
    expect(escapeControl(text)).toBe(text);
    // A joiner between letters, or after an emoji with nothing drawn after it, is an invisible mark.
    expect(escapeControl('cato\u200d')).toBe('cato\\u200d');
    expect(escapeControl('👨\u200d ')).toBe('👨\\u200d ');
  });

  it('escapeControlIn (world text printed by status, query, recap) shows them too, keys included', () => {
    expect(escapeControlIn({ 'cato\u200b': ['Cato\ufeff the Younger'] })).toEqual({ 'cato\\u200b': ['Cato\\ufeff the Younger'] });
  });

  it('committed model text is not changed: stripControl removes only the control and bidi characters (STRIPPED)', () => {
    expect(stripControl('Cato\u200b wept.\u00ad').text).toBe('Cato\u200b wept.\u00ad');
  });
});
