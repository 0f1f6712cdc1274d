/**
 * The offline provider: the embedded, deterministic default (no key, no network).
 *
 * It is only a dispatcher. Each role's answer comes from an OfflineRealizer:
 *   (request, { rng, chaos, seed }) => { text, json? }   (sync or async)
 * The realizer works from `request.payload` (the structured task), not from the prompt text.
 *
 * How a realizer is found for a role (first match wins):
 *   1. one registered with `registerOfflineRealizer(role, fn)` (tests, benchmarks, overrides);
 *   2. by convention, the module `./<role>.js` next to this file (src/providers/offline/writer.ts,
 *      critic.ts, proposals.ts, director.ts, recap.ts, format_fix.ts), loaded lazily on first use. It must export
 *      `realize: OfflineRealizer` (or a default export), or call registerOfflineRealizer itself.
 * A role with neither is a typed error (AUR4006, exit 7), never a silent empty answer.
 *
 * Determinism: the Rng is `new Rng(seed)` forked by role, episode, scene, label, attempt,
 * escalation and message count (a re-ask draws a fresh stream), so a call's answer never
 * depends on which calls ran before it or how many ran at once. Usage is estimated as
 * ceil(chars / 4); cost and latency are 0; the model id is `offline`.
 */
import { Rng } from '../../core/rng.js';
import { stableStringify } from '../../core/json.js';
import { AureusError, ExitCode } from '../../errors.js';
import { diag } from '../../diagnostics/index.js';
import { LLM_ROLES, type LlmProvider, type LlmRequest, type LlmResponse, type LlmRole } from '../../ports/llm.js';
import { LlmAbortedError } from '../errors.js';
import { estimateTokens } from '../cost.js';

export interface OfflineContext {
  /** Forked for this call; draw every random choice from it. */
  rng: Rng;
  /** Defect injection rate 0..1 (`--chaos`); only the writer uses it. */
  chaos: number;
  /** The run seed the rng was derived from. */
  seed: string;
}

export interface OfflineAnswer {
  text: string;
  json?: unknown;
}

export type OfflineRealizer = (req: LlmRequest, ctx: OfflineContext) => OfflineAnswer | Promise<OfflineAnswer>;

const registered = new Map<LlmRole, OfflineRealizer>();
const loaded = new Map<LlmRole, OfflineRealizer | null>();

/** Register (or replace) the realizer for a role. Returns a function that removes it again. */
export function registerOfflineRealizer(role: LlmRole, fn: OfflineRealizer): () => void {
  if (!LLM_ROLES.includes(role)) throw new Error(`registerOfflineRealizer: unknown role ${role}`);
  registered.set(role, fn);
  return () => {
    if (registered.get(role) === fn) registered.delete(role);
  };
}

export class MissingRealizerError extends AureusError {
  readonly role: LlmRole;
  constructor(role: LlmRole, cause?: unknown) {
    super(`no offline realizer for role "${role}"`, { exitCode: ExitCode.PROVIDER, diagnostics: [diag('AUR4006', { role })], cause });
    this.name = 'MissingRealizerError';
    this.role = role;
  }
}

/** The realizer for a role, loading the conventional module on first use. */
export async function offlineRealizerFor(role: LlmRole): Promise<OfflineRealizer> {
  const direct = registered.get(role);
  if (direct) return direct;
  if (!LLM_ROLES.includes(role)) throw new MissingRealizerError(role);
  if (!loaded.has(role)) {
    let fn: OfflineRealizer | null = null;
    try {
      // The role is one of LLM_ROLES, so this can only name a sibling module.
      const mod = (await import(`./${role}.js`)) as { realize?: unknown; default?: unknown };
      const cand = mod.realize ?? mod.default;
      if (typeof cand === 'function') fn = cand as OfflineRealizer;
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code !== 'ERR_MODULE_NOT_FOUND' && !/Cannot find module|Failed to load url|Failed to resolve/i.test(String((e as Error).message))) throw e;
    }
    loaded.set(role, fn);
  }
  const after = registered.get(role) ?? loaded.get(role);
  if (!after) throw new MissingRealizerError(role);
  return after;
}

export interface OfflineProviderOptions {
  seed: string;
  chaos?: number;
  /**
   * Simulated latency per call in ms (benchmarks: the critical-path measurement). The recorded
   * latency stays 0, so artifacts do not change; only wall time does.
   */
  simulatedLatencyMs?: number;
}

export class OfflineProvider implements LlmProvider {
  readonly id = 'offline';
  private readonly seed: string;
  private readonly chaos: number;
  private readonly simulatedLatencyMs: number;

  constructor(opts: OfflineProviderOptions) {
    this.seed = opts.seed;
    this.chaos = opts.chaos ?? 0;
    this.simulatedLatencyMs = opts.simulatedLatencyMs ?? 0;
  }

  /** The fork label of a call: everything that identifies it, nothing that depends on timing. */
  static forkLabel(req: LlmRequest): string {
    const m = req.meta ?? {};
    return ['offline', req.role, m.episode ?? '-', m.scene ?? '-', m.label ?? '-', `a${m.attempt ?? 0}`, req.escalate ? 'esc' : 'std', `m${req.messages.length}`].join('/');
  }

  async complete(req: LlmRequest, _model: string): Promise<LlmResponse> {
    if (req.signal?.aborted) throw new LlmAbortedError(req.role, req.signal.reason);
    if (this.simulatedLatencyMs > 0) await sleep(this.simulatedLatencyMs, req);
    const realize = await offlineRealizerFor(req.role);
    const rng = new Rng(this.seed).fork(OfflineProvider.forkLabel(req));
    const out = await realize(req, { rng, chaos: this.chaos, seed: this.seed });
    const text = out.text !== '' || out.json === undefined ? out.text : stableStringify(out.json);
    const prompt = [req.system, req.static_context ?? '', ...req.messages.map((x) => x.content)].join('\n');
    const res: LlmResponse = {
      text,
      usage: { input_tokens: estimateTokens(prompt), output_tokens: estimateTokens(text), cache_read_tokens: 0, cache_write_tokens: 0 },
      cost_usd: 0,
      model: 'offline',
      provider: 'offline',
      stop_reason: 'end_turn',
      latency_ms: 0,
      cached: false,
    };
    if (out.json !== undefined) res.json = out.json;
    return res;
  }
}

function sleep(ms: number, req: LlmRequest): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(t);
      reject(new LlmAbortedError(req.role, req.signal?.reason));
    };
    const t = setTimeout(() => {
      req.signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    req.signal?.addEventListener('abort', onAbort, { once: true });
  });
}
