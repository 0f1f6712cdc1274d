import { readdirSync } from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { packageRoot } from '../paths.js';
import { DIRECTOR_EDIT_SCHEMA } from './director-edit.js';
import { allFieldKeys, schemaAt } from './delta-fields.js';
import { readSchema } from './files.js';
import { TURN_RECORD_SCHEMA } from './turn-record.js';
import { REVIEW_STATE_SCHEMA } from './review-state.js';
import { RUN_FILE_SCHEMAS } from './run-files.js';

/**
 * Every JSON-Schema validator Aureus uses, by key: which schema, with which ajv options. One list
 * for the build (scripts/precompile-schemas.mjs turns each into standalone code under
 * dist/schemas-compiled/) and for the run (schemas/validators.ts loads that code, or compiles the
 * schema itself when the code is missing or stale). Compiling ~20 schemas cost about 15% of an
 * offline episode's CPU before (issue 18); loading precompiled code costs a few milliseconds.
 */
export interface AjvOptionsLite {
  allErrors: boolean;
  strict: boolean;
  allowUnionTypes?: boolean;
  verbose?: boolean;
}

export interface ValidatorSpec {
  key: string;
  options: AjvOptionsLite;
  schema: () => object;
}

const STORE_OPTIONS: AjvOptionsLite = { allErrors: true, strict: true, allowUnionTypes: true, verbose: true };
const PLANNING_OPTIONS: AjvOptionsLite = { allErrors: true, strict: true };
const VERIFIER_OPTIONS: AjvOptionsLite = { allErrors: false, strict: false };
const CONFIG_OPTIONS: AjvOptionsLite = { allErrors: true, strict: true, allowUnionTypes: true };

const DRAFT = 'https://json-schema.org/draft/2020-12/schema';

function withoutId(file: string): object {
  const { $id: _id, ...rest } = readSchema(file);
  return rest;
}

/** The schema a model answers one character's proposals with (agent_proposals $defs/character_answer). */
export function characterAnswerSchemaFromFile(): object {
  const s = readSchema('agent_proposals.schema.json') as { $defs: object };
  return { $schema: DRAFT, $defs: s.$defs, $ref: '#/$defs/character_answer' };
}

/**
 * A schema that lives in code rather than in schemas/ (the Director's edit, built next to the code
 * that applies it), validated under the planning options. One definition for the run and the build,
 * so the precompiled code's hash matches.
 */
export function inlineSpec(key: string, schema: () => object): ValidatorSpec {
  return { key, options: { allErrors: true, strict: true }, schema };
}

/**
 * Model answers (providers/json-answer.ts) are checked against the request's own schema with these
 * options (plus ajv-formats). Their precompiled code is found by the schema's hash (`answerKey`),
 * since the schemas are objects in upper floors' code, not files.
 */
export const ANSWER_OPTIONS = { allErrors: true, strict: false, allowUnionTypes: true, validateSchema: false } as const;

export function answerKey(schemaHash: string): string {
  return `answer/${schemaHash}`;
}

/** What an answer validator's precompiled code records: a different value means it is stale. */
export function answerSourceHash(schemaHash: string): string {
  return createHash('sha256').update(JSON.stringify({ options: ANSWER_OPTIONS, formats: 'ajv-formats', schema: schemaHash })).digest('hex');
}

/**
 * The schema of one field of a world schema (`field/<file>#<pointer>`, delta-fields.ts): the sub-schema
 * at the pointer with the file's $defs (its own $refs still resolve). `field-type/<type>`: a JSON type alone.
 */
function fieldSchema(key: string): (() => object) | null {
  const type = /^field-type\/([a-z]+)$/.exec(key);
  if (type) return () => ({ $schema: DRAFT, type: type[1] });
  const m = /^field\/([a-z_]+\.schema\.json)#(\/.*)$/.exec(key);
  if (!m) return null;
  const [, file, pointer] = m;
  return () => {
    const whole = readSchema(file!);
    const sub = schemaAt(whole, pointer!);
    if (sub === null || typeof sub !== 'object') throw new Error(`no schema at ${file}#${pointer}`);
    return { $schema: DRAFT, ...(whole.$defs ? { $defs: whole.$defs } : {}), ...sub };
  };
}

/** The spec of one validator key (null: unknown key). */
export function specOf(key: string): ValidatorSpec | null {
  const field = fieldSchema(key);
  if (field) return { key, options: STORE_OPTIONS, schema: field };
  const [area, name] = key.split('/');
  if (area === 'store' && name) return { key, options: STORE_OPTIONS, schema: () => readSchema(name) };
  if (area === 'planning' && name === 'director_edit') return { key, options: PLANNING_OPTIONS, schema: () => DIRECTOR_EDIT_SCHEMA };
  if (area === 'planning' && name === 'character_answer') return { key, options: PLANNING_OPTIONS, schema: characterAnswerSchemaFromFile };
  if (area === 'planning' && name) return { key, options: PLANNING_OPTIONS, schema: () => withoutId(`${name}.schema.json`) };
  // Under the store's options: a session log is a file on disk, reported like a world file (verbose: the value in each error).
  if (area === 'play' && name === 'turn_record') return { key, options: STORE_OPTIONS, schema: () => TURN_RECORD_SCHEMA };
  // The episode staged for review (.aureus/review.json): a file on disk too, reported the same way.
  if (area === 'state' && name === 'review') return { key, options: STORE_OPTIONS, schema: () => REVIEW_STATE_SCHEMA };
  // A run folder's own files (run-files.ts), reported like a world file too.
  if (area === 'run' && name && RUN_FILE_SCHEMAS[name]) return { key, options: STORE_OPTIONS, schema: () => RUN_FILE_SCHEMAS[name]! };
  if (area === 'verifier' && name) return { key, options: VERIFIER_OPTIONS, schema: () => readSchema(name) };
  if (area === 'config') return { key, options: CONFIG_OPTIONS, schema: () => readSchema('config.schema.json') };
  return null;
}

/** Every key the build precompiles. */
export function allValidatorKeys(): string[] {
  const files = readdirSync(path.join(packageRoot(), 'schemas')).filter((f) => f.endsWith('.schema.json')).sort();
  return [
    ...files.map((f) => `store/${f}`),
    ...['episode_context', 'agent_proposals', 'episode_plan', 'scene_packet', 'character_answer', 'director_edit'].map((n) => `planning/${n}`),
    ...['claims.schema.json', 'scene_events.schema.json', 'verifier_report.schema.json'].map((f) => `verifier/${f}`),
    'play/turn_record',
    'state/review',
    ...Object.keys(RUN_FILE_SCHEMAS).map((n) => `run/${n}`),
    'config',
    ...allFieldKeys(),
  ];
}

/** What the precompiled code was made from: a different hash means stale code, compiled afresh instead. */
export function specHash(spec: ValidatorSpec): string {
  return createHash('sha256').update(JSON.stringify({ options: spec.options, schema: spec.schema() })).digest('hex');
}

/** Where the build puts a key's standalone code. */
export function compiledFile(key: string): string {
  return path.join(packageRoot(), 'dist', 'schemas-compiled', `${key.replace(/[^A-Za-z0-9_.-]/g, '__')}.cjs`);
}
