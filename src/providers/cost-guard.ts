import type { AureusConfig } from '../config/types.js';
import type { LlmRequest } from '../ports/llm.js';
import { worstCaseCost, type CostOptions } from './cost.js';
import { CostCapError } from './errors.js';

/**
 * `--max-cost <usd>` (budgets.max_cost_usd): the run's spend, and the refusal of a call that could
 * pass the cap. A call reserves its worst case (its prompt plus a full max_tokens of output) while
 * in flight, so concurrent calls cannot pass the cap together; its real cost replaces the
 * reservation when it returns. One guard spans a run (an episode, or a whole season).
 */
export class CostGuard {
  readonly cap: number | null;
  private spentUsd = 0;
  private reservedUsd = 0;

  constructor(cap: number | null, initialSpent = 0) {
    this.cap = cap;
    this.spentUsd = initialSpent;
  }

  get spent(): number {
    return this.spentUsd;
  }

  /** Reserve a call's worst case; throws CostCapError (exit 5) when it could pass the cap. Returns the release. */
  reserve(req: LlmRequest, model: string, config: AureusConfig, o: CostOptions = {}): (actualUsd: number) => void {
    if (this.cap === null) return (usd) => void (this.spentUsd += usd);
    const chars = (req.system?.length ?? 0) + (req.static_context?.length ?? 0) + req.messages.reduce((n, m) => n + m.content.length, 0);
    const estimate = worstCaseCost(chars, req.max_tokens ?? config.max_tokens[req.role], config.prices[model], o);
    if (this.spentUsd + this.reservedUsd + estimate > this.cap) throw new CostCapError(req.role, this.spentUsd + this.reservedUsd, this.cap, estimate);
    this.reservedUsd += estimate;
    let released = false;
    return (usd) => {
      if (released) return;
      released = true;
      this.reservedUsd -= estimate;
      this.spentUsd += usd;
    };
  }
}
