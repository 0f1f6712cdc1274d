import type { InWorldDate } from '../domain/world.js';

/**
 * The one Roman date module: every date a reader sees (status, diff, scene headings, exports, plans)
 * is formatted here, and every date the calendar moves (stage H) is counted here. Pure, no I/O.
 *
 * The world's date is `{ day, month, year_bc }`: month 1..12 numbers the Roman months from
 * Ianuarius, day is the day of that month (1 = the Kalends), year_bc is a positive year BC.
 *
 * The calendar is the one the year actually used:
 *  - up to 46 BC the pre-Julian Republican calendar of 355 days: Martius, Maius, Quinctilis and
 *    October have 31 days, Februarius 28, the rest 29. The Nones fall on the 7th and the Ides on the
 *    15th in the four 31-day months, otherwise on the 5th and 13th. Intercalary months (inserted by
 *    the pontiffs, irregularly) are not modelled: the story's calendar runs on the regular year.
 *  - from 45 BC the Julian calendar (January 31, February 28, April 30 …). Leap days are not modelled.
 * Month names follow history, never anachronism: the fifth and sixth months after March were
 * Quinctilis and Sextilis until they were renamed Iulius (44 BC) and Augustus (8 BC).
 *
 * Reader forms:
 *  - `formatRomanDate`   "a.d. III Id. Quinct. 63 BC" (Kalends/Nones/Ides, counted inclusively);
 *  - `formatPlainDate`   "13 Quinctilis 63 BC" — the day of the month, for a modern reader;
 *  - `formatDate`        both: "a.d. III Id. Quinct. 63 BC (13 Quinctilis 63 BC)".
 * A "modern equivalent" is the day-of-month form, not a proleptic Julian/Gregorian date: the pre-Julian
 * calendar had drifted from the seasons by weeks, and no reconstruction is certain enough to print.
 */

export type RomanCalendar = 'republican' | 'julian';

/** The last year BC on the Republican calendar; 45 BC is the first Julian year. */
export const LAST_REPUBLICAN_YEAR_BC = 46;

const REPUBLICAN_DAYS = [29, 28, 31, 29, 31, 29, 31, 29, 29, 31, 29, 29] as const;
const JULIAN_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

interface MonthName {
  /** Full Latin name (the adjective form used as a month name). */
  full: string;
  /** The standard abbreviation in a Roman date ("Quinct."). */
  abbr: string;
}

const MONTH_NAMES: readonly MonthName[] = [
  { full: 'Ianuarius', abbr: 'Ian.' },
  { full: 'Februarius', abbr: 'Feb.' },
  { full: 'Martius', abbr: 'Mart.' },
  { full: 'Aprilis', abbr: 'Apr.' },
  { full: 'Maius', abbr: 'Mai.' },
  { full: 'Iunius', abbr: 'Iun.' },
  { full: 'Quinctilis', abbr: 'Quinct.' },
  { full: 'Sextilis', abbr: 'Sext.' },
  { full: 'September', abbr: 'Sept.' },
  { full: 'October', abbr: 'Oct.' },
  { full: 'November', abbr: 'Nov.' },
  { full: 'December', abbr: 'Dec.' },
];
const IULIUS: MonthName = { full: 'Iulius', abbr: 'Iul.' };
const AUGUSTUS: MonthName = { full: 'Augustus', abbr: 'Aug.' };

export function calendarOf(yearBc: number): RomanCalendar {
  return yearBc >= LAST_REPUBLICAN_YEAR_BC ? 'republican' : 'julian';
}

/** Days in a month (1..12) of a year BC, on the calendar that year used. */
export function monthLength(month: number, yearBc: number): number {
  const table = calendarOf(yearBc) === 'republican' ? REPUBLICAN_DAYS : JULIAN_DAYS;
  return table[month - 1] ?? 0;
}

/** The month's name as it was in that year: Quinctilis before 44 BC, Iulius after; Sextilis/Augustus at 8 BC. */
export function monthName(month: number, yearBc: number): MonthName {
  if (month === 7 && yearBc <= 44) return IULIUS;
  if (month === 8 && yearBc <= 8) return AUGUSTUS;
  return MONTH_NAMES[month - 1] ?? { full: `month ${month}`, abbr: `m.${month}` };
}

/** The Nones: the 7th in March, May, Quinctilis/July and October, otherwise the 5th. The Ides are 8 days later. */
export function nonesOf(month: number): number {
  return month === 3 || month === 5 || month === 7 || month === 10 ? 7 : 5;
}
export function idesOf(month: number): number {
  return nonesOf(month) + 8;
}

