import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { Ajv2020 as AjvType, ValidateFunction } from 'ajv/dist/2020.js';
import { packageRoot } from '../../paths.js';

/**
 * The planning artifacts' JSON Schemas (schemas/*.schema.json, shipped with the package). Loaded
 * and compiled once per process; used to validate model answers and, in tests, our own output.
 */
const require = createRequire(import.meta.url);
const cache = new Map<string, object>();
const compiled = new Map<string, ValidateFunction>();
let ajv: AjvType | undefined;

export type PlanningSchema = 'episode_context' | 'agent_proposals' | 'episode_plan' | 'scene_packet';

export function loadSchema(name: PlanningSchema): object {
  let s = cache.get(name);
  if (!s) {
    s = JSON.parse(fs.readFileSync(path.join(packageRoot(), 'schemas', `${name}.schema.json`), 'utf8')) as object;
    cache.set(name, s);
  }
  return s;
}

function validator(key: string, schema: () => object): ValidateFunction {
  let v = compiled.get(key);
  if (!v) {
    if (!ajv) {
      const Ajv2020 = require('ajv/dist/2020.js').default as new (o: object) => AjvType;
      ajv = new Ajv2020({ allErrors: true, strict: true });
    }
    v = ajv.compile(schema());
    compiled.set(key, v);
  }
  return v;
}

/** Errors as one readable line, or null when valid. */
export function validateAgainst(name: PlanningSchema, value: unknown): string | null {
  const v = validator(name, () => { const { $id: _id, ...rest } = loadSchema(name) as Record<string, unknown>; return rest; });
  return v(value) ? null : (v.errors ?? []).slice(0, 8).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ');
}

/** The schema a model answers one character's proposals with (agent_proposals $defs/character_answer). */
let answerSchema: object | undefined;
export function characterAnswerSchema(): object {
  // One object for the process: validators downstream may cache by identity.
  if (!answerSchema) {
    const s = loadSchema('agent_proposals') as { $defs: object };
    answerSchema = { $schema: 'https://json-schema.org/draft/2020-12/schema', $defs: s.$defs, $ref: '#/$defs/character_answer' };
  }
  return answerSchema;
}

export function validateCharacterAnswer(value: unknown): string | null {
  const v = validator('character_answer', characterAnswerSchema);
  return v(value) ? null : (v.errors ?? []).slice(0, 8).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ');
}

/** Errors of a Director edit against its schema (c-director/edit.ts), or null when valid. */
export function validateDirectorEdit(value: unknown, schema: object): string | null {
  const v = validator('director_edit', () => schema);
  return v(value) ? null : (v.errors ?? []).slice(0, 8).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ');
}
