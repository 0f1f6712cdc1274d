import type { AureusConfig } from '../config/types.js';
import type { LlmRequest } from '../ports/llm.js';
import { worstCaseCost, type CostOptions } from './cost.js';
import { CostCapError } from './errors.js';

/**
 * `--max-cost <usd>` (budgets.max_cost_usd): the run's spend, and the refusal of a call that could
 * pass the cap. A call reserves its worst case (its prompt plus a full max_tokens of output) while
 * in flight, so concurrent calls cannot pass the cap together; its real cost replaces the
 * reservation when it returns. One guard spans a run (an episode, or a whole season).
 *
 * A call that does not fit while other calls are in flight waits for them to settle and decides
 * again: worst cases are far above real costs, so refusing it at once would make the outcome depend
 * on which calls happened to be in flight (the same run passing or failing at random). A call is
 * refused only when its worst case does not fit on top of what was really spent, with nothing in
 * flight; the error then states real spend, never spend plus reservations.
 */
export class CostGuard {
  readonly cap: number | null;
  private spentUsd = 0;
  private reservedUsd = 0;
  private settled: (() => void)[] = [];

  constructor(cap: number | null, initialSpent = 0) {
    this.cap = cap;
    this.spentUsd = initialSpent;
  }

  get spent(): number {
    return this.spentUsd;
  }

  /** Reserve a call's worst case; rejects with CostCapError (exit 5) when it could pass the cap. Resolves to the release. */
  async reserve(req: LlmRequest, model: string, config: AureusConfig, o: CostOptions = {}): Promise<(actualUsd: number) => void> {
    if (this.cap === null) return (usd) => void (this.spentUsd += usd);
    const chars = (req.system?.length ?? 0) + (req.static_context?.length ?? 0) + req.messages.reduce((n, m) => n + m.content.length, 0);
    const estimate = worstCaseCost(chars, req.max_tokens ?? config.max_tokens[req.role], config.prices[model], o);
    while (this.spentUsd + this.reservedUsd + estimate > this.cap) {
      if (this.reservedUsd <= 0) throw new CostCapError(req.role, this.spentUsd, this.cap, estimate);
      await new Promise<void>((resolve) => this.settled.push(resolve));
    }
    this.reservedUsd += estimate;
    let released = false;
    return (usd) => {
      if (released) return;
      released = true;
      this.reservedUsd -= estimate;
      // Floating sums of many reservations leave dust: nothing in flight is exactly zero.
      if (this.reservedUsd < 1e-12) this.reservedUsd = 0;
      this.spentUsd += usd;
      for (const wake of this.settled.splice(0)) wake();
    };
  }
}
