/**
 * The JSON schemas of the files a run keeps under `.aureus/runs/<run>/`: the commit transaction's
 * journal (commit.json), a rollback's journal (.git/aureus-rollback.json), a `branch --set`'s (.git/aureus-branch.json), a call journal entry (calls/<key>.json) and the checkpoints a resumed run
 * reads back (checkpoints/<name>.json). They are files on disk that a hand edit, a disk error or an
 * older aureus can leave in another shape, and the code that reads them indexes their fields
 * freely: each is checked against its schema when read (pipeline/state-file.ts), so a wrong shape
 * is a diagnostic with its pointer, never an internal error. They live here so specs.ts names them
 * and the build precompiles their validators.
 *
 * Each lists what its readers use; unknown keys are allowed (a later aureus may write more).
 */
const STRING = { type: 'string' } as const;
const NAME = { type: 'string', minLength: 1 } as const;
const NUMBER = { type: 'number' } as const;
const COUNT = { type: 'integer', minimum: 0 } as const;
const OBJECTS = { type: 'array', items: { type: 'object' } } as const;
const SHA256 = { type: 'string', pattern: '^[0-9a-f]{64}$' } as const;
const COMMIT = { type: ['string', 'null'], pattern: '^[0-9a-f]{40}([0-9a-f]{24})?$' } as const;

/** transaction.ts's CommitJournal. */
const COMMIT_JOURNAL = {
  type: 'object',
  required: ['format', 'episode', 'tag', 'message', 'head_before', 'hashes'],
  properties: {
    format: { const: 1 },
    episode: NAME,
    tag: NAME,
    message: NAME,
    head_before: COMMIT,
    hashes: { type: 'object', minProperties: 1, additionalProperties: SHA256 },
    before: { type: 'object', additionalProperties: { type: ['string', 'null'], pattern: '^[0-9a-f]{64}$' } },
    keep_stage: { const: true },
  },
} as const;

/** season/rollback-journal.ts's RollbackJournal: the switch of a rollback, kept until it is done. */
const ROLLBACK_JOURNAL = {
  type: 'object',
  required: ['version', 'episode', 'from', 'to', 'reverted', 'retagged', 'refs'],
  properties: {
    version: { const: 1 },
    episode: { type: 'string', pattern: '^s[0-9]{2}e[0-9]{2}$' },
    from: { ...COMMIT, type: 'string' },
    to: { ...COMMIT, type: 'string' },
    reverted: OBJECTS,
    retagged: OBJECTS,
    refs: {
      type: 'array',
      items: { type: 'object', required: ['ref', 'old', 'new'], properties: { ref: NAME, old: COMMIT, new: COMMIT } },
    },
  },
} as const;

/** season/branch-journal.ts's BranchJournal: a `branch --set` under way, kept until its commit is made. */
const BRANCH_JOURNAL = {
  type: 'object',
  required: ['version', 'branch', 'from', 'label', 'back', 'sets'],
  properties: {
    version: { const: 1 },
    branch: NAME,
    from: { ...COMMIT, type: 'string' },
    label: NAME,
    back: { type: 'object', properties: { branch: NAME, commit: { ...COMMIT, type: 'string' } }, minProperties: 1, maxProperties: 1 },
    sets: { type: 'array', items: NAME },
  },
} as const;

/** ports/llm.ts's LlmResponse, as call-journal.ts writes it. */
const CALL_ANSWER = {
  type: 'object',
  required: ['text', 'usage', 'cost_usd', 'model', 'provider', 'stop_reason', 'latency_ms', 'cached'],
  properties: {
    text: STRING,
    usage: {
      type: 'object',
      required: ['input_tokens', 'output_tokens', 'cache_read_tokens', 'cache_write_tokens'],
      properties: { input_tokens: COUNT, output_tokens: COUNT, cache_read_tokens: COUNT, cache_write_tokens: COUNT },
    },
    cost_usd: NUMBER,
    charged_usd: NUMBER,
    model: STRING,
    provider: STRING,
    stop_reason: STRING,
    latency_ms: NUMBER,
    cached: { type: 'boolean' },
    batch: { type: 'boolean' },
    cache_ttl: { enum: ['5m', '1h'] },
  },
} as const;

/**
 * planning-checkpoint.ts's index (format 2: the file names of the planning texts), or an older
 * aureus's planning.json holding the four parts themselves.
 */
