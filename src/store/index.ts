// The world store adapter: safe reading, schema + reference validation, canonical atomic writing.
export { loadWorld, loadWorldOrThrow, loadJsonFile, type LoadedWorld, type LoadedSeasonGoals } from './load.js';
export { readJsonFileSafe, parseJsonBytesSafe, parseJsonTextSafe, MAX_FILE_BYTES, type SafeJson } from './read.js';
export { parseJson, FORBIDDEN_KEYS, pointerOf, type JsonParseResult } from './json-parse.js';
export { escapePointerSegment } from '../core/json-pointer.js';
export { validateSchema, checkFormat, compiledSchema, SCHEMA_FILES, type SchemaKind } from './schema.js';
export { checkWorldReferences, type SeasonGoalsInput } from './references.js';
export { writeJsonFile, writeTextFile, writeWorldFile, writeWorld } from './write.js';
