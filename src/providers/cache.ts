import fs from 'node:fs';
import path from 'node:path';
import { hashValue } from '../core/hash.js';
import { stableStringify } from '../core/json.js';
import type { CacheTtl } from '../config/types.js';
import type { CompleteOptions, LlmProvider, LlmRequest, LlmResponse, LlmRole, LlmUsage } from '../ports/llm.js';
import { ReplayCorruptError, ReplayMissError } from './errors.js';
import { writeAtomic } from '../store/atomic-write.js';

/**
 * Record/replay: a content-addressed cache of provider answers under `.aureus/cache/`.
 *
 * The key is the sha256 of the canonical JSON of what determines an answer:
 *   { provider, model, system, static_context, messages, json_schema, max_tokens[, effort][, repeat] }
 * (effort only when the call sends one, so entries recorded before it was keyed still match calls
 * that send none; repeat only on a refusal's second ask, see below) and nothing else: not the payload (the offline provider's input, invisible to a real model),
 * not the meta labels, never the API key or any header. An entry holds the answer text, usage,
 * stop reason and model, plus the role and labels for people reading the cache, and (format 2)
 * what priced it: whether it went through the Message Batches API and the prompt-cache TTL, so a
 * hit is priced as the recorded call was billed and a replay commits the recording's run_log.jsonl
 * whatever its own flags. A format 1 entry (without it) is still read, priced at the reading run's
 * settings as before. Files are written atomically at `<dir>/<key[0..2]>/<key>.json`.
 *
 * Modes: read-write (hit → cached answer, miss → ask the provider and record), replay (hit →
 * cached answer, miss → ReplayMissError naming the call, a corrupt entry → ReplayCorruptError naming
 * its file; the inner provider is never built, so no key and zero HTTP), off (no decorator at all).
 * Read-write mode treats a corrupt entry as a miss (asked again, recorded over it) and warns (AUR4302).
 *
 * Unusable answers: every answer is recorded when it arrives, but only its caller knows whether it
 * could use it (the router: cut at max_tokens, refused, empty, JSON still invalid). The router calls
 * `reject` for each answer it does not accept, which marks the entry `rejected`. Read-write mode
 * treats a rejected entry as a miss and asks again, so a run that failed on a bad answer resumes
 * with a fresh one instead of replaying the failure. Replay mode still serves it: a replay
 * reproduces the recorded run, its cut and re-asked calls included, and never writes the recording.
 *
 * A refusal is asked again as it was: the same request, which under one key would record its answer
 * over the refusal, and the replay of a run refused then answered would miss the refusal (a shorter
 * run_log.jsonl, a lower Aureus-Cost). The router marks that second ask (`LlmRequest.repeat`) and
 * it is keyed apart. A recording made before that kept only the last answer under the first ask's
 * key: replay mode falls back to it when the second ask's key has none, so it replays as it did.
 */

export interface CacheKeyMaterial {
  provider: string;
  model: string;
  system: string;
  static_context: string | null;
  messages: LlmRequest['messages'];
  json_schema: object | null;
  max_tokens: number;
  /** `output_config.effort`: a different depth is a different answer. */
  effort?: string;
  /** The same request asked again within its call (a refusal's second ask): another answer. */
  repeat?: number;
}

export function cacheKeyMaterial(family: string, model: string, req: LlmRequest, effort?: string): CacheKeyMaterial {
  return {
    ...(effort ? { effort } : {}),
    ...(req.repeat ? { repeat: req.repeat } : {}),
    provider: family,
    model,
    system: req.system,
    static_context: req.static_context ?? null,
    messages: req.messages.map((m) => ({ role: m.role, content: m.content })),
    json_schema: req.json_schema ?? null,
    max_tokens: req.max_tokens ?? 0,
  };
}

export function cacheKey(family: string, model: string, req: LlmRequest, effort?: string): string {
  return hashValue(cacheKeyMaterial(family, model, req, effort));
}

