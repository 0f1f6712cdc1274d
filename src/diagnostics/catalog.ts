import type { Diagnostic, DiagnosticSeverity } from './diagnostic.js';
import { compareText } from '../core/text-order.js';

/**
 * The diagnostics catalog (TypeScript-compiler style): stable codes, message templates with
 * {placeholders}, and a fix hint. Codes never change meaning once released.
 *
 * Ranges:
 *   AUR1xxx  world files: reading, JSON, schema, references
 *   AUR2xxx  expressions, deltas, invariants (symbolic core)
 *   AUR3xxx  planning stages A-D
 *   AUR4xxx  LLM providers, routing, replay cache
 *   AUR5xxx  writer output parsing and verification (stages E-G)
 *   AUR6xxx  commit, git, locks, resume, season workflow (stage H)
 *   AUR7xxx  CLI usage, config, import
 *
 * Each area registers its entries in its own file (catalog/*.ts) and they are merged here.
 */
export interface CatalogEntry {
  code: string;
  severity: DiagnosticSeverity;
  /** Message template; {name} placeholders are filled from the args. */
  message: string;
  hint: string;
}

const registry = new Map<string, CatalogEntry>();

/**
 * Codes released and since removed, with why. A script may still match on one, so a number is never
 * given a new meaning: defining a retired code is an error (test/diagnostics/catalog.test.ts checks
 * that every live code is raised somewhere and named by a test).
 */
export const RETIRED_CODES: ReadonlyMap<string, string> = new Map([
  // 'a stage is missing: {stage}' was for a build without one of stages A-H; every build has all eight, and nothing raised it.
  ['AUR6020', 'a stage is missing (never raised: every build has stages A-H)'],
  // `episode plan`'s bad --season/--episode/--k/--token-budget: every other command says AUR7010 for a bad option value, and now this one does too.
  ['AUR3008', 'invalid planning option (now AUR7010, as for every command)'],
]);

export function defineDiagnostics(entries: CatalogEntry[]): void {
  for (const e of entries) {
    if (!/^AUR\d{4}$/.test(e.code)) throw new Error(`bad diagnostic code ${e.code}`);
    if (RETIRED_CODES.has(e.code)) throw new Error(`diagnostic code ${e.code} is retired (${RETIRED_CODES.get(e.code)}): take a new number`);
    const prior = registry.get(e.code);
    if (prior && prior.message !== e.message) throw new Error(`diagnostic code ${e.code} defined twice`);
    registry.set(e.code, e);
  }
}

export function catalogEntry(code: string): CatalogEntry {
  const e = registry.get(code);
  if (!e) throw new Error(`unknown diagnostic code ${code}`);
  return e;
}

export function allCatalogEntries(): CatalogEntry[] {
  return [...registry.values()].sort((a, b) => compareText(a.code, b.code));
}

function fill(template: string, args: Record<string, unknown>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in args ? String(args[k]) : m));
}

/** Build a diagnostic from the catalog. */
export function diag(
  code: string,
  args: Record<string, unknown> = {},
  where: Omit<Diagnostic, 'code' | 'severity' | 'message' | 'hint'> & { hint?: string; severity?: DiagnosticSeverity } = {},
): Diagnostic {
  const e = catalogEntry(code);
  const d: Diagnostic = { code, severity: where.severity ?? e.severity, message: fill(e.message, args) };
  if (where.file !== undefined) d.file = where.file;
  if (where.pointer !== undefined) d.pointer = where.pointer;
  if (where.line !== undefined) d.line = where.line;
  if (where.column !== undefined) d.column = where.column;
  const hint = where.hint ?? (e.hint ? fill(e.hint, args) : undefined);
  if (hint) d.hint = hint;
  return d;
}
