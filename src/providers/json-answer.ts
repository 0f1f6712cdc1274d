import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';
import type { Ajv2020 as AjvType } from 'ajv/dist/2020.js';
import { hashValue } from '../core/hash.js';
import { packageRoot } from '../paths.js';
import { ANSWER_OPTIONS, answerKey, answerSourceHash, compiledFile } from '../schemas/specs.js';
import { expectedKind, jsonCandidates, kindOf, type JsonCandidate, type JsonKind } from './json-extract.js';

/**
 * Checking a JSON answer: find the JSON in the text (models wrap it in fences or prose:
 * json-extract.ts), parse, repair when it is truncated or sloppy (jsonrepair: trailing commas,
 * unclosed brackets, single quotes), then validate with ajv against the request's schema.
 * Validators are compiled once per distinct schema.
 */

const require = createRequire(import.meta.url);
let ajv: AjvType | undefined;
const validators = new Map<string, ValidateFunction>();

function newAjv(extra: object = {}): AjvType {
  const Ajv2020 = require('ajv/dist/2020.js').default as typeof AjvType;
  const addFormats = require("ajv-formats").default as (a: AjvType) => AjvType;
  const a = new Ajv2020({ allErrors: true, strict: false, allowUnionTypes: true, ...extra });
  addFormats(a);
  return a;
}

function sharedAjv(): AjvType {
  if (ajv) return ajv;
  ajv = newAjv();
  // Register the package's schemas so request schemas can $ref them by $id.
  const dir = path.join(packageRoot(), 'schemas');
  try {
    for (const f of fs.readdirSync(dir).filter((n) => n.endsWith('.json')).sort()) {
      try {
        const s = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as { $id?: string };
        if (s.$id && !ajv.getSchema(s.$id)) ajv.addSchema(s);
      } catch {
        // A schema another part is still writing; requests that need it will say so.
      }
    }
  } catch {
    // No schemas directory: self-contained request schemas still work.
  }
  return ajv;
}

/** How each answer validator of this process was obtained, by schema hash (tests read it). */
export const answerValidatorSources: Record<string, 'precompiled' | 'compiled'> = {};

export function validatorFor(schema: object): ValidateFunction {
  const key = hashValue(schema);
  const known = validators.get(key);
  if (known) return known;
  const pre = precompiled(schema, key);
  answerValidatorSources[key] = pre ? 'precompiled' : 'compiled';
  const v = pre ?? selfContained(schema) ?? withPackageSchemas(schema, key);
  validators.set(key, v);
  return v;
}

/**
 * The build's standalone code for a request schema Aureus sends (scripts/precompile-schemas.mjs
 * compiles each one exactly as `selfContained` would), found by the schema's hash; loading it
 * spares loading ajv's compiler and compiling (~6% of an offline episode's CPU, issue 18).
 */
function precompiled(schema: object, key: string): ValidateFunction | undefined {
  if ((schema as { $id?: string }).$id !== undefined || process.env.AUREUS_NO_PRECOMPILED === '1') return undefined;
  try {
    const mod = require(compiledFile(answerKey(key))) as ValidateFunction & { sourceHash?: string };
    return mod.sourceHash === answerSourceHash(key) ? mod : undefined;
  } catch {
    return undefined; // not precompiled (a schema of a test, or a partial build): compiled below
  }
}

let bare: AjvType | undefined;

/**
 * The request schemas Aureus sends (the character answer, the Director's edit) are self-contained
 * and are the package's own, already checked strictly against the meta-schema where they are made
 * (the build's precompile step, src/schemas/validators.ts): compiled here without registering every
 * package schema and without validating them against the meta-schema again, which together were
 * most of a run's start-up cost (issue 18). A schema with an $id, or one that $refs a package schema
 * (MissingRefError), takes the full path.
 */
function selfContained(schema: object): ValidateFunction | undefined {
  if ((schema as { $id?: string }).$id !== undefined) return undefined;
  bare ??= newAjv(ANSWER_OPTIONS);
  try {
    return bare.compile(schema);
  } catch (e) {
    if ((e as { missingRef?: unknown }).missingRef !== undefined) return undefined;
    throw e;
  }
}

