import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { capPerFile, diag, type Diagnostic } from '../diagnostics/index.js';
import { FORMAT_VERSION, ID_PATTERN, type World } from '../domain/world.js';
import { validatorFor } from '../schemas/validators.js';
import { escapePointerSegment } from '../core/json-pointer.js';
import { didYouMean } from './suggest.js';

/**
 * Schema validation of world files against the package's schemas/ (the copies inside a world
 * repository are for editors; validation always uses the schemas of the running aureus).
 * Each validator is made once per process, when first needed (precompiled at build time, see
 * src/schemas/specs.ts), with allErrors, and ajv's errors are translated into
 * catalog diagnostics with the instance pointer, what was expected and a hint.
 */

export type SchemaKind = keyof World | 'season_goals' | 'anchors';

export const SCHEMA_FILES: Record<SchemaKind, string> = {
  world: 'world.schema.json',
  factions: 'factions.schema.json',
  characters: 'characters.schema.json',
  relationships: 'relationships.schema.json',
  assets: 'assets.schema.json',
  secrets: 'secrets.schema.json',
  threads: 'threads.schema.json',
  constraints: 'constraints.schema.json',
  operators: 'operators.schema.json',
  canon: 'canon.schema.json',
  season_goals: 'season_goals.schema.json',
  anchors: 'anchors.schema.json',
};

/**
 * The validator for one schema file of the package's schemas/ folder, made once per process.
 * Other parts may use it for their own schema files (by file name).
 */
export function compiledSchema(file: string): ValidateFunction {
  return validatorFor(`store/${file}`);
}

/**
 * `format` is checked before the schema: a file from another format version gets one clear
 * "incompatible format" diagnostic instead of a cascade of schema errors.
 */
export function checkFormat(value: unknown, file: string): Diagnostic | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  if (!Object.prototype.hasOwnProperty.call(value, 'format')) return null; // the schema reports it missing
  const found = (value as { format: unknown }).format;
  if (found === FORMAT_VERSION) return null;
  return diag('AUR1007', { found: JSON.stringify(found), supported: FORMAT_VERSION }, { file, pointer: '/format' });
}

/** Validate a parsed file against its schema; [] when valid. */
export function validateSchema(kind: SchemaKind, value: unknown, file: string): Diagnostic[] {
  return validateSchemaFile(SCHEMA_FILES[kind], value, file);
}

/**
 * Validate a parsed value against any package schema (schemas/<schemaFile>) with the world files'
 * diagnostics (pointer, expected, hint): also for user-supplied files that are not world files,
 * such as the scene packet `scene verify` reads.
 */
export function validateSchemaFile(schemaFile: string, value: unknown, file: string): Diagnostic[] {
  return schemaDiagnostics(compiledSchema(schemaFile), value, file, `schemas/${schemaFile}`);
}

/**
 * Validate with any validator made under the store's options (allErrors, verbose: each error has
 * its value) and translate its errors as for world files; `schema` is what the hints point to.
 * Every error is translated (the count of the rest is exact), but only the first
 * MAX_DIAGNOSTICS_PER_FILE come back, then one AUR7009 line for the rest: callers locate each
 * one in the text, and nobody reads 150,000 "unknown key" lines.
 */
export function schemaDiagnostics(validate: ValidateFunction, value: unknown, file: string, schema: string): Diagnostic[] {
  if (validate(value)) return [];
  return capPerFile(translateErrors(validate.errors ?? [], value, file, schema));
}

export function describeType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function show(v: unknown): string {
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 60 ? s.slice(0, 57) + '…' : s;
}

const ID_PATTERN_SOURCE = ID_PATTERN.source;

function unsafeIdWhy(id: string): string {
  if (id.includes('/') || id.includes('\\') || id.includes('..'))
    return `ids become file names, git refs and delta path segments; "${id}" contains a path separator or "..", so it could point outside its place`;
  if (/[A-Z]/.test(id)) return `use lower case: "${id.toLowerCase().replace(/[^a-z0-9_]/g, '_')}"`;
  return `ids become file names, git refs and delta path segments; try "${id.toLowerCase().replace(/[^a-z0-9_]/g, '_') || 'a_name'}"`;
}

export function unsafeIdDiagnostic(id: string, file: string, pointer: string): Diagnostic {
  return diag('AUR1021', { id, why: unsafeIdWhy(id) }, { file, pointer });
}

