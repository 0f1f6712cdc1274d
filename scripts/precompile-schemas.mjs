// Build step (after tsc): every validator of src/schemas/specs.ts as ajv standalone code under
// dist/schemas-compiled/, so a run loads validators instead of compiling ~20 schemas (issue 18).
// Each file records the hash of the schema and options it was made from; a stale file is ignored
// at run time (the schema is compiled instead), so editing a schema without rebuilding stays correct.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const Ajv2020 = require('ajv/dist/2020.js').default;
const standaloneCode = require('ajv/dist/standalone/index.js').default;
const specs = await import(path.join(root, 'dist/schemas/specs.js'));

const keys = specs.allValidatorKeys();
let made = 0;
for (const key of keys) {
  const spec = specs.specOf(key);
  const ajv = new Ajv2020({ ...spec.options, code: { source: true } });
  let fn;
  try {
    fn = ajv.compile(spec.schema());
  } catch (e) {
    // A schema that is not valid under a key's options (e.g. strict mode) is compiled at run time if
    // ever used; the build says so, and every package schema is expected to be strict-clean.
    process.stderr.write(`precompile: skipped ${key}: ${e.message.split('\n')[0]}\n`);
    continue;
  }
  made += 1;
  write(key, ajv, fn, specs.specHash(spec));
}

// Schemas that live in code: the Director's edit as stage C validates it (validatorFor's inline key),
// and every request schema a model answers (providers/json-answer.ts), compiled exactly as that
// module's self-contained path does and filed under the schema's hash.
const { DIRECTOR_EDIT_SCHEMA } = await import(path.join(root, 'dist/stages/c-director/edit.js'));
const { CRITIC_SCHEMA } = await import(path.join(root, 'dist/stages/f-verifier/critic.js'));
const { ACTOR_ANSWER_SCHEMA } = await import(path.join(root, 'dist/play/actor.js'));
const { BEAT_SCHEMA, BEAT_OBJECTIVE_SCHEMA } = await import(path.join(root, 'dist/play/observe.js'));
const { hashValue } = await import(path.join(root, 'dist/core/hash.js'));
const addFormats = require('ajv-formats').default;

function write(key, ajv, fn, sourceHash) {
  const file = specs.compiledFile(key);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${standaloneCode(ajv, fn)}\nmodule.exports.sourceHash = ${JSON.stringify(sourceHash)};\n`);
}

const inline = specs.inlineSpec('inline/director_edit', () => DIRECTOR_EDIT_SCHEMA);
const inlineAjv = new Ajv2020({ ...inline.options, code: { source: true } });
write(inline.key, inlineAjv, inlineAjv.compile(inline.schema()), specs.specHash(inline));
made += 1;

const answers = [specs.characterAnswerSchemaFromFile(), DIRECTOR_EDIT_SCHEMA, CRITIC_SCHEMA, ACTOR_ANSWER_SCHEMA, BEAT_SCHEMA, BEAT_OBJECTIVE_SCHEMA];
for (const schema of answers) {
  const h = hashValue(schema);
  const ajv = new Ajv2020({ ...specs.ANSWER_OPTIONS, code: { source: true } });
  addFormats(ajv);
  write(specs.answerKey(h), ajv, ajv.compile(schema), specs.answerSourceHash(h));
  made += 1;
}
process.stderr.write(`precompiled ${made} of ${keys.length + 1 + answers.length} schema validators into dist/schemas-compiled/\n`);
