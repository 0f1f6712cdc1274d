/**
 * The one way to round a value for a reader (status, diff, recap, reports, summaries). Files keep
 * `core/json.ts` `round()` (4 decimals, for byte-identical artifacts); a person sees a value rounded
 * once, here, at the edge — never a file's 0.0999 or float noise like 0.30000000000000004.
 *
 * Rounding is half away from zero on the decimal the reader would write: 0.145 → 0.15 (binary
 * floating point stores 0.145 as 0.14499999…, which Math.round and toFixed round down to 0.14).
 * The value is first snapped to 12 significant digits, which removes representation error while
 * keeping every digit a world file can hold.
 */

/** How many decimals a reader sees for each kind of value. */
export const READER_DECIMALS = {
  /** 0..1 weights, thread progress, probabilities. */
  weight: 2,
  /** 0..10 tension, pacing, global metrics. */
  metric: 2,
  /** 0..100 stats (dignitas, fama …), standing. */
  stat: 1,
  /** US dollars of model cost. */
  usd: 4,
} as const;
export type ReaderKind = keyof typeof READER_DECIMALS;

/** Round half away from zero at `decimals`, on the decimal value (0.145 → 0.15, −0.145 → −0.15). */
export function roundForReader(n: number, decimals = 2): number {
  if (!Number.isFinite(n)) return n;
  const snapped = Number(Math.abs(n).toPrecision(12));
  const r = Number(`${Math.round(Number(`${snapped}e${decimals}`))}e-${decimals}`);
  return r === 0 ? 0 : Math.sign(n) * r;
}

/**
 * A noun as a count of it reads: "turn" for 1, "turns" otherwise (0 turns, 3 turns); `many` for a
 * plural that is not one + s. The one pluralising helper: write `${n} ${plural(n, 'turn')}`.
 */
export function plural(n: number, one: string, many = `${one}s`): string {
  return n === 1 ? one : many;
}

/** A number as text for a reader: rounded once, trailing zeros dropped ("0.15", "3", "-0.5"). */
export function formatNumber(n: number, decimals = 2): string {
  return String(roundForReader(n, decimals));
}

/** A value of a known kind as text ("0.15" for a weight, "6.3" for a metric). */
export function formatValue(n: number, kind: ReaderKind): string {
  return formatNumber(n, READER_DECIMALS[kind]);
}

/** A change with its sign ("+0.05", "−1.2", "0"), the minus sign typographic as in the recap. */
export function formatSigned(n: number, decimals = 2): string {
  const r = roundForReader(n, decimals);
  return r > 0 ? `+${r}` : r < 0 ? `−${-r}` : '0';
}

/** Fixed decimals for columns and amounts ("0.0120"): rounded once, as roundForReader does. */
export function formatFixed(n: number, decimals: number): string {
  return roundForReader(n, decimals).toFixed(decimals);
}

/** US dollars with fixed decimals for columns ("$0.0123"). */
export function formatUsd(n: number, decimals: number = READER_DECIMALS.usd): string {
  return `$${formatFixed(n, decimals)}`;
}

/** A sum of money as a reader writes it ("15,000", "2,500.25"): rounded once, with thousands separators. */
export function formatAmount(n: number): string {
  return roundForReader(n, 2).toLocaleString('en-US', { maximumFractionDigits: 2 });
}

/** An amount of money in the world ("12,500 denarii"). */
export function formatDenarii(n: number): string {
  return `${formatAmount(n)} denarii`;
}