/** True when the date names a real day (month 1..12, day within that month, year 1..753 BC). */
export function isValidDate(d: InWorldDate): boolean {
  return (
    Number.isInteger(d.year_bc) && d.year_bc >= 1 && d.year_bc <= 753 &&
    Number.isInteger(d.month) && d.month >= 1 && d.month <= 12 &&
    Number.isInteger(d.day) && d.day >= 1 && d.day <= monthLength(d.month, d.year_bc)
  );
}

/**
 * Move a date forward by whole days, month by month on the calendar of each year (a year BC counts
 * down: after December 63 BC comes Ianuarius 62 BC). A day past the end of its month (a hand-edited
 * "30 Aprilis" in a 29-day month) rolls into the next month first, so the result is always a real day.
 */
export function addDays(d: InWorldDate, days: number): InWorldDate {
  let { day, month, year_bc: year } = d;
  day += Math.max(0, Math.trunc(days));
  for (let len = monthLength(month, year); len > 0 && day > len; len = monthLength(month, year)) {
    day -= len;
    month += 1;
    if (month > 12) {
      month = 1;
      year -= 1;
    }
  }
  return { year_bc: year, month, day };
}

const ROMAN_NUMERALS: [number, string][] = [[10, 'X'], [9, 'IX'], [5, 'V'], [4, 'IV'], [1, 'I']];

/** 1..39 as Roman numerals (the largest count in a date is XIX). */
export function toRomanNumeral(n: number): string {
  let out = '';
  let rest = n;
  for (const [v, s] of ROMAN_NUMERALS) while (rest >= v) {
    out += s;
    rest -= v;
  }
  return out;
}

function fromRomanNumeral(s: string): number | null {
  const values: Record<string, number> = { I: 1, V: 5, X: 10 };
  let total = 0;
  const up = s.toUpperCase();
  for (let i = 0; i < up.length; i++) {
    const v = values[up[i]!];
    if (v === undefined) return null;
    const next = values[up[i + 1] ?? ''] ?? 0;
    total += v < next ? -v : v;
  }
  return total > 0 && toRomanNumeral(total) === up ? total : null;
}

type Anchor = 'Kal.' | 'Non.' | 'Id.';

/** The Roman reckoning of a day: a count (1 = on the anchor, 2 = pridie, n = a.d. n) before an anchor of a month. */
export interface RomanDay {
  count: number;
  anchor: Anchor;
  /** The month whose Kalends/Nones/Ides are counted to (the next month after the Ides). */
  month: number;
}

/** Counted inclusively, as the Romans did: the day before the Ides is pridie (2), three days before is a.d. III. */
export function romanDay(d: InWorldDate): RomanDay {
  const nones = nonesOf(d.month);
  const ides = idesOf(d.month);
  if (d.day === 1) return { count: 1, anchor: 'Kal.', month: d.month };
  if (d.day <= nones) return { count: nones - d.day + 1, anchor: 'Non.', month: d.month };
  if (d.day <= ides) return { count: ides - d.day + 1, anchor: 'Id.', month: d.month };
  const len = monthLength(d.month, d.year_bc);
  return { count: len - d.day + 2, anchor: 'Kal.', month: (d.month % 12) + 1 };
}

/**
 * "a.d. III Id. Quinct. 63 BC", "prid. Kal. Sext. 63 BC", "Non. Dec. 63 BC". The year is the year of
 * the day itself (a late-December day counts to the Kalends of Ianuarius but stays in its own year).
 * A day outside its month is normalised first (see addDays).
 */
export function formatRomanDate(date: InWorldDate): string {
  const d = addDays(date, 0);
  const r = romanDay(d);
  const month = monthName(r.month, d.year_bc).abbr;
  const head = r.count === 1 ? '' : r.count === 2 ? 'prid. ' : `a.d. ${toRomanNumeral(r.count)} `;
  return `${head}${r.anchor} ${month} ${d.year_bc} BC`;
}

/** "13 Quinctilis 63 BC": the day of the month with the month's name in that year. */
export function formatPlainDate(date: InWorldDate): string {
  const d = addDays(date, 0);
  return `${d.day} ${monthName(d.month, d.year_bc).full} ${d.year_bc} BC`;
}

/** The one format a reader sees: the Roman form with its day-of-month equivalent. */
export function formatDate(date: InWorldDate): string {
  return `${formatRomanDate(date)} (${formatPlainDate(date)})`;
}

/** Years ab urbe condita (753 BC = 1 a.u.c.). */
export function aucYear(yearBc: number): number {
  return 754 - yearBc;
}

/** Compare two dates in time order (negative when a is earlier). */
export function compareDates(a: InWorldDate, b: InWorldDate): number {
  return b.year_bc - a.year_bc || a.month - b.month || a.day - b.day;
}

export type ParsedDate = { ok: true; date: InWorldDate } | { ok: false; message: string };

