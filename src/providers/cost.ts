import { round } from '../core/json.js';
import type { ModelPrice } from '../config/types.js';
import type { LlmUsage } from '../ports/llm.js';

export const ZERO_USAGE: LlmUsage = { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 };

/**
 * Cost in USD of one call from its usage and the model's price (USD per million tokens).
 * Input, output, cache writes and cache reads are priced separately, as the Messages API bills
 * them. Rounded to 6 decimals (a Haiku call costs fractions of a cent). No price: 0.
 */
export function costOf(usage: LlmUsage, price: ModelPrice | undefined): number {
  if (!price) return 0;
  const usd =
    (usage.input_tokens * price.input +
      usage.output_tokens * price.output +
      usage.cache_write_tokens * price.cache_write +
      usage.cache_read_tokens * price.cache_read) /
    1_000_000;
  return round(usd, 6);
}

/** The offline provider's token estimate: about four characters per token. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
