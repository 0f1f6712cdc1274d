import { round } from '../core/json.js';
import type { CacheTtl, ModelPrice, TokenPrices } from '../config/types.js';
import type { LlmUsage } from '../ports/llm.js';

export const ZERO_USAGE: LlmUsage = { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 };

/** The Message Batches API bills input and output at half price. */
export const BATCH_DISCOUNT = 0.5;

export interface CostOptions {
  /** The call went through the Message Batches API. */
  batch?: boolean;
  /** The TTL of the cache write (a 1-hour write costs twice the input price). */
  ttl?: CacheTtl;
}

/** The prompt length the price tier is chosen by: every input token, cached or not. */
export function promptTokens(u: LlmUsage): number {
  return u.input_tokens + u.cache_read_tokens + u.cache_write_tokens;
}

/** The tier a call is billed at (Haiku 5.5 costs more for prompts above 100k tokens). */
export function tierOf(price: ModelPrice, prompt: number): TokenPrices {
  const lc = price.long_context;
  return lc && prompt > lc.above_tokens ? lc : price;
}

/**
 * Cost in USD of one call from its usage and the model's price (USD per million tokens).
 * Input, output, cache writes and cache reads are priced separately, as the Messages API bills
 * them, at the tier the prompt length selects. Rounded to 6 decimals (a Haiku call costs
 * fractions of a cent). No price: 0 (validate refuses such a config for real runs).
 */
export function costOf(usage: LlmUsage, price: ModelPrice | undefined, o: CostOptions = {}): number {
  if (!price) return 0;
  const t = tierOf(price, promptTokens(usage));
  const write = o.ttl === '1h' ? t.input * 2 : t.cache_write;
  let usd = (usage.input_tokens * t.input + usage.output_tokens * t.output + usage.cache_write_tokens * write + usage.cache_read_tokens * t.cache_read) / 1_000_000;
  if (o.batch) usd *= BATCH_DISCOUNT;
  return round(usd, 6);
}

/** The offline provider's token estimate: about four characters per token. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * The most a call can cost before it is sent: its prompt (estimated, all billed as uncached input
 * and a cache write) plus a full max_tokens of output. `--max-cost` refuses a call whose bound
 * would pass the cap, so the cap holds even when the answer is as long as allowed.
 */
export function worstCaseCost(promptChars: number, maxTokens: number, price: ModelPrice | undefined, o: CostOptions = {}): number {
  if (!price) return 0;
  // The 5.x tokenizer counts about 30% more tokens than chars/4 suggests.
  const prompt = Math.ceil((promptChars / 4) * 1.3);
  const t = tierOf(price, prompt);
  const write = o.ttl === '1h' ? t.input * 2 : t.cache_write;
  let usd = (prompt * Math.max(t.input, write) + maxTokens * t.output) / 1_000_000;
  if (o.batch) usd *= BATCH_DISCOUNT;
  return round(usd, 6);
}
