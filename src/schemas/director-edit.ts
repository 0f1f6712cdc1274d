/**
 * The JSON schema of the Director model's answer (c-director/edit.ts: a small edit of the symbolic
 * plan), sent as structured output and validated on our side. It lives here, beside the package's
 * schemas, so specs.ts can name it and the build precompiles its validator (issue 18: compiling it
 * was ~2-5% of an offline plan).
 */
const SCENE_ID = '^SC\\d{2}$';

/** The JSON schema of the answer (sent as structured output; also validated on our side). */
export const DIRECTOR_EDIT_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['title', 'scenes'],
  properties: {
    title: { type: 'string', minLength: 1, maxLength: 120 },
    act_order: {
      type: 'array',
      maxItems: 4,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['act', 'scenes'],
        properties: { act: { type: 'integer', minimum: 1, maximum: 4 }, scenes: { type: 'array', items: { type: 'string', pattern: SCENE_ID } } },
      },
    },
    scenes: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'purpose'],
        properties: { id: { type: 'string', pattern: SCENE_ID }, purpose: { type: 'string', minLength: 1, maxLength: 400 } },
      },
    },
  },
} as const;
