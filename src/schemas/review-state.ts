/**
 * The JSON schema of `.aureus/review.json`, the record of the episode staged for review (the
 * `ReviewState` of src/pipeline/review-state.ts). The file is git-ignored state a user can edit,
 * truncate or copy from elsewhere, and the review commands index its fields freely (`r.scenes[id]`,
 * `steering.focus.length`, `path.join(root, r.run_dir)`): it is checked against this before any of
 * them trusts it, so a damaged file is a diagnostic with its pointer and line:column, not a crash or
 * a silent "nothing staged". Unknown keys are allowed (a later aureus may record more). Where
 * `run_dir` points is checked after the shape (AUR6112: a folder directly under .aureus/runs/).
 */
const STRING = { type: 'string' } as const;
const STRINGS = { type: 'array', items: STRING } as const;

const SCENE = {
  type: 'object',
  required: ['author', 'pinned', 'rewrites', 'notes'],
  properties: {
    author: { enum: ['model', 'human'] },
    pinned: { type: 'boolean' },
    rewrites: { type: 'integer', minimum: 0 },
    nonce: { type: 'integer', minimum: 0 },
    notes: STRINGS,
  },
} as const;

/**
 * The steering flags the episode was staged with (stages/c-director/steering.ts `Steering`), or
 * null. One schema with both types rather than an anyOf: a bad flag is then told at its pointer.
 */
const STEERING = {
  type: ['object', 'null'],
  required: ['focus', 'require', 'avoid', 'cast', 'notes'],
  properties: {
    focus: STRINGS,
    require: { type: 'array', items: { type: 'object', required: ['op'], properties: { op: STRING, actor: STRING } } },
    avoid: STRINGS,
    cast: STRINGS,
    notes: { type: 'array', items: { type: 'object', required: ['id', 'text'], properties: { id: STRING, text: STRING, thread: STRING, character: STRING } } },
  },
} as const;

export const REVIEW_STATE_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  required: ['format', 'episode', 'episode_number', 'season', 'seed', 'run_dir', 'steering', 'scenes'],
  properties: {
    format: { const: 1 },
    episode: { type: 'string', pattern: '^s\\d{2,}e\\d{2,}$' },
    episode_number: { type: 'integer', minimum: 1 },
    season: { type: 'integer', minimum: 1 },
    seed: { type: 'string', minLength: 1 },
    run_dir: STRING,
    steering: STEERING,
    scenes: { type: 'object', additionalProperties: SCENE },
    staged_at: { type: 'string', minLength: 1 },
  },
};
