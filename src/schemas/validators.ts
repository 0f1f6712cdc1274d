import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Ajv2020 as AjvType, ValidateFunction } from 'ajv/dist/2020.js';
import { compiledFile, inlineSpec, specHash, specOf, type AjvOptionsLite } from './specs.js';

/**
 * One validator per key per process, made only when a command first needs it: the build's
 * standalone code when it is there and was made from the same schema and options, else compiled
 * here by ajv (then ajv itself is loaded only now, so `--help` and commands that validate nothing
 * never load it).
 */
const require = createRequire(import.meta.url);
const made = new Map<string, ValidateFunction>();
const ajvs = new Map<string, AjvType>();

/** How each validator of this process was obtained (tests and the bench read it). */
export const validatorSources: Record<string, 'precompiled' | 'compiled'> = {};

/**
 * `inline`: a schema that lives in code rather than in schemas/ (the Director's edit, whose shape is
 * built next to the code that applies it); compiled once per process with the planning options.
 */
export function validatorFor(key: string, inline?: () => object): ValidateFunction {
  const hit = made.get(key);
  if (hit) return hit;
  const spec = specOf(key) ?? (inline ? inlineSpec(key, inline) : null);
  if (!spec) throw new Error(`no schema validator named ${key}`);
  let fn: ValidateFunction | null = null;
  const file = compiledFile(key);
  if (process.env.AUREUS_NO_PRECOMPILED !== '1' && existsSync(file)) {
    const mod = require(file) as ValidateFunction & { sourceHash?: string };
    if (mod.sourceHash === specHash(spec)) fn = mod;
  }
  validatorSources[key] = fn ? 'precompiled' : 'compiled';
  fn ??= ajvFor(spec.options).compile(spec.schema());
  made.set(key, fn);
  return fn;
}

function ajvFor(options: AjvOptionsLite): AjvType {
  const k = JSON.stringify(options);
  let a = ajvs.get(k);
  if (!a) {
    const Ajv2020 = (require('ajv/dist/2020.js') as { default: new (o: object) => AjvType }).default;
    a = new Ajv2020(options);
    ajvs.set(k, a);
  }
  return a;
}