/** English names a reader may type; "July" and "August" are checked against the year like Iulius and Augustus. */
const ENGLISH = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

function monthFromWord(word: string, yearBc: number): number | null {
  const w = word.toLowerCase().replace(/\.$/, '');
  if (!w) return null;
  const english = ENGLISH.indexOf(w) + 1;
  if (english) {
    const historical = english === 7 ? IULIUS : english === 8 ? AUGUSTUS : MONTH_NAMES[english - 1]!;
    return monthName(english, yearBc).full === historical.full ? english : -english;
  }
  const candidates: [number, MonthName][] = MONTH_NAMES.map((m, i) => [i + 1, m]);
  candidates.push([7, IULIUS], [8, AUGUSTUS]);
  for (const [n, m] of candidates) {
    const abbr = m.abbr.toLowerCase().replace(/\.$/, '');
    if (m.full.toLowerCase() === w || abbr === w || (w.length >= 3 && m.full.toLowerCase().startsWith(w))) {
      if (monthName(n, yearBc).full !== m.full) return -n; // an anachronistic name
      return n;
    }
  }
  return null;
}

const ROMAN_RE = /^(?:(?:a\.\s*d\.|ante\s+diem)\s+([ivxlc]+)\s+|(prid(?:ie|\.)?)\s+)?(kal(?:endas|\.)?|non(?:as|\.)?|id(?:us|\.)?)\s+([a-z]+\.?)\s+(\d{1,3})\s*(?:bc|b\.c\.|bce)$/i;
const PLAIN_RE = /^(\d{1,2})\s+([a-z]+\.?)\s+(\d{1,3})\s*(?:bc|b\.c\.|bce)$/i;

/**
 * Parse a reader's date: the Roman form ("a.d. III Id. Quinct. 63 BC", "prid. Kal. Sext. 63 BC",
 * "Id. Mart. 44 BC") or the plain form ("13 Quinctilis 63 BC"). Latin names and their abbreviations
 * are accepted; a name the year did not have ("July" or "Iulius" in 63 BC) is refused with the right one.
 * The inverse of formatRomanDate and formatPlainDate for every valid date.
 */
export function parseDate(text: string): ParsedDate {
  const s = text.trim().replace(/\s+/g, ' ');
  const plain = PLAIN_RE.exec(s);
  if (plain) return checked({ day: Number(plain[1]), month: plain[2]!, year: Number(plain[3]) });
  const rom = ROMAN_RE.exec(s);
  if (!rom) return { ok: false, message: `"${text}" is not a date: expected e.g. "a.d. III Id. Quinct. 63 BC" or "13 Quinctilis 63 BC"` };
  const count = rom[1] ? fromRomanNumeral(rom[1]) : rom[2] ? 2 : 1;
  if (count === null || (rom[1] && count < 3)) return { ok: false, message: `"${rom[1]}" is not a Roman day count (a.d. III … a.d. XIX)` };
  const year = Number(rom[5]);
  const month = monthFromWord(rom[4]!, year);
  if (month === null) return { ok: false, message: `"${rom[4]}" is not a Roman month` };
  if (month < 0) return { ok: false, message: `"${rom[4]}" did not exist in ${year} BC: the month was ${monthName(-month, year).full}` };
  const anchor = rom[3]!.toLowerCase().slice(0, 1);
  let m = month;
  const y = year;
  let day: number;
  if (anchor === 'n') day = nonesOf(m) - count + 1;
  else if (anchor === 'i') day = idesOf(m) - count + 1;
  else if (count === 1) day = 1;
  else {
    // Counting back from the Kalends lands in the previous month (Kal. Ian. → December of the same year BC).
    m = month === 1 ? 12 : month - 1;
    day = monthLength(m, y) - count + 2;
  }
  const date = { year_bc: y, month: m, day };
  const back = romanDay(date);
  if (!isValidDate(date) || back.count !== count || back.month !== month) {
    return { ok: false, message: `"${text}" is not a day of the ${calendarOf(year)} calendar` };
  }
  return { ok: true, date };
}

function checked(p: { day: number; month: string; year: number }): ParsedDate {
  const month = monthFromWord(p.month, p.year);
  if (month === null) return { ok: false, message: `"${p.month}" is not a Roman month` };
  if (month < 0) return { ok: false, message: `"${p.month}" did not exist in ${p.year} BC: the month was ${monthName(-month, p.year).full}` };
  const date = { year_bc: p.year, month, day: p.day };
  if (!isValidDate(date)) return { ok: false, message: `${monthName(month, p.year).full} ${p.year} BC has ${monthLength(month, p.year)} days, not ${p.day}` };
  return { ok: true, date };
}
