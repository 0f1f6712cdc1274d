import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { jsonrepair } from 'jsonrepair';
import type { ValidateFunction } from 'ajv';
import type { Ajv2020 as AjvType } from 'ajv/dist/2020.js';
import { hashValue } from '../core/hash.js';
import { packageRoot } from '../paths.js';
import { ANSWER_OPTIONS, answerKey, answerSourceHash, compiledFile } from '../schemas/specs.js';

/**
 * Checking a JSON answer: find the JSON in the text (models wrap it in fences or prose), parse,
 * repair when it is truncated or sloppy (jsonrepair: trailing commas, unclosed brackets, single
 * quotes), then validate with ajv against the request's schema. Validators are compiled once per
 * distinct schema.
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
 * The JSON part of a model's text: inside ```json fences, else from the first { or [ to the
 * bracket that closes it (prose after it is dropped). An unclosed value runs to the end of the
 * text, for jsonrepair to finish.
 */
export function extractJsonText(text: string): string | undefined {
  const fence = /```(?:json)?\s*\n([\s\S]*?)(?:```|$)/.exec(text);
  const body = fence ? fence[1] : text;
  const start = body.search(/[[{]/);
  if (start < 0) return undefined;
  return body.slice(start, balancedEnd(body, start)).trim();
}

/** Index just past the bracket closing the one at `start`, or the text's length. */
function balancedEnd(s: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < s.length; i++) {
    const ch = s[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return s.length;
}

export type JsonCheck = { ok: true; value: unknown; repaired: boolean } | { ok: false; problems: string[] };

export function checkJsonAnswer(text: string, schema: object | undefined): JsonCheck {
  const raw = extractJsonText(text);
  if (raw === undefined) return { ok: false, problems: ['the answer holds no JSON object or array'] };
  let value: unknown;
  let repaired = false;
  try {
    value = JSON.parse(raw);
  } catch (e1) {
    try {
      value = JSON.parse(jsonrepair(raw));
      repaired = true;
    } catch {
      return { ok: false, problems: [`not parseable JSON (${(e1 as Error).message})`] };
    }
  }
  return checkJsonValue(value, schema, repaired);
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