/** What a recorded call was billed by (format 2 entries). */
export interface CachePricing {
  /** Through the Message Batches API: half price. */
  batch: boolean;
  /** The TTL of its prompt-cache writes. */
  cache_ttl: CacheTtl;
}

export interface CacheEntry {
  /** 1: no `priced`; 2: with it. */
  format: 1 | 2;
  key: string;
  role: LlmRole;
  provider: string;
  model: string;
  meta?: LlmRequest['meta'];
  /** Its caller could not use the answer (see `CachingProvider.reject`): never served in read-write mode. */
  rejected?: true;
  /** `latency_ms`: how long the recorded call took, so a replay logs the same run_log.jsonl line. */
  response: { text: string; usage: LlmUsage; stop_reason: string; model: string; latency_ms?: number };
  /** Format 2: what priced the recorded call. */
  priced?: CachePricing;
}

export class ResponseCache {
  readonly dir: string;
  /** The folder as the user named it (`.aureus/cache`, `replay:<dir>`'s dir): entries are shown under it. */
  private readonly shownDir: string;
  /** Called with the shown file and why when an entry is unreadable (read-write mode: treated as a miss). */
  onCorrupt?: (file: string, detail: string) => void;
  /**
   * Entries found corrupt, with why, each warned about once (every call of the same request reads
   * the same entry). A replay names the damage instead of calling the call a miss.
   */
  private readonly warned = new Map<string, string>();

  constructor(dir: string, shownDir = dir) {
    this.dir = dir;
    this.shownDir = shownDir;
  }

  /** Why the entry of `key` could not be read at its last read (file as shown), if it was corrupt. */
  corruption(key: string): { file: string; detail: string } | undefined {
    const file = this.fileFor(key);
    const detail = this.warned.get(file);
    return detail === undefined ? undefined : { file: this.shown(file), detail };
  }

  private shown(file: string): string {
    return path.join(this.shownDir, path.relative(this.dir, file));
  }

  fileFor(key: string): string {
    if (!/^[0-9a-f]{64}$/.test(key)) throw new Error(`bad cache key ${key}`);
    return path.join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    const file = this.fileFor(key);
    let text: string;
    try {
      text = await fs.promises.readFile(file, 'utf8');
    } catch (err) {
      // No file is a miss; one that is there and cannot be read (a folder, no permission) is damage.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      return this.corrupt(file, `cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
    try {
      const e = JSON.parse(text) as CacheEntry;
      if ((e.format !== 1 && e.format !== 2) || e.key !== key || typeof e.response?.text !== 'string' || typeof e.response.usage !== 'object') throw new Error('not a cache entry');
      this.warned.delete(file);
      return e;
    } catch (err) {
      return this.corrupt(file, (err as Error).message);
    }
  }

  private corrupt(file: string, detail: string): undefined {
    if (!this.warned.has(file)) this.onCorrupt?.(this.shown(file), detail);
    this.warned.set(file, detail);
    return undefined;
  }

  async put(entry: CacheEntry): Promise<void> {
    const file = this.fileFor(entry.key);
    // Whole or not at all, the old entry kept; a refused write (full disk, too many open files) names this file, not its temp.
    await writeAtomic(file, stableStringify(entry));
    this.warned.delete(file);
  }
}

/** Wraps a provider with the cache. `inner` is built lazily (never, in replay mode). */
export class CachingProvider implements LlmProvider {
  readonly id: string;
  private readonly family: string;
  private readonly cache: ResponseCache;
  private readonly mode: 'read-write' | 'replay';
  private readonly makeInner: () => LlmProvider;
  private inner?: LlmProvider;
  private readonly effort: (role: LlmRole, model: string) => string | undefined;
  private readonly ttl: CacheTtl;

  constructor(opts: {
    id: string; family: string; cache: ResponseCache; mode: 'read-write' | 'replay'; inner: () => LlmProvider;
    effort?: (role: LlmRole, model: string) => string | undefined;
    /** The prompt-cache TTL the calls it records are billed at (config `cache.ttl`). */
    ttl?: CacheTtl;
  }) {
    this.effort = opts.effort ?? (() => undefined);
    this.ttl = opts.ttl ?? '5m';
    this.id = opts.id;
    this.family = opts.family;
    this.cache = opts.cache;
    this.mode = opts.mode;
    this.makeInner = opts.inner;
  }

