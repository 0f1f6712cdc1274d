import type { LlmRole } from '../ports/llm.js';

/**
 * The shape of aureus.config.yaml once loaded, defaulted and overridden (schemas/config.schema.json
 * is the authority; this type mirrors it). Model ids and prices live here, never in code paths.
 */

/** A role that can be routed to a model: the five LLM roles plus the escalation model (spec §7). */
export type ModelSlot = LlmRole | 'escalation';
export const MODEL_SLOTS: readonly ModelSlot[] = ['director', 'proposals', 'writer', 'critic', 'recap', 'escalation'];

export type CacheMode = 'read-write' | 'replay' | 'off';
export const CACHE_MODES: readonly CacheMode[] = ['read-write', 'replay', 'off'];

/** USD per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
  cache_write: number;
  cache_read: number;
}

export interface AureusConfig {
  /**
   * `auto` (offline unless ANTHROPIC_API_KEY is set, then anthropic), `offline`, `anthropic`
   * (per-role models), `anthropic:<model>` (one model for every role), `replay:<dir>`.
   */
  provider: string;
  models: Record<ModelSlot, string>;
  /**
   * Per-role escalation targets that differ from `models.escalation` (spec §6.4: the critic
   * escalates to a Sonnet-class model, not Opus). A role not listed escalates to models.escalation.
   */
  escalations: Partial<Record<LlmRole, string>>;
  prices: Record<string, ModelPrice>;
  budgets: {
    /** Regenerations per scene (spec §9.3). */
    per_scene: number;
    /** Scene regenerations per episode (spec §9.3). */
    per_episode: number;
    /** Re-asks after an invalid JSON answer, per call. */
    json_reasks: number;
    /** HTTP requests to a real provider per episode, SDK retries included. */
    provider_calls_per_episode: number;
    /** SDK retries per call (429 / 5xx / 529 / connection errors), within the call budget. */
    retries: number;
  };
  /** Independent LLM calls in flight (`--concurrency`). */
  concurrency: number;
  /** Per-role request timeout in milliseconds. */
  timeouts_ms: Record<LlmRole, number>;
  /** max_tokens per role (stages may ask for less). */
  max_tokens: Record<LlmRole, number>;
  /** Roles whose calls stream (long writer calls). */
  stream_roles: LlmRole[];
  cache: { mode: CacheMode; dir: string };
  packets: { token_budget: number };
  /** Offline writer defect injection rate, 0..1 (`--chaos`). */
  chaos: number;
}

/** What CLI flags may override (already parsed and validated). */
export interface ConfigOverrides {
  provider?: string;
  /** role → model id, from repeated `--model role=id`. */
  models?: Partial<Record<ModelSlot, string>>;
  concurrency?: number;
  chaos?: number;
  cacheMode?: CacheMode;
}
