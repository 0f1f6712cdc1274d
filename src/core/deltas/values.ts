import type { ResolvedDelta } from '../../domain/delta.js';
import type { CharacterStatus, SecretStatus, ThreadStatus } from '../../domain/world.js';
import { diag } from '../../diagnostics/catalog.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { round } from '../json.js';

/**
 * The value checks and clamping of the delta engine: each reads a delta's value as the kind a
 * target needs, or throws a Fail that rejects the whole batch.
 */

export const CHARACTER_STATUSES: readonly CharacterStatus[] = ['alive', 'dead', 'exiled', 'imprisoned'];
export const SECRET_STATUSES: readonly SecretStatus[] = ['hidden', 'rumored', 'revealed', 'inert'];
export const THREAD_STATUSES: readonly ThreadStatus[] = ['open', 'resolved', 'dormant'];
export const UNIT = { min: 0, max: 1 } as const;
/** world.date's ranges, as schemas/world.schema.json declares them (year_bc 1..753: 753 BC is a.u.c. 1). */
export const DATE_RANGE = { year_bc: { min: 1, max: 753 }, month: { min: 1, max: 12 }, day: { min: 1, max: 31 } } as const;

export class Fail {
  constructor(readonly diagnostic: Diagnostic) {}
}
export const fail = (code: string, args: Record<string, unknown>): never => {
  throw new Fail(diag(code, args));
};

export function numberValue(d: ResolvedDelta): number {
  if (typeof d.value !== 'number' || !Number.isFinite(d.value)) {
    fail('AUR2022', { path: d.path, detail: `${d.op} needs a finite number, got ${JSON.stringify(d.value)}` });
  }
  return d.value as number;
}

export function clamp(x: number, r: { min: number; max: number }): number {
  return Math.min(r.max, Math.max(r.min, x));
}

/** add / subtract / set / multiply on a number, clamped to the range and rounded (4 decimals). */
export function numeric(d: ResolvedDelta, current: number, range: { min: number; max: number }): number {
  const v = numberValue(d);
  const cur = typeof current === 'number' && Number.isFinite(current) ? current : 0;
  let next: number;
  switch (d.op) {
    case 'add': next = cur + v; break;
    case 'subtract': next = cur - v; break;
    case 'multiply': next = cur * v; break;
    default: next = v;
  }
  if (!Number.isFinite(next)) fail('AUR2022', { path: d.path, detail: 'the result is not a finite number' });
  return round(clamp(next, range));
}

export function stringValue(d: ResolvedDelta): string {
  if (typeof d.value !== 'string' || d.value === '') fail('AUR2022', { path: d.path, detail: `expected a non-empty string, got ${JSON.stringify(d.value)}` });
  return d.value as string;
}

export function enumValue<T extends string>(d: ResolvedDelta, allowed: readonly T[]): T {
  const v = d.value;
  if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) {
    fail('AUR2022', { path: d.path, detail: `expected one of ${allowed.join(', ')}, got ${JSON.stringify(v)}` });
  }
  return v as T;
}

/** Set semantics: add is idempotent, subtract removes every occurrence. Always a new array. */
export function listOp(d: ResolvedDelta, list: readonly string[] | undefined, item: string): string[] {
  const cur = list ?? [];
  if (d.op === 'add') return cur.includes(item) ? cur.slice() : [...cur, item];
  return cur.filter((x) => x !== item);
}

export function whole(d: ResolvedDelta, v: unknown, field: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
    fail('AUR2022', { path: d.path, detail: `${field} must be whole, non-negative denarii, got ${JSON.stringify(v)}` });
  }
  return v as number;
}