  async complete(req: LlmRequest, model: string, opts?: CompleteOptions): Promise<LlmResponse> {
    const key = this.keyOf(req, model);
    const served = opts?.notRecorded ? undefined : await this.servedFor(req, model);
    if (served) return served;
    if (this.mode === 'replay') {
      // A damaged recording is not a call never recorded: say which file, so it is restored or re-recorded.
      const bad = this.cache.corruption(key);
      throw bad ? new ReplayCorruptError(req.role, req.meta, bad.file, bad.detail) : new ReplayMissError(req.role, key, req.meta);
    }
    this.inner ??= this.makeInner();
    const res = await this.inner.complete(req, model);
    const entry: CacheEntry = {
      format: 2,
      key,
      role: req.role,
      provider: this.family,
      model,
      response: { text: res.text, usage: res.usage, stop_reason: res.stop_reason, model: res.model, latency_ms: res.latency_ms },
      priced: { batch: res.batch === true, cache_ttl: this.ttl },
    };
    if (req.meta) entry.meta = req.meta;
    await this.cache.put(entry);
    return res;
  }

  /** The recorded answer this call would be served (a hit this mode serves), else undefined: nothing is asked. */
  async recorded(req: LlmRequest, model: string): Promise<LlmResponse | undefined> {
    return this.servedFor(req, model);
  }

  private keyOf(req: LlmRequest, model: string): string {
    return cacheKey(this.family, model, req, this.effort(req.role, model));
  }

  /**
   * The answer served for this ask. A replay serves the entry of this very ask (the refusal, then
   * the answer after it); a refusal's second ask recorded before it had a key of its own (see above)
   * is under the first ask's key, which a replay then serves, as it did. Read-write mode serves no
   * rejected entry, but the same request's next ask may hold an answer it could use (refused, then
   * answered): a later run is served that, as when it was recorded over the refusal, and pays nothing.
   */
  private async servedFor(req: LlmRequest, model: string): Promise<LlmResponse | undefined> {
    if (this.mode === 'replay') {
      const served = await this.servedFrom(this.keyOf(req, model));
      if (served || !req.repeat) return served;
      return this.servedFrom(this.keyOf({ ...req, repeat: 0 }, model));
    }
    // Each entry of the chain is the same request's next ask after a rejected one: it ends at a
    // missing entry or one served (an entry is only recorded when the ask before it was refused).
    for (let repeat = req.repeat ?? 0; ; repeat++) {
      const hit = await this.cache.get(this.keyOf({ ...req, repeat }, model));
      if (!hit) return undefined;
      if (!hit.rejected) return this.served(hit);
    }
  }

  private async servedFrom(key: string): Promise<LlmResponse | undefined> {
    const hit = await this.cache.get(key);
    if (!hit || (hit.rejected && this.mode === 'read-write')) return undefined;
    return this.served(hit);
  }

  private served(hit: CacheEntry): LlmResponse {
    return {
      text: hit.response.text,
      usage: { ...hit.response.usage },
      cost_usd: 0,
      model: hit.response.model,
      provider: this.id,
      stop_reason: hit.response.stop_reason,
      // The recorded call's latency: the run log describes the call, not this run's cache read.
      latency_ms: hit.response.latency_ms ?? 0,
      cached: true,
      // Priced as recorded (format 2); a format 1 entry as the reading run would price it.
      ...(hit.priced ? { batch: hit.priced.batch, cache_ttl: hit.priced.cache_ttl } : {}),
    };
  }

  /** The caller could not use the answer to this call: a later run must ask again (read-write only). */
  async reject(req: LlmRequest, model: string): Promise<void> {
    if (this.mode !== 'read-write') return;
    const entry = await this.cache.get(this.keyOf(req, model));
    if (!entry || entry.rejected) return;
    await this.cache.put({ ...entry, rejected: true });
  }
}
