import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { addDays, formatDate, formatPlainDate, formatRomanDate, isValidDate, monthLength, parseDate, romanDay } from '../../src/core/roman-date.js';

const d = (day: number, month: number, year_bc = 63) => ({ day, month, year_bc });

describe('core/roman-date: the one Roman date format', () => {
  it('formats Kalends, Nones and Ides on the pre-Julian calendar, counted inclusively', () => {
    expect(formatRomanDate(d(1, 7))).toBe('Kal. Quinct. 63 BC');
    expect(formatRomanDate(d(7, 7))).toBe('Non. Quinct. 63 BC');
    expect(formatRomanDate(d(13, 7))).toBe('a.d. III Id. Quinct. 63 BC');
    expect(formatRomanDate(d(14, 7))).toBe('prid. Id. Quinct. 63 BC');
    expect(formatRomanDate(d(15, 7))).toBe('Id. Quinct. 63 BC');
    // Quinctilis has 31 days: the 16th is a.d. XVII Kal. Sext.
    expect(formatRomanDate(d(16, 7))).toBe('a.d. XVII Kal. Sext. 63 BC');
    expect(formatRomanDate(d(31, 7))).toBe('prid. Kal. Sext. 63 BC');
    // A 29-day month (Ianuarius before Caesar): the 14th is a.d. XVII Kal. Feb. (XIX after the reform).
    expect(formatRomanDate(d(5, 1))).toBe('Non. Ian. 63 BC');
    expect(formatRomanDate(d(14, 1))).toBe('a.d. XVII Kal. Feb. 63 BC');
    expect(formatRomanDate(d(14, 1, 40))).toBe('a.d. XIX Kal. Feb. 40 BC');
    expect(formatRomanDate(d(15, 3, 44))).toBe('Id. Mart. 44 BC');
    expect(formatRomanDate(d(29, 12))).toBe('prid. Kal. Ian. 63 BC');
    expect(formatRomanDate(d(3, 12))).toBe('a.d. III Non. Dec. 63 BC');
  });

  it('never names a month before it existed', () => {
    expect(formatPlainDate(d(1, 7))).toBe('1 Quinctilis 63 BC');
    expect(formatPlainDate(d(1, 8))).toBe('1 Sextilis 63 BC');
    expect(formatPlainDate(d(1, 7, 44))).toBe('1 Iulius 44 BC');
    expect(formatPlainDate(d(1, 8, 20))).toBe('1 Sextilis 20 BC');
    expect(formatPlainDate(d(1, 8, 8))).toBe('1 Augustus 8 BC');
    for (const m of [1, 6, 7, 8, 12]) expect(formatDate(d(20, m))).not.toMatch(/July|August|Iulius|Augustus|\//);
    expect(formatDate(d(13, 7))).toBe('a.d. III Id. Quinct. 63 BC (13 Quinctilis 63 BC)');
  });

  it('moves the calendar on real month lengths, across the year (BC counts down)', () => {
    expect(monthLength(2, 63)).toBe(28);
    expect(monthLength(4, 63)).toBe(29);
    expect(monthLength(4, 44)).toBe(30);
    expect(addDays(d(25, 7), 10)).toEqual(d(4, 8));
    expect(addDays(d(25, 12), 10)).toEqual(d(6, 1, 62));
    // 355 days bring a Republican date back to itself one year later.
    expect(addDays(d(1, 7), 355)).toEqual(d(1, 7, 62));
    // A hand-edited day beyond its month rolls over rather than naming a day that never was.
    expect(addDays(d(30, 4), 0)).toEqual(d(1, 5));
  });

  it('parses what it formats, and refuses anachronisms and non-days with a reason', () => {
    expect(parseDate('a.d. III Id. Quinct. 63 BC')).toEqual({ ok: true, date: d(13, 7) });
    expect(parseDate('prid. Kal. Ian. 63 BC')).toEqual({ ok: true, date: d(29, 12) });
    expect(parseDate('Id. Mart. 44 BC')).toEqual({ ok: true, date: d(15, 3, 44) });
    expect(parseDate('13 Quinctilis 63 BC')).toEqual({ ok: true, date: d(13, 7) });
    const july = parseDate('1 July 63 BC');
    expect(july.ok).toBe(false);
    expect(!july.ok && july.message).toMatch(/Quinctilis/);
    expect(parseDate('30 Aprilis 63 BC').ok).toBe(false);
    expect(parseDate('a.d. II Id. Mart. 63 BC').ok).toBe(false);
    expect(parseDate('a.d. XX Kal. Sext. 63 BC').ok).toBe(false);
    expect(parseDate('yesterday').ok).toBe(false);
  });

  it('round-trips every valid day of every year the story can reach', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 753 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }), (year_bc, month, day) => {
        const date = { year_bc, month, day };
        if (!isValidDate(date)) return;
        expect(parseDate(formatRomanDate(date))).toEqual({ ok: true, date });
        expect(parseDate(formatPlainDate(date))).toEqual({ ok: true, date });
        const r = romanDay(date);
        expect(r.count).toBeGreaterThanOrEqual(1);
        expect(r.count).toBeLessThanOrEqual(19);
      }),
      { numRuns: 2000 },
    );
  });
});
