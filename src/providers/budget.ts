/**
 * The per-episode budget of HTTP requests to a real provider. Every request counts, SDK retries
 * included (the Anthropic provider charges it from its fetch wrapper), so a flapping provider
 * cannot turn one episode into thousands of billed calls.
 */
export class CallBudget {
  readonly limit: number;
  private usedCount = 0;

  /** `used`: requests already made against this budget by an earlier process (a resumed play session). */
  constructor(limit: number, used = 0) {
    this.limit = limit;
    this.usedCount = used;
  }

  get used(): number {
    return this.usedCount;
  }

  get remaining(): number {
    return Math.max(0, this.limit - this.usedCount);
  }

  /** Take one request from the budget; false when it is spent. */
  take(): boolean {
    if (this.usedCount >= this.limit) return false;
    this.usedCount += 1;
    return true;
  }
}
