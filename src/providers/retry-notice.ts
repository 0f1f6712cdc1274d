import type { LlmRequest } from '../ports/llm.js';
import { formatNumber } from '../core/readable.js';

/**
 * The waits of the Anthropic provider's retries, said per call ("writer SC04: 429 rate limited,
 * retrying in 8 s (retry 1 of 4)") and counted per call: `budgets.retries` is the call's, whatever
 * retried it (the SDK on 429/5xx/529/connection errors, or us after a cut stream), so the SDK is
 * given only the retries the call has left and every notice numbers the retry within the call.
 *
 * The SDK's fetch sees no call, only a request: each call's requests carry its id in CALL_HEADER,
 * which the provider's fetch takes off before the request reaches the wire (`strip`).
 *
 * A call cancelled (Ctrl-C, or a fatal error of another call stopping the run) announces no retry
 * it will not make: a response that arrives once its call is cancelled says nothing, and a call
 * cancelled while it waits for a retry it announced says so, once ("… retry 2 of 4 cancelled").
 */
export const CALL_HEADER = 'x-aureus-call';

interface CallState {
  label: string;
  signal?: AbortSignal;
  /** HTTP requests sent so far; every one after the first is a retry. */
  sent: number;
  /** The retry announced and not sent yet ("retry 2 of 4"). */
  announced?: string;
}

const STATUS_WORDS: Record<number, string> = { 408: 'request timeout', 409: 'conflict', 429: 'rate limited', 500: 'server error', 502: 'bad gateway', 503: 'unavailable', 504: 'gateway timeout', 529: 'overloaded' };

/** What a call is for, as a notice names it: its role, and its scene or character when it has one. */
export function callLabel(req: Pick<LlmRequest, 'role' | 'meta' | 'escalate'>): string {
  const m = req.meta ?? {};
  const scene = m.scene ? ` ${m.scene}` : '';
  const attempt = m.attempt ?? 0;
  switch (req.role) {
    case 'writer':
      return `writer${scene}${attempt > 1 ? ` (repair, attempt ${attempt})` : ''}`;
    case 'critic':
      return `critic${scene}${req.escalate ? ' (escalated)' : ''}`;
    case 'proposals':
      return `proposals${m.scene ? ` for ${m.scene}` : ''}`;
    case 'director':
      return `director${attempt > 0 ? ` (re-ask ${attempt})` : ''}`;
    case 'format_fix':
      return `format fix${scene}`;
    case 'recap':
      return 'recap';
  }
}

/**
 * The call as an error names it, as its notices do: "the writer SC04 call", "the critic SC03
 * (escalated) call", "the proposals call for cicero".
 */
export function callNoun(req: Pick<LlmRequest, 'role' | 'meta' | 'escalate'>): string {
  const label = callLabel(req);
  return label.startsWith('proposals for ') ? `the proposals call ${label.slice('proposals '.length)}` : `the ${label} call`;
}

export class RetryNotices {
  private readonly calls = new Map<string, CallState>();
  private next = 0;

  constructor(
    /** budgets.retries: retries per call. */
    private readonly maxRetries: number,
    private readonly say: (text: string) => void,
  ) {}

  /** A call starts: its id, for CALL_HEADER. */
  open(req: LlmRequest): string {
    const id = String(++this.next);
    this.calls.set(id, { label: callLabel(req), signal: req.signal, sent: 0 });
    return id;
  }

  /** The call ended; cancelled, it says once that the retry it announced will not be made. */
  close(id: string, cancelled: boolean): void {
    const c = this.calls.get(id);
    this.calls.delete(id);
    if (cancelled && c?.announced) this.say(`${c.label}: ${c.announced} cancelled`);
  }

  /** The SDK's `maxRetries` for the call's next attempt: the retries it has left. */
  retriesLeft(id: string): number {
    return Math.max(0, this.maxRetries - (this.calls.get(id)?.sent ?? 0));
  }