const CHECKPOINT_PLANNING = {
  type: 'object',
  if: { required: ['format'], properties: { format: true } },
  then: {
    required: ['format', 'context', 'proposals', 'plan', 'packets'],
    properties: { format: { const: 2 }, context: NAME, proposals: NAME, plan: NAME, packets: { type: 'array', items: NAME }, warnings: OBJECTS },
  },
  else: {
    required: ['context', 'proposals', 'plan', 'packets'],
    properties: { context: { type: 'object' }, proposals: { type: 'object' }, plan: { type: 'object', required: ['scenes'], properties: { scenes: OBJECTS } }, packets: OBJECTS },
  },
} as const;

/** domain/scene.ts's ApprovedScene. */
const APPROVED_SCENE = {
  type: 'object',
  required: ['scene', 'text', 'events', 'accepted_claims', 'downgraded_claims', 'attempts', 'model', 'simplified'],
  properties: { scene: NAME, text: STRING, events: OBJECTS, accepted_claims: OBJECTS, downgraded_claims: OBJECTS, attempts: COUNT, model: STRING, simplified: { type: 'boolean' } },
} as const;

/** domain/scene.ts's VerifierReport, as far as the resumed run and the review read it. */
const REPORT = {
  type: 'object',
  required: ['format', 'episode_id', 'scenes', 'episode_findings', 'budget', 'verdict'],
  properties: {
    format: { const: 1 },
    episode_id: STRING,
    scenes: {
      type: 'array',
      items: {
        type: 'object',
        required: ['scene', 'attempts', 'final_verdict', 'manual_review'],
        properties: { scene: NAME, attempts: { type: 'array', items: { type: 'object', required: ['findings'], properties: { findings: OBJECTS } } }, final_verdict: { enum: ['PASS', 'FAIL'] }, manual_review: { type: 'boolean' } },
      },
    },
    episode_findings: OBJECTS,
    budget: { type: 'object', required: ['per_scene', 'per_episode', 'used'], properties: { per_scene: COUNT, per_episode: COUNT, used: COUNT } },
    manual_review: { type: 'array', items: STRING },
    verdict: { enum: ['PASS', 'FAIL'] },
  },
} as const;

/** run-episode.ts's E–G checkpoint. */
const CHECKPOINT_SCENES = {
  type: 'object',
  required: ['scenes', 'report'],
  properties: { scenes: { type: 'array', items: APPROVED_SCENE }, report: REPORT },
} as const;

const COUNTS = (keys: readonly string[]) => ({ type: 'object', required: keys, properties: Object.fromEntries(keys.map((k) => [k, NUMBER])) });

/** run-summary.ts's StageHCheckpoint (and the `planned` list saveStageH writes in place of shared files). */
const CHECKPOINT_STAGE_H = {
  type: 'object',
  required: ['files', 'message', 'title', 'provider', 'totals', 'report'],
  properties: {
    files: { type: 'object', additionalProperties: STRING },
    message: NAME,
    title: STRING,
    provider: STRING,
    totals: COUNTS(['input', 'output', 'cache_read', 'cache_write', 'cost_usd']),
    report: { ...COUNTS(['scenes', 'approved', 'attempts', 'repairs', 'manual_review', 'hard', 'soft']), properties: { ...COUNTS(['scenes', 'approved', 'attempts', 'repairs', 'manual_review', 'hard', 'soft']).properties, repaired: COUNTS(['hard', 'soft']) } },
    cached: COUNTS(['answers', 'cost_usd']),
    warnings: OBJECTS,
    planned: { type: 'array', items: NAME },
  },
} as const;

const DRAFT = 'https://json-schema.org/draft/2020-12/schema';

/** By validator key name (`run/<name>`, specs.ts). */
export const RUN_FILE_SCHEMAS: Record<string, object> = {
  commit_journal: { $schema: DRAFT, ...COMMIT_JOURNAL },
  rollback_journal: { $schema: DRAFT, ...ROLLBACK_JOURNAL },
  branch_journal: { $schema: DRAFT, ...BRANCH_JOURNAL },
  call_answer: { $schema: DRAFT, ...CALL_ANSWER },
  checkpoint_planning: { $schema: DRAFT, ...CHECKPOINT_PLANNING },
  checkpoint_scenes: { $schema: DRAFT, ...CHECKPOINT_SCENES },
  checkpoint_stage_h: { $schema: DRAFT, ...CHECKPOINT_STAGE_H },
};
