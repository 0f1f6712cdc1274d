import { formatNumber } from '../core/readable.js';

/**
 * One HTTP attempt's deadline (timeouts_ms.<role>), and what a failed attempt is called in a notice
 * or an error.
 *
 * The deadline covers one request: its headers and its whole body, a stream's included (the SDK's
 * own timeout stops at the headers, so a server that sends them and stalls would hang the run). It
 * does not cover the waits between attempts: a 429's `retry-after` is bounded by
 * budgets.retry_after_max_s and budgets.retries, and a timeout bounding the whole call would turn a
 * single long `retry-after` into a fatal timeout.
 */

/** The attempt's deadline passed. Named TimeoutError (not AbortError) so the SDK's stream does not swallow it as a user abort. */
export class AttemptTimeout extends Error {
  override readonly name = 'TimeoutError';
  constructor(readonly ms: number) {
    // "timed out" in the message: the SDK retries a fetch that fails so, and calls the last one a timeout.
    super(`the request timed out after ${ms} ms`);
  }
}

/** The attempt's deadline `e` is, or was caused by, if any. */
function attemptTimeoutOf(e: unknown): AttemptTimeout | undefined {
  for (let c: unknown = e, depth = 0; c instanceof Error && depth < 8; c = c.cause, depth++) {
    if (c instanceof AttemptTimeout) return c;
  }
  return undefined;
}

/** Whether `e`, or an error it was caused by, is an attempt's deadline. */
export function isAttemptTimeout(e: unknown): boolean {
  return attemptTimeoutOf(e) !== undefined;
}

/**
 * `fetch` under a deadline of `ms` for the headers and the whole body; the body is handed on as it
 * arrives, and the timer stops when it ends, fails or is cancelled. A deadline that passes aborts the
 * request: the fetch, or the body read, fails with AttemptTimeout.
 */
export async function timedFetch(input: string | URL | Request, init: RequestInit | undefined, ms: number): Promise<Response> {
  const timer = new AbortController();
  const handle = setTimeout(() => timer.abort(new AttemptTimeout(ms)), ms);
  // A body nobody reads to its end must not keep the process alive; a request still open does so itself.
  handle.unref();
  const stop = () => clearTimeout(handle);
  const signal = init?.signal ? AbortSignal.any([init.signal, timer.signal]) : timer.signal;
  let res: Response;
  try {
    res = await fetch(input, { ...init, signal });
  } catch (e) {
    stop();
    throw e;
  }
  if (!res.body) {
    stop();
    return res;
  }
  return new Response(watched(res.body, stop), { status: res.status, statusText: res.statusText, headers: res.headers });
}

/** `body` passed through, calling `done` once it ends, fails or its reader cancels it. */
function watched(body: ReadableStream<Uint8Array>, done: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(ctrl) {
      try {
        const r = await reader.read();
        if (r.done) {
          done();
          ctrl.close();
        } else ctrl.enqueue(r.value);
      } catch (e) {
        done();
        ctrl.error(e);
      }
    },
    cancel(reason) {
      done();
      return reader.cancel(reason);
    },
  });
}

const CODE_WORDS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection broken',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_SOCKET: 'connection closed by the server',
  CERT_HAS_EXPIRED: 'TLS certificate expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS certificate not trusted',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS certificate not trusted',
};

interface NetError extends Error {
  code?: string;
  address?: string;
  port?: number;
  errors?: unknown[];
  socket?: { remoteAddress?: string; remotePort?: number };
}

/**
 * A failed request in words, with the deepest cause's code and the host:port it was for:
 * "connection refused (ECONNREFUSED 127.0.0.1:1)", "timed out after 60 s". The SDK's message
 * ("Connection error.") and fetch's ("fetch failed") name neither, which is what one needs to fix it.
 */
export function connectionProblem(e: unknown, url: string): string {
  const timeout = attemptTimeoutOf(e);
  if (timeout) return timedOutAfter(timeout.ms);
  const deepest = deepestCause(e);
  const code = deepest?.code ?? codeOf(deepest?.message ?? '');
  const where = hostPort(deepest, url);
  // fetch refuses the ports of other protocols (1, 22, 25, …; the Fetch standard's "bad port") before connecting.
  if (deepest?.message === 'bad port') return `port blocked by fetch as unsafe (bad port ${where})`;
  if (code) return `${CODE_WORDS[code] ?? 'connection failed'} (${code} ${where})`;
  const said = deepest?.message ?? String(e);
  return `connection failed (${said.slice(0, 200)}, ${where})`;
}

/** "timed out after 60 s", "timed out after 0.15 s". */
export function timedOutAfter(ms: number): string {
  return `timed out after ${formatNumber(ms / 1000, ms < 1000 ? 2 : 1)} s`;
}

/** The innermost error of the cause chain (an AggregateError's first error counts as its cause). */
function deepestCause(e: unknown): NetError | undefined {
  let last: NetError | undefined;
  for (let c: unknown = e, depth = 0; c instanceof Error && depth < 8; depth++) {
    last = c as NetError;
    c = c.cause ?? (Array.isArray(last.errors) ? last.errors[0] : undefined);
  }
  return last;
}

function codeOf(message: string): string | undefined {
  return /\b(E[A-Z_]{3,}|UND_ERR_[A-Z_]+)\b/.exec(message)?.[1];
}

/** host:port of the failed connection: the error's own when it says, else the URL's (with its default port). */
function hostPort(e: NetError | undefined, url: string): string {
  if (e?.address && e.port !== undefined) return `${e.address}:${e.port}`;
  if (e?.socket?.remoteAddress && e.socket.remotePort !== undefined) return `${e.socket.remoteAddress}:${e.socket.remotePort}`;
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || (u.protocol === 'https:' ? '443' : '80')}`;
  } catch {
    return url;
  }
}