  /** The request's call id, and the request without it: the header never reaches the wire. */
  strip(init: RequestInit | undefined): { id: string | undefined; init: RequestInit | undefined } {
    if (!init?.headers) return { id: undefined, init };
    const headers = new Headers(init.headers as ConstructorParameters<typeof Headers>[0]);
    const id = headers.get(CALL_HEADER) ?? undefined;
    if (id === undefined) return { id, init };
    headers.delete(CALL_HEADER);
    return { id, init: { ...init, headers } };
  }

  /** A request of call `id` goes out: counted; the retry it announced is being made. */
  sending(id: string | undefined): void {
    const c = id === undefined ? undefined : this.calls.get(id);
    if (!c) return;
    c.sent += 1;
    c.announced = undefined;
  }

  /**
   * The notice for a response the SDK is about to retry (its rules: 408/409/429/5xx unless
   * x-should-retry says otherwise, while retries remain), with the wait it will honour when the
   * server names one; null when it will not retry, or the call is cancelled. A request that is no
   * call's (the batch endpoints) is numbered by the SDK's own retry count.
   */
  response(id: string | undefined, res: Response, init: RequestInit | undefined): string | null {
    const should = res.headers.get('x-should-retry');
    const retryable = should === 'true' || (should !== 'false' && (res.status === 408 || res.status === 409 || res.status === 429 || res.status >= 500));
    if (!retryable || res.ok || init?.signal?.aborted) return null;
    const c = id === undefined ? undefined : this.calls.get(id);
    if (c?.signal?.aborted) return null;
    // The retry about to be made: the call's `sent`-th (its first request is no retry).
    const n = c ? c.sent : Number(new Headers(init?.headers as ConstructorParameters<typeof Headers>[0]).get('x-stainless-retry-count') ?? 0) + 1;
    if (n > this.maxRetries) return null;
    const ms = Number(res.headers.get('retry-after-ms'));
    const s = Number(res.headers.get('retry-after'));
    const wait = ms > 0 ? ms / 1000 : s > 0 ? s : null;
    return this.announce(c, `${res.status} ${STATUS_WORDS[res.status] ?? 'error'}, retrying${wait !== null ? ` in ${formatNumber(wait, 1)} s` : ''}`, n);
  }

  /**
   * The notice for a request that failed without a response (connection refused or reset, DNS, the
   * attempt's deadline before the headers), which the SDK retries while the call has retries left:
   * `problem` says what failed ("connection refused (ECONNREFUSED 127.0.0.1:1)"). The SDK picks its
   * own backoff (half a second, doubling, with jitter), so no wait is named. Null when it will not retry.
   */
  failed(id: string | undefined, problem: string, init: RequestInit | undefined): string | null {
    if (init?.signal?.aborted) return null;
    const c = id === undefined ? undefined : this.calls.get(id);
    if (!c || c.signal?.aborted || c.sent > this.maxRetries) return null;
    return this.announce(c, `${problem}, retrying`, c.sent);
  }

  /**
   * Our own retry, waiting `ms`, after the answer broke once its headers had come (the SDK retries
   * only until then): cut off, or `problem` when it is something else ("timed out after 60 s").
   * Its notice, or null when the call has no retry left.
   */
  cutOff(id: string, ms: number, problem = 'the answer was cut off'): string | null {
    const c = this.calls.get(id);
    if (!c || c.sent > this.maxRetries || c.signal?.aborted) return null;
    return this.announce(c, `${problem}, retrying in ${formatNumber(ms / 1000, 1)} s`, c.sent);
  }

  /** HTTP requests the call has sent so far, retries included. */
  sent(id: string): number {
    return this.calls.get(id)?.sent ?? 0;
  }

  private announce(c: CallState | undefined, what: string, n: number): string {
    const retry = `retry ${n} of ${this.maxRetries}`;
    if (c) c.announced = retry;
    return `${c?.label ?? 'batch request'}: ${what} (${retry})`;
  }
}
