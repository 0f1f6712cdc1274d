import type { AureusConfig } from '../config/types.js';
import type { LlmRole } from '../ports/llm.js';
import { costOf } from './cost.js';
import { round } from '../core/json.js';

/**
 * What an episode would cost on the real provider at the configured routing, before it runs
 * (`episode plan` prints it). Output sizes are what Sonnet/Haiku 5.x answer at the default effort,
 * thinking included (the wire benchmark uses the same); input is measured from the artifacts,
 * with the 5.x tokenizer's ~1.3 tokens per chars/4, and the static prefix read from the prompt cache
 * after the first call of each role. Repairs (regenerations, punch-ups, format fixes) are not
 * counted: it is the cost of a clean episode; `format_fix` is listed at 0 for that reason.
 */
export const TYPICAL_OUTPUT_TOKENS: Record<LlmRole, number> = { writer: 1000, director: 3000, critic: 300, proposals: 400, recap: 400, format_fix: 1500 };
const TOKENIZER = 1.3;

export interface EpisodeShape {
  principals: number;
  /** Chars of the director's brief. */
  director_chars: number;
  /**
   * Per scene, measured on its first writer request: chars of the cached prefix (instructions, style
   * guide, lexicon, the episode reference) and of what follows it, and whether it is a marquee scene.
   */
  scenes: Array<{ prefix_chars: number; chars: number; marquee: boolean }>;
}

export interface CostEstimate {
  usd: number;
  batch_usd: number;
  per_role: Record<LlmRole, number>;
}

export function estimateEpisodeCost(config: AureusConfig, shape: EpisodeShape): CostEstimate {
  const tokens = (chars: number) => Math.ceil((chars / 4) * TOKENIZER);
  const per_role: Record<LlmRole, number> = { writer: 0, director: 0, critic: 0, proposals: 0, recap: 0, format_fix: 0 };
  let batch = 0;
  const add = (role: LlmRole, model: string, input: number, read: number, write: number) => {
    const usage = { input_tokens: input, output_tokens: TYPICAL_OUTPUT_TOKENS[role], cache_read_tokens: read, cache_write_tokens: write };
    per_role[role] += costOf(usage, config.prices[model], { ttl: config.cache.ttl });
    batch += costOf(usage, config.prices[model], { batch: true, ttl: config.cache.ttl });
  };
  const m = config.models;
  const escalation = config.escalations.writer ?? m.escalation;
  for (let i = 0; i < shape.principals; i++) add('proposals', m.proposals, 1500, 0, 0);
  add('director', m.director, tokens(shape.director_chars) + 400, 0, 0);
  const written = new Set<string>();
  for (const s of shape.scenes) {
    const model = s.marquee ? escalation : m.writer;
    const prefix = tokens(s.prefix_chars);
    // The first call with a given prefix on a model writes the cache; the others read it.
    const key = `${model}\u0000${s.prefix_chars}`;
    const first = !written.has(key);
    written.add(key);
    add('writer', model, tokens(s.chars), first ? 0 : prefix, first ? prefix : 0);
    add('critic', m.critic, tokens(s.chars / 2) + 2000, 0, 0);
  }
  add('recap', m.recap, 1500, 0, 0);
  const usd = Object.values(per_role).reduce((a, b) => a + b, 0);
  // Four decimals, as every cost in a file (core/json round): the estimate goes into `episode plan --json`.
  return { usd: round(usd), batch_usd: round(batch), per_role: Object.fromEntries(Object.entries(per_role).map(([k, v]) => [k, round(v)])) as Record<LlmRole, number> };
}
