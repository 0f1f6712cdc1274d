import type { ValidateFunction } from 'ajv/dist/2020.js';
import { readSchema } from '../../schemas/files.js';
import { validatorFor } from '../../schemas/validators.js';

/**
 * The planning artifacts' JSON Schemas (schemas/*.schema.json, shipped with the package). Loaded
 * once per process; their validators are made when first needed (precompiled at build time, see
 * src/schemas/specs.ts). Used to validate model answers and, in tests, our own output.
 */
const cache = new Map<string, object>();

export type PlanningSchema = 'episode_context' | 'agent_proposals' | 'episode_plan' | 'scene_packet';

export function loadSchema(name: PlanningSchema): object {
  let s = cache.get(name);
  if (!s) {
    s = readSchema(`${name}.schema.json`);
    cache.set(name, s);
  }
  return s;
}

function validator(key: string): ValidateFunction {
  return validatorFor(`planning/${key}`);
}

/** Errors as one readable line, or null when valid. */
export function validateAgainst(name: PlanningSchema, value: unknown): string | null {
  const v = validator(name);
  return v(value) ? null : (v.errors ?? []).slice(0, 8).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ');
}

/** Errors of a Director edit against its schema (schemas/director-edit.ts), or null when valid. */
export function validateDirectorEdit(value: unknown): string | null {
  const v = validator('director_edit');
  return v(value) ? null : (v.errors ?? []).slice(0, 8).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ');
}
