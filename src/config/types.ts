import type { LlmRole } from '../ports/llm.js';
import type { Effort } from '../providers/models.js';

/**
 * The shape of aureus.config.yaml once loaded, defaulted and overridden (schemas/config.schema.json
 * is the authority; this type mirrors it). Model ids and prices live here, never in code paths.
 */

/** A role that can be routed to a model: the six LLM roles plus the escalation model (spec §7). */
export type ModelSlot = LlmRole | 'escalation';
export const MODEL_SLOTS: readonly ModelSlot[] = ['director', 'proposals', 'writer', 'critic', 'recap', 'format_fix', 'escalation'];

export type CacheMode = 'read-write' | 'replay' | 'off';
export const CACHE_MODES: readonly CacheMode[] = ['read-write', 'replay', 'off'];

/** USD per million tokens. */
export interface TokenPrices {
  input: number;
  output: number;
  /** A 5-minute cache write; a 1-hour write costs twice the input price (cost.ts). */
  cache_write: number;
  cache_read: number;
}

/** A model's prices; `long_context` applies to the whole call once its prompt passes `above_tokens`. */
export interface ModelPrice extends TokenPrices {
  long_context?: TokenPrices & { above_tokens: number };
}

export type CacheTtl = '5m' | '1h';
export const CACHE_TTLS: readonly CacheTtl[] = ['5m', '1h'];

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
  /** `output_config.effort` per role; null sends none (the model's default). */
  effort: Record<LlmRole, Effort | null>;
  budgets: {
    /** Regenerations per scene (spec §9.3). */
    per_scene: number;
    /** Scene regenerations per episode (spec §9.3). */
    per_episode: number;
    /** Format-fix calls per episode: one per broken draft, before a regeneration (issue 13). */
    format_fixes: number;
    /** Re-asks after an invalid JSON answer, per call. */
    json_reasks: number;
    /** HTTP requests to a real provider per episode, SDK retries included. */
    provider_calls_per_episode: number;
    /** SDK retries per call (429 / 5xx / 529 / connection errors), within the call budget. */
    retries: number;
    /** The longest `retry-after` we honour, in seconds; a longer one is cut to this. */
    retry_after_max_s: number;
    /** Stop before a call that would take the run's spend past this many USD (`--max-cost`); null: no cap. */
    max_cost_usd: number | null;
  };
  /** Independent LLM calls in flight (`--concurrency`). */
  concurrency: number;
  /** Per-role request timeout in milliseconds. */
  timeouts_ms: Record<LlmRole, number>;
  /** max_tokens per role (stages may ask for less). */
  max_tokens: Record<LlmRole, number>;
  /** Roles whose calls stream (long writer calls). */
  stream_roles: LlmRole[];
  /** Record/replay cache (mode, dir) and the prompt cache's TTL on the wire (`1h` for season runs). */
  cache: { mode: CacheMode; dir: string; ttl: CacheTtl };
  packets: { token_budget: number };
  /** `aureus play`: the Director's ContextBrief token budget and the longest user line (cut with a notice). */
  play: { brief_budget: number; max_input: number };
  /** Offline writer defect injection rate, 0..1 (`--chaos`). */
  chaos: number;
  /** Stage F: the fewest words a scene's text may have (heading and cast line not counted); 0: no minimum. */
  verifier: { min_scene_words: number };
}

/** What CLI flags may override (already parsed and validated). */
export interface ConfigOverrides {
  provider?: string;
  /** role → model id, from repeated `--model role=id`. */
  models?: Partial<Record<ModelSlot, string>>;
  concurrency?: number;
  chaos?: number;
  cacheMode?: CacheMode;
  /** `--max-cost <usd>`. */
  maxCostUsd?: number;
  /** `--cache-ttl 5m|1h`. */
  cacheTtl?: CacheTtl;
}
