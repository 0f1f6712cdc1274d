import fs from 'node:fs';
import path from 'node:path';
import type { AureusConfig } from '../config/types.js';
import { parseProviderId, resolveProviderSpec } from '../config/provider-id.js';
import type { LlmProvider, LlmRole } from '../ports/llm.js';
import { effortFor } from './anthropic-wire.js';
import { AnthropicProvider } from './anthropic.js';
import { BatchProvider, type BatchOptions } from './batch.js';
import { CallBudget } from './budget.js';
import { CachingProvider, ResponseCache } from './cache.js';
import { OfflineProvider } from './offline/index.js';
import { AureusError, ExitCode } from '../errors.js';
import { diag, type Diagnostic } from '../diagnostics/index.js';
import '../diagnostics/codes/llm.js';

/**
 * The provider registry, keyed by id string (see config/provider-id.ts for the forms):
 *   offline            OfflineProvider (deterministic; never cached: it is its own replay)
 *   anthropic          AnthropicProvider with the per-role models, behind the record/replay cache
 *   anthropic:<model>  the same, one model pinned for every role (escalation included)
 *   replay:<dir>       answers only from the cache dir <dir> (relative to the world root);
 *                      deterministic, no key, zero HTTP
 *   auto               anthropic when ANTHROPIC_API_KEY is set, else offline
 * An unknown id throws a usage error (exit 2, AUR4001) that lists the valid forms.
 * With cache.mode `replay` the anthropic provider behaves like replay:<cache.dir>.
 */
export interface CreateProviderOptions {
  /** World repository root: cache and replay dirs are resolved against it. */
  root: string;
  config: AureusConfig;
  env?: NodeJS.ProcessEnv;
  /** Offline provider seed. */
  seed?: string;
  /** Offline writer defect rate; defaults to config.chaos. */
  chaos?: number;
  /** Shared per-episode request budget; a fresh one from config when absent. */
  budget?: CallBudget;
  /** Warnings for the run's progress: a corrupt cache entry read as a miss (AUR4302, read-write mode). */
  onWarning?: (warning: Diagnostic) => void;
  /** Waits the user should see (retries), for progress. */
  onNotice?: (text: string) => void;
  /** Send the anthropic provider's calls through the Message Batches API (batch.ts). */
  batch?: BatchOptions;
}

export interface CreatedProvider {
  provider: LlmProvider;
  /** The id as resolved (`auto` → offline/anthropic), for the run log and commit trailers. */
  providerId: string;
  deterministic: boolean;
  pinnedModel?: string;
  budget: CallBudget;
}

export function createProvider(id: string, opts: CreateProviderOptions): CreatedProvider {
  const env = opts.env ?? process.env;
  parseProviderId(id);
  const spec = resolveProviderSpec(id, env);
  const budget = opts.budget ?? new CallBudget(opts.config.budgets.provider_calls_per_episode);
  // The effort a call sends is part of what it asks: a recording made at another depth is a miss.
  const effort = (role: LlmRole, model: string) => effortFor(opts.config, role, model);
  // Entries are named under the folder as configured (relative to the world root, as diagnostics are).
  // Only read-write mode warns: a replay refuses a corrupt entry with AUR4302 as its error instead.
  const cacheFor = (dir: string, mode: 'read-write' | 'replay') => {
    const cache = new ResponseCache(path.resolve(opts.root, dir), dir);
    const warn = opts.onWarning;
    if (warn && mode === 'read-write') cache.onCorrupt = (file, detail) => warn(diag('AUR4302', { file, detail }, { file }));
    return cache;
  };

  if (spec.kind === 'offline') {
    return { provider: new OfflineProvider({ seed: opts.seed ?? 'aureus', chaos: opts.chaos ?? opts.config.chaos }), providerId: 'offline', deterministic: true, budget };
  }
  if (spec.kind === 'replay') {
    requireReplayDir(opts.root, spec.dir);
    const provider = new CachingProvider({
      id: 'replay',
      family: 'anthropic',
      cache: cacheFor(spec.dir, 'replay'),
      mode: 'replay',
      inner: () => {
        throw new Error('replay never calls a provider');
      },
      effort,
    });
    return { provider, providerId: `replay:${spec.dir}`, deterministic: true, budget };
  }
  // anthropic
  const pinned = spec.model;
  const providerId = pinned ? `anthropic:${pinned}` : 'anthropic';
  const mode = opts.config.cache.mode;
  const makeInner = () => {
    const direct = new AnthropicProvider({ config: opts.config, env, budget, onNotice: opts.onNotice });
    return opts.batch ? new BatchProvider(direct, opts.batch) : direct;
  };
  if (mode === 'off') return { provider: makeInner(), providerId, deterministic: false, pinnedModel: pinned, budget };
  if (mode === 'read-write') {
    // Build it now: a missing key should fail before the run starts, not at the first miss.
    const inner = makeInner();
    const provider = new CachingProvider({ id: 'anthropic', family: 'anthropic', cache: cacheFor(opts.config.cache.dir, mode), mode, inner: () => inner, effort, ttl: opts.config.cache.ttl });
    return { provider, providerId, deterministic: false, pinnedModel: pinned, budget };
  }
  const provider = new CachingProvider({ id: 'anthropic', family: 'anthropic', cache: cacheFor(opts.config.cache.dir, 'replay'), mode: 'replay', inner: makeInner, effort, ttl: opts.config.cache.ttl });
  return { provider, providerId, deterministic: true, pinnedModel: pinned, budget };
}

/** A replay folder that is missing or not a folder answers nothing: say so before the first call misses. */
function requireReplayDir(root: string, dir: string): void {
  const abs = path.resolve(root, dir);
  let st: fs.Stats | undefined;
  try {
    st = fs.statSync(abs);
  } catch {
    st = undefined;
  }
  if (st?.isDirectory()) return;
  const reason = st ? 'is not a folder' : 'does not exist';
  throw new AureusError(`replay folder ${abs} ${reason}`, { exitCode: ExitCode.PROVIDER, diagnostics: [diag('AUR4303', { dir, abs, reason })] });
}
