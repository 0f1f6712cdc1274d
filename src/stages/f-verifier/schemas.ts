import type { ValidateFunction, ErrorObject } from 'ajv/dist/2020.js';
import { validatorFor } from '../../schemas/validators.js';

/** The writer-output schemas ship in schemas/ (the source of truth); validators made once, lazily (precompiled at build). */
let cache: { claims: ValidateFunction; events: ValidateFunction; report: ValidateFunction } | null = null;

export function validators() {
  cache ??= {
    claims: validatorFor('verifier/claims.schema.json'),
    events: validatorFor('verifier/scene_events.schema.json'),
    report: validatorFor('verifier/verifier_report.schema.json'),
  };
  return cache;
}

export function describeAjvError(e: ErrorObject): string {
  if (e.keyword === 'enum') return `${e.message} (${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')})`;
  if (e.keyword === 'additionalProperties') return `unexpected field "${(e.params as { additionalProperty: string }).additionalProperty}"`;
  return e.message ?? e.keyword;
}
