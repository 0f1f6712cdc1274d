import fs from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { hashValue } from '../../src/core/hash.js';
import { ACTOR_ANSWER_SCHEMA } from '../../src/play/actor.js';
import { BEAT_OBJECTIVE_SCHEMA, BEAT_SCHEMA } from '../../src/play/observe.js';
import { answerValidatorSources, validatorFor as answerValidatorFor } from '../../src/providers/json-answer.js';
import { allValidatorKeys, ANSWER_OPTIONS, answerKey, compiledFile, specOf } from '../../src/schemas/specs.js';
import { characterAnswerSchema } from '../../src/schemas/character-answer.js';
import { DIRECTOR_EDIT_SCHEMA } from '../../src/stages/c-director/edit.js';
import { CRITIC_SCHEMA } from '../../src/stages/f-verifier/critic.js';
import { validatorFor, validatorSources } from '../../src/schemas/validators.js';
import { loadWorldOrThrow } from '../../src/store/index.js';

/**
 * Validators are precompiled at build time (scripts/precompile-schemas.mjs) and loaded lazily; a
 * missing or stale file falls back to compiling. Either way the answers are the same.
 */
describe('schema validators (issue 18)', () => {
  it('every key has a spec; the built code, when present, is what a run uses', () => {
    for (const key of allValidatorKeys()) expect(specOf(key), key).not.toBeNull();
    const key = 'store/characters.schema.json';
    const v = validatorFor(key);
    expect(typeof v).toBe('function');
    expect(validatorSources[key]).toBe(fs.existsSync(compiledFile(key)) ? 'precompiled' : 'compiled');
  });

  it('a precompiled validator and a freshly compiled one give the same errors', async () => {
    const { world } = await loadWorldOrThrow(process.cwd());
    const bad = structuredClone(world.characters) as unknown as { characters: Record<string, unknown>[] };
    bad.characters[0]!.status = 'asleep';
    delete bad.characters[1]!.name;
    const pre = validatorFor('store/characters.schema.json');
    const preOk = pre(bad);
    const preErrors = JSON.stringify(pre.errors?.map((e) => [e.instancePath, e.keyword, e.message]));
    const spec = specOf('store/characters.schema.json')!;
    const v = new Ajv2020(spec.options).compile(spec.schema());
    expect(v(bad)).toBe(preOk);
    expect(JSON.stringify(v.errors?.map((e) => [e.instancePath, e.keyword, e.message]))).toBe(preErrors);
    expect(v(world.characters)).toBe(true);
    expect(pre(world.characters)).toBe(true);
    expect(preOk).toBe(false);
  });
});

/**
 * Request schemas a model answers (providers/json-answer.ts) and the Director's inline edit schema are
 * precompiled too, found by the schema's hash; the built code must judge exactly as a fresh compile.
 */
describe('answer validators (issue 18)', () => {
  const fresh = (schema: object) => {
    const a = new Ajv2020({ ...ANSWER_OPTIONS });
    // ajv-formats is CommonJS: its plugin is the module's `default` export under NodeNext.
    (formats as unknown as { default: (a: Ajv2020) => void }).default(a);
    return a.compile(schema);
  };
  const errorsOf = (v: ValidateFunction, value: unknown) => [v(value), JSON.stringify(v.errors?.map((e) => [e.instancePath, e.keyword, e.message, e.params]))];

  it('the shipped request schemas load from the build and give the same verdicts and errors', () => {
    const cases: [object, unknown[]][] = [
      [CRITIC_SCHEMA, [{ verdict: 'PASS', violations: [], warnings: [], fix_instructions: [] }, { verdict: 'OK', violations: [{ type: 3 }] }, []]],
      [DIRECTOR_EDIT_SCHEMA, [{ title: '', scenes: 'x' }, { title: 'T', scenes: [] }, { extra: 1 }]],
      [characterAnswerSchema(), [{}, { character_id: 'x', moves: [{}] }, 'no']],
      [ACTOR_ANSWER_SCHEMA, [{}, { line: 3 }]],
      [BEAT_SCHEMA, [{ beat: 'nope' }, { beat: 'x', more: 1 }]],
      [BEAT_OBJECTIVE_SCHEMA, [{ beat: 'pivot' }, { beat: 'pivot', objective: { met: 'yes', confidence: 2 } }]],
    ];
    for (const [schema, values] of cases) {
      const v = answerValidatorFor(schema);
      const key = hashValue(schema);
      expect(answerValidatorSources[key]).toBe(fs.existsSync(compiledFile(answerKey(key))) ? 'precompiled' : 'compiled');
      if (fs.existsSync(path.join(process.cwd(), 'dist/schemas-compiled'))) expect(answerValidatorSources[key]).toBe('precompiled');
      const f = fresh(schema);
      for (const value of values) expect(errorsOf(v, value)).toEqual(errorsOf(f, value));
    }
  });

  it('the inline Director-edit validator is precompiled under its own key and agrees with ajv', () => {
    const v = validatorFor('inline/director_edit', () => DIRECTOR_EDIT_SCHEMA);
    expect(validatorSources['inline/director_edit']).toBe(fs.existsSync(compiledFile('inline/director_edit')) ? 'precompiled' : 'compiled');
    const f = new Ajv2020({ allErrors: true, strict: true }).compile(DIRECTOR_EDIT_SCHEMA);
    for (const value of [{ title: '', scenes: 'x' }, { title: 'T', scenes: [] }, { extra: 1 }]) expect(errorsOf(v, value)).toEqual(errorsOf(f, value));
  });

  it('an unknown request schema is compiled, not looked up', () => {
    const schema = { type: 'object', required: ['zz_unshipped'] };
    expect(answerValidatorFor(schema)({})).toBe(false);
    expect(answerValidatorSources[hashValue(schema)]).toBe('compiled');
  });
});
