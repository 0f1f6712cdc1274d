/**
 * What Aureus knows about each Anthropic model id: family, what the API accepts for it, the largest
 * answer it can give and the shortest prefix it will cache. `validate` uses it to refuse a config
 * that would earn an HTTP 400 on the first call; the Anthropic adapter uses it to send only the
 * parameters the model accepts. Prices are not here: they live in the config's price table.
 *
 * Facts as of 2026-11 (the 5.x lineup). On 5.x models the API rejects non-default sampling
 * parameters, assistant prefill, thinking budgets, `thinking: disabled` and forced tool choice;
 * depth is `output_config.effort`, answers may start with thinking blocks, and structured outputs
 * are `output_config.format`. Aureus sends none of the rejected parameters on any model.
 */

export type Effort = 'low' | 'medium' | 'high' | 'xhigh' | 'max';
export const EFFORTS: readonly Effort[] = ['low', 'medium', 'high', 'xhigh', 'max'];

export interface ModelInfo {
  family: '5.x' | '4.5';
  /** `output_config.effort` is accepted. */
  effort: boolean;
  /** `output_config.format` (structured outputs) is accepted. */
  structured: boolean;
  /** The largest max_tokens the model accepts. */
  max_output_tokens: number;
  /** The shortest prefix (tokens) the model writes to the prompt cache. */
  min_cache_tokens: number;
  /** End-of-life date (ISO), when announced: configuring it is a warning. */
  end_of_life?: string;
}

export const MODEL_CATALOG: Readonly<Record<string, ModelInfo>> = {
  'claude-sonnet-5-5': { family: '5.x', effort: true, structured: true, max_output_tokens: 64_000, min_cache_tokens: 1024 },
  'claude-opus-5-5': { family: '5.x', effort: true, structured: true, max_output_tokens: 64_000, min_cache_tokens: 1024 },
  'claude-haiku-5-5': { family: '5.x', effort: true, structured: true, max_output_tokens: 64_000, min_cache_tokens: 2048 },
  'claude-fable-5-1': { family: '5.x', effort: true, structured: true, max_output_tokens: 32_000, min_cache_tokens: 1024 },
  'claude-sonnet-4-5': { family: '4.5', effort: false, structured: true, max_output_tokens: 64_000, min_cache_tokens: 1024, end_of_life: '2026-11-30' },
  'claude-haiku-4-5': { family: '4.5', effort: false, structured: true, max_output_tokens: 64_000, min_cache_tokens: 4096 },
  'claude-opus-4-5': { family: '4.5', effort: true, structured: true, max_output_tokens: 64_000, min_cache_tokens: 4096 },
};

/** The models to move to, named in hints (AUR4010's, and the 404 advice of AUR4203). */
export const CURRENT_LINEUP = 'claude-sonnet-5-5, claude-haiku-5-5, claude-opus-5-5';

/** The catalog entry for a model id; dated snapshot ids (`claude-sonnet-5-5-20261001`) map to their alias. */
export function modelInfo(model: string): ModelInfo | undefined {
  return MODEL_CATALOG[model] ?? MODEL_CATALOG[model.replace(/-\d{8}$/, '')];
}

export function knownModels(): string[] {
  return Object.keys(MODEL_CATALOG);
}