function translateErrors(errors: ErrorObject[], root: unknown, file: string, schema: string): Diagnostic[] {
  // anyOf/oneOf report every failed branch right before themselves; keep only the summary. The
  // branch errors are the contiguous run just before it on the same instance (a $ref branch's
  // schemaPath points into $defs, so the schema path cannot tell them apart).
  const branchErrors = new Set<ErrorObject>();
  errors.forEach((u, i) => {
    if (u.keyword !== 'anyOf' && u.keyword !== 'oneOf') return;
    for (let j = i - 1; j >= 0; j--) {
      const e = errors[j]!;
      if (e.instancePath !== u.instancePath && !e.instancePath.startsWith(u.instancePath + '/')) break;
      branchErrors.add(e);
    }
  });
  const underUnion = (e: ErrorObject) => branchErrors.has(e);
  // propertyNames reports the inner failure and then itself; keep the outer one (it names the key).
  const names = errors.filter((e) => e.keyword === 'propertyNames');
  const underNames = (e: ErrorObject) => names.some((n) => n !== e && e.schemaPath.startsWith(n.schemaPath + '/') && e.instancePath === n.instancePath);

  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    if (e.keyword === 'if' || underUnion(e) || underNames(e)) continue;
    const d = translate(e, root, file, schema);
    const key = `${d.code}|${d.pointer}|${d.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(d);
  }
  return out;
}

function translate(e: ErrorObject, root: unknown, file: string, schema: string): Diagnostic {
  const at = e.instancePath;
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'additionalProperties': {
      const key = String(p.additionalProperty);
      const props = (e.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
      const allowed = Object.keys(props).filter((k) => k !== '$schema');
      return diag('AUR1010', { key, allowed: allowed.join(', ') || '(none)', suggestion: didYouMean(key, allowed) }, { file, pointer: `${at}/${escapePointerSegment(key)}` });
    }
    case 'type': {
      const expected = Array.isArray(p.type) ? (p.type as string[]).join(' or ') : String(p.type);
      // JSON.parse reads a literal beyond a double's range (1e400) as Infinity, which JSON.stringify
      // would show as null: say what happened instead of "expected a number, got number null".
      if (typeof e.data === 'number' && !Number.isFinite(e.data)) {
        return diag('AUR1011', { expected: `a finite ${expected}`, got: `a number too large to represent (it reads as ${e.data})` }, { file, pointer: at });
      }
      return diag('AUR1011', { expected: article(expected), got: `${describeType(e.data)} ${show(e.data)}` }, { file, pointer: at });
    }
    case 'required': {
      const key = String(p.missingProperty);
      return diag('AUR1012', { key, schema }, { file, pointer: at });
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum': {
      // A negative balance gets the ledger's own diagnostic, whichever check sees it first.
      const account = /^\/cash_ledger\/(\d+)\/denarii$/.exec(at);
      if (e.keyword === 'minimum' && account && typeof e.data === 'number') {
        const id = (root as { cash_ledger?: { id?: unknown }[] }).cash_ledger?.[Number(account[1])]?.id;
        return diag('AUR1023', { id: String(id), denarii: e.data }, { file, pointer: at });
      }
      return diag('AUR1013', { value: show(e.data), comparison: p.comparison, limit: p.limit, schema }, { file, pointer: at });
    }
    case 'enum':
    case 'const': {
      const allowed = (e.keyword === 'enum' ? (p.allowedValues as unknown[]) : [p.allowedValue]).map((v) => show(v));
      const suggestion = typeof e.data === 'string' ? didYouMean(e.data, allowed.map((a) => a.replace(/^"|"$/g, ''))) : '';
      return diag('AUR1014', { value: show(e.data), allowed: allowed.join(', '), suggestion }, { file, pointer: at });
    }
    case 'pattern': {
      if (p.pattern === ID_PATTERN_SOURCE && typeof e.data === 'string') return unsafeIdDiagnostic(e.data, file, at);
      return diag('AUR1015', { value: show(e.data), pattern: p.pattern, schema }, { file, pointer: at });
    }
    case 'propertyNames': {
      const name = String(p.propertyName);
      return unsafeIdDiagnostic(name, file, `${at}/${escapePointerSegment(name)}`);
    }
    case 'anyOf':
    case 'oneOf': {
      const expected = describeUnion(e.schema);
      return diag('AUR1011', { expected, got: `${describeType(e.data)} ${show(e.data)}` }, { file, pointer: at });
    }
    default:
      return diag('AUR1016', { detail: `${e.message ?? e.keyword}`, schema }, { file, pointer: at });
  }
}

function article(t: string): string {
  return /^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`;
}

/** "a number, string or boolean, or {"expr": "…"}" from the branches of an anyOf. */
function describeUnion(branches: unknown): string {
  if (!Array.isArray(branches)) return 'one of the allowed forms';
  const parts = branches.map((b: { type?: string | string[]; $ref?: string }) => {
    if (b.$ref && b.$ref.endsWith('/expr')) return '{"expr": "…"}';
    if (Array.isArray(b.type)) return b.type.join(', ');
    if (b.type) return b.type;
    return 'another form';
  });
  return parts.join(' or ');
}
