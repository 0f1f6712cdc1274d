import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ValidateFunction, type ErrorObject } from 'ajv/dist/2020.js';
import { packageRoot } from '../../paths.js';

/** The writer-output schemas ship in schemas/ (the source of truth); compiled once, lazily. */
let cache: { claims: ValidateFunction; events: ValidateFunction; report: ValidateFunction } | null = null;

function load(name: string): object {
  return JSON.parse(readFileSync(path.join(packageRoot(), 'schemas', name), 'utf8')) as object;
}

export function validators() {
  if (!cache) {
    const ajv = new Ajv2020({ allErrors: false, strict: false });
    cache = {
      claims: ajv.compile(load('claims.schema.json')),
      events: ajv.compile(load('scene_events.schema.json')),
      report: ajv.compile(load('verifier_report.schema.json')),
    };
  }
  return cache;
}

export function describeAjvError(e: ErrorObject): string {
  if (e.keyword === 'enum') return `${e.message} (${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')})`;
  if (e.keyword === 'additionalProperties') return `unexpected field "${(e.params as { additionalProperty: string }).additionalProperty}"`;
  return e.message ?? e.keyword;
}
