import { AureusError, ExitCode } from '../errors.js';
import { diag } from '../diagnostics/index.js';
import { knownModels, modelInfo } from '../providers/models.js';
import { MODEL_ID_RE, parseProviderId } from './provider-id.js';
import { MODEL_SLOTS, CACHE_MODES, CACHE_TTLS, type CacheTtl, type AureusConfig, type CacheMode, type ConfigOverrides, type ModelSlot } from './types.js';

/**
 * Parsing of the CLI flags that override aureus.config.yaml. Each parser throws a usage error
 * (exit 2) whose diagnostic lists the valid forms, so commands can call them straight from
 * their option handlers.
 */

function usage(flag: string, value: string, reason: string, expected: string): AureusError {
  return new AureusError(`bad ${flag} value "${value}": ${reason}`, {
    exitCode: ExitCode.USAGE,
    diagnostics: [diag('AUR4003', { flag, value, reason, expected })],
  });
}

/**
 * `--seed <s>` of `episode run`, `season run`, `episode plan` and `play`: any text but an empty or blank one,
 * which would name the run folder `<sNNeNN>-` and commit `Aureus-Seed: ` with no seed to reproduce it
 * by (a play session recorded with "seed":""). Not a config override, but parsed with them so the commands share one rule.
 */
export function parseSeedFlag(value: string | undefined, defaultSeed = 'from the previous cliffhanger'): string | undefined {
  if (value !== undefined && value.trim() === '') {
    throw usage('--seed', value, 'the seed is empty', `valid form: --seed <text>, e.g. --seed alt; leave --seed out for the default seed (${defaultSeed})`);
  }
  return value;
}

/** `--provider <id>`: validated, returned as written. */
export function parseProviderFlag(value: string): string {
  parseProviderId(value);
  return value.trim();
}

/** Repeated `--model <role>=<id>` into a role → model map. */
export function parseModelFlags(values: readonly string[]): Partial<Record<ModelSlot, string>> {
  const out: Partial<Record<ModelSlot, string>> = {};
  for (const v of values) {
    const m = /^([a-z]+)=(.+)$/.exec(v.trim());
    const role = m?.[1] as ModelSlot | undefined;
    const id = m?.[2];
    if (!role || !id || !MODEL_SLOTS.includes(role) || !MODEL_ID_RE.test(id)) {
      const roles = MODEL_SLOTS.join(', ');
      throw new AureusError(`bad --model value "${v}" (valid form: <role>=<model-id>, role one of ${roles})`, {
        exitCode: ExitCode.USAGE,
        diagnostics: [diag('AUR4002', { value: v, roles })],
      });
    }
    out[role] = id;
  }
  return out;
}

export function parseConcurrency(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isInteger(n) || n < 1 || n > 64) {
    throw usage('--concurrency', value, 'not an integer from 1 to 64', 'valid form: --concurrency <n> with 1 <= n <= 64, e.g. --concurrency 8');
  }
  return n;
}

export function parseChaos(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) {
    throw usage('--chaos', value, 'not a number from 0 to 1', 'valid form: --chaos <rate> with 0 <= rate <= 1, e.g. --chaos 0.3');
  }
  return n;
}

export function parseCacheMode(value: string): CacheMode {
  if (!(CACHE_MODES as readonly string[]).includes(value)) {
    throw usage('--cache', value, 'not a cache mode', `valid forms: ${CACHE_MODES.join(' | ')}`);
  }
  return value as CacheMode;
}

/** `--max-cost <usd>`: a positive number of US dollars. */
export function parseMaxCost(value: string): number {
  const n = Number(value.trim().replace(/^\$/, ''));
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0 || n > 100_000) {
    throw usage('--max-cost', value, 'not a positive amount of US dollars', 'valid form: --max-cost <usd>, e.g. --max-cost 0.50');
  }
  return n;
}

/** `--cache-ttl 5m|1h`. */
export function parseCacheTtl(value: string): CacheTtl {
  if (!(CACHE_TTLS as readonly string[]).includes(value)) throw usage('--cache-ttl', value, 'not a cache TTL', `valid forms: ${CACHE_TTLS.join(' | ')}`);
  return value as CacheTtl;
}

/** A new config with the overrides applied (the input is not modified). */
export function applyOverrides(config: AureusConfig, o: ConfigOverrides | undefined): AureusConfig {
  if (!o) return config;
  const out: AureusConfig = structuredClone(config);
  if (o.provider !== undefined) out.provider = parseProviderFlag(o.provider);
  if (o.models)
    for (const [slot, id] of Object.entries(o.models)) {
      if (!id) continue;
      out.models[slot as ModelSlot] = id;
      // `--model escalation=<id>` means every escalation, including the per-role ones.
      if (slot === 'escalation') out.escalations = {};
    }
  if (o.concurrency !== undefined) out.concurrency = o.concurrency;
  if (o.chaos !== undefined) out.chaos = o.chaos;
  if (o.cacheMode !== undefined) out.cache.mode = o.cacheMode;
  if (o.maxCostUsd !== undefined) out.budgets.max_cost_usd = o.maxCostUsd;
  if (o.cacheTtl !== undefined) out.cache.ttl = o.cacheTtl;
  return out;
}

/**
 * Usage error (exit 2) for a model id a flag names that no model has: `--model director=gpt-9`,
 * `--provider anthropic:gpt-9`. Checked on the config the flags produced, where the model checks
 * would otherwise blame aureus.config.yaml (exit 3) for a value the file does not hold. Offline
 * and replay runs call no model, so, like the model checks, this skips them.
 */
export function checkOverrideModels(config: AureusConfig, o: ConfigOverrides | undefined): void {
  if (!o || config.provider === 'offline' || config.provider.startsWith('replay:')) return;
  const unknown = (flag: string, value: string, model: string) =>
    usage(flag, value, `unknown model id "${model}"`, `known models: ${knownModels().join(', ')}`);
  // A pinned provider (`anthropic:<model>`) routes every role to its model: the --model flags are unused then.
  if (config.provider.startsWith('anthropic:')) {
    const pinned = config.provider.slice('anthropic:'.length);
    if (o.provider !== undefined && !modelInfo(pinned)) throw unknown('--provider', config.provider, pinned);
    return;
  }
  for (const [slot, id] of Object.entries(o.models ?? {})) if (id && !modelInfo(id)) throw unknown('--model', `${slot}=${id}`, id);
}