function withPackageSchemas(schema: object, key: string): ValidateFunction {
  const id = (schema as { $id?: string }).$id;
  const shared = sharedAjv();
  const registered = id ? shared.getSchema(id) : undefined;
  if (registered && hashValue(registered.schema) === key) return registered;
  return (id && registered ? newAjv() : shared).compile(schema);
}

/**
 * The JSON part of a model's text (json-extract.ts): the first candidate whose value is of the
 * `want`ed kind, else the first with a value, else the first that looks like JSON but cannot be
 * read (for the problem to quote it). An unclosed value runs to the end of its fence or text.
 */
export function extractJsonText(text: string, want?: JsonKind): string | undefined {
  let valued: string | undefined;
  let broken: string | undefined;
  for (const c of jsonCandidates(text)) {
    if (c.value === undefined) broken ??= c.raw;
    else if (!want || kindOf(c.value) === want) return c.raw;
    else valued ??= c.raw;
  }
  return valued ?? broken;
}

export type JsonCheck = { ok: true; value: unknown; repaired: boolean } | { ok: false; problems: string[] };

/** The problem of an answer with no text at all (an empty content list, or thinking blocks only). */
export const EMPTY_ANSWER = 'the answer is empty: it holds no text at all';

/**
 * The answer's JSON, checked. The first candidate (json-extract.ts) of the schema's top-level kind
 * that the schema accepts is the answer, so a bracketed label before it or a sketch in an earlier
 * fence does not hide it. When none is accepted, the problems are those of the longest candidate of
 * the right kind (the one meant as the answer, not a `{}` in a sentence), else of the first value of
 * another kind ("/ must be object"), else the parse error of JSON too broken to mend.
 */
export function checkJsonAnswer(text: string, schema: object | undefined): JsonCheck {
  if (text.trim() === '') return { ok: false, problems: [EMPTY_ANSWER] };
  const want = expectedKind(schema);
  const validate = schema ? validatorFor(schema) : undefined;
  let fitting: JsonCandidate | undefined;
  let other: JsonCandidate | undefined;
  let broken: JsonCandidate | undefined;
  for (const c of jsonCandidates(text)) {
    if (c.value === undefined) broken ??= c;
    else if (want && kindOf(c.value) !== want) other ??= c;
    else if (!validate || validate(c.value)) return { ok: true, value: c.value, repaired: c.repaired };
    else if (!fitting || c.raw.length > fitting.raw.length) fitting = c;
  }
  const shown = fitting ?? other;
  if (shown) return checkJsonValue(shown.value, schema, shown.repaired);
  if (broken) return { ok: false, problems: [`not parseable JSON (${broken.error})`] };
  return { ok: false, problems: ['the answer holds no JSON object or array'] };
}

/** Validate an already parsed value (the offline provider hands its JSON over directly). */
export function checkJsonValue(value: unknown, schema: object | undefined, repaired = false): JsonCheck {
  if (!schema) return { ok: true, value, repaired };
  const validate = validatorFor(schema);
  if (validate(value)) return { ok: true, value, repaired };
  const problems = (validate.errors ?? []).map((e) => {
    let m = `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`;
    if (e.keyword === 'additionalProperties') m += ` ("${(e.params as { additionalProperty: string }).additionalProperty}")`;
    if (e.keyword === 'enum') m += `: ${(e.params as { allowedValues: unknown[] }).allowedValues.map((x) => JSON.stringify(x)).join(', ')}`;
    return m;
  });
  return { ok: false, problems: [...new Set(problems)] };
}

/** The follow-up user message of a re-ask. */
export function reaskMessage(schemaName: string, problems: string[]): string {
  return [
    `Your previous answer is not valid JSON for the schema ${schemaName}. Problems:`,
    ...problems.slice(0, 20).map((p) => `- ${p}`),
    'Reply again with the complete, corrected JSON only: no prose, no code fences.',
  ].join('\n');
}
