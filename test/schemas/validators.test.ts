import fs from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { allValidatorKeys, compiledFile, specOf } from '../../src/schemas/specs.js';
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
