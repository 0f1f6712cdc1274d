import { characterAnswerSchemaFromFile } from './specs.js';
import { validatorFor } from './validators.js';

/**
 * One character's proposals as a model answers them (agent_proposals.schema.json
 * $defs/character_answer). Stage B asks for it and checks it; it lives here, beside the other
 * answer schemas, so stage B does not import stage C (which plans from B's proposals).
 */
let answerSchema: object | undefined;
export function characterAnswerSchema(): object {
  // One object for the process: validators downstream may cache by identity.
  answerSchema ??= characterAnswerSchemaFromFile();
  return answerSchema;
}

/** Errors as one readable line, or null when valid. */
export function validateCharacterAnswer(value: unknown): string | null {
  const v = validatorFor('planning/character_answer');
  return v(value) ? null : (v.errors ?? []).slice(0, 8).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ');
}
