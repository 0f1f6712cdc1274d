/**
 * The JSON schema of one line of a play session's log (`.aureus/sessions/<id>/turns.jsonl`, the
 * `TurnRecord` of src/play/types.ts). The log is a file on disk that a user can edit, truncate or
 * copy from another version, and replay (state.ts) indexes its fields freely (`r.id.slice`,
 * `accepted.includes`): each line is checked against this before it is reduced, so a bad line is
 * a diagnostic with its line:column, not a crash. It lives here, beside the package's schemas, so
 * specs.ts can name it and the build precompiles its validator.
 *
 * Every field the reducer, `session show` and canonization read is typed; unknown keys are allowed
 * (a log written by a later aureus may carry more), and a record's `type` picks its shape.
 */
const STRING = { type: 'string' } as const;
const STRINGS = { type: 'array', items: STRING } as const;
/** Turn ids are `t` and a sequence number (state.ts turnId); replay takes the number back out of them. */
const TURN_ID = { type: 'string', pattern: '^t\\d+$' } as const;
const BEAT = { enum: ['establishment', 'complication', 'escalation', 'pivot', 'resolution'] } as const;

/**
 * An objective's flag (`--objective accusation_made`): a lower-case name, as the Director's flags
 * are keyed by it. play checks `--objective` against it before a session starts (run.ts), and a
 * log's start record against it when the log is read, so a `__proto__` or `toString` edited into
 * a log is the log's error, not a flag lookup that finds Object.prototype.
 */
export const OBJECTIVE_KEY = '^[a-z][a-z0-9_]{0,63}$';

const SETUP = {
  type: 'object',
  required: ['scene', 'episode', 'location', 'principal', 'cast', 'mode', 'turn_budget', 'objective', 'season'],
  properties: {
    scene: STRING,
    episode: { type: ['string', 'null'] },
    location: STRING,
    principal: STRING,
    cast: STRINGS,
    mode: { enum: ['open', 'beat_gated', 'turn_limited', 'objective'] },
    turn_budget: { type: 'integer', minimum: 1 },
    objective: { type: ['string', 'null'], pattern: OBJECTIVE_KEY },
    season: { type: 'integer', minimum: 1 },
  },
} as const;

const ANSWER = {
  type: 'object',
  required: ['speaker', 'dialogue', 'action', 'internal', 'mood', 'tension_shift'],
  properties: { speaker: STRING, dialogue: STRING, action: STRING, internal: STRING, mood: STRING, tension_shift: { type: 'number' } },
} as const;

const DELTA = {
  type: 'object',
  required: ['path', 'op'],
  properties: {
    path: STRING,
    op: { enum: ['add', 'subtract', 'set', 'multiply', 'transfer'] },
    value: { type: ['number', 'string', 'boolean'] },
    from: STRING,
    to: STRING,
    amount: { type: 'number' },
  },
} as const;

const CLAIM = {
  type: 'object',
  required: ['id', 'kind', 'text'],
  properties: { id: STRING, kind: { enum: ['minor_character', 'object', 'place_detail', 'rumor', 'fact', 'belief'] }, text: STRING, subject: STRING, holders: STRINGS },
} as const;

const PROPOSAL = {
  type: 'object',
  required: ['id', 'kind', 'turns', 'reason', 'critical', 'status'],
  properties: {
    id: STRING,
    kind: { enum: ['delta', 'claim'] },
    delta: DELTA,
    claim: CLAIM,
    actor: STRING,
    turns: { type: 'array', items: TURN_ID },
    reason: STRING,
    critical: { type: 'boolean' },
    status: { enum: ['pending', 'accepted', 'unchanged', 'rejected'] },
    rejection: STRING,
  },
} as const;

const COMPLETE = {
  evaluation: {
    type: 'object',
    required: ['summary', 'key_moments', 'play_style', 'world_changes'],
    properties: { summary: STRING, key_moments: STRINGS, play_style: STRING, world_changes: STRINGS },
  },
  next: {
    type: 'object',
    required: ['kind', 'command', 'reason', 'threads'],
    properties: { kind: { enum: ['compile_episode', 'play_scene'] }, command: STRING, reason: STRING, threads: STRINGS },
  },
} as const;

/** Each record type: its required keys and their shapes. */
const RECORDS: Record<string, { required: string[]; properties: Record<string, object> }> = {
  // The pinned packet is checked against its own schema (scene_packet.schema.json) by records.ts.
  start: { required: ['session', 'seed', 'setup'], properties: { session: STRING, seed: STRING, setup: SETUP, packet: { type: 'object' }, packet_file: STRING } },
  user: { required: ['id', 'text', 'truncated'], properties: { id: TURN_ID, text: STRING, truncated: { type: 'boolean' } } },
  actor: { required: ['id', 'reply_to', 'answer', 'content'], properties: { id: TURN_ID, reply_to: TURN_ID, answer: ANSWER, content: STRING, beat: BEAT, objective_met: { type: 'boolean' } } },
  command: { required: ['id', 'name', 'args', 'effect'], properties: { id: TURN_ID, name: STRING, args: STRING, effect: STRING } },
  brief: {
    required: ['id', 'brief'],
    properties: {
      id: TURN_ID,
      brief: { type: 'object', required: ['turn', 'key_facts', 'suggested_topics', 'tokens'], properties: { turn: { type: 'integer' }, key_facts: STRINGS, suggested_topics: STRINGS, tokens: { type: 'number' } } },
    },
  },
  proposal: { required: ['proposal'], properties: { proposal: PROPOSAL } },
  undo: { required: ['id', 'target'], properties: { id: TURN_ID, target: TURN_ID } },
  canonized: {
    required: ['id', 'commit', 'accepted', 'rejected'],
    properties: { id: TURN_ID, commit: { type: ['string', 'null'] }, accepted: STRINGS, unchanged: STRINGS, rejected: { type: 'object', additionalProperties: STRING }, scene_findings: STRINGS },
  },
  complete: { required: ['id', 'trigger', 'evaluation', 'next'], properties: { id: TURN_ID, trigger: STRING, ...COMPLETE } },
};

export const TURN_RECORD_SCHEMA = {
  type: 'object',
  required: ['type'],
  properties: { type: { enum: Object.keys(RECORDS) } },
  allOf: Object.entries(RECORDS).map(([type, shape]) => ({
    if: { type: 'object', required: ['type'], properties: { type: { const: type } } },
    then: { type: 'object', ...shape },
  })),
};
