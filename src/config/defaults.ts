import type { AureusConfig } from './types.js';

/**
 * The defaults, identical to the aureus.config.yaml shipped at the package root (a test keeps the
 * two in step). Used when a world has no config file, and to fill keys a config file leaves out.
 * Model ids and prices: Sonnet-class for director/writer, Haiku-class for proposals/critic/recap,
 * Opus-class for escalation (spec §7.1). Prices are USD per million tokens.
 */
export function defaultConfig(): AureusConfig {
  return {
    provider: 'auto',
    models: {
      director: 'claude-sonnet-4-5',
      writer: 'claude-sonnet-4-5',
      proposals: 'claude-haiku-4-5',
      critic: 'claude-haiku-4-5',
      recap: 'claude-haiku-4-5',
      escalation: 'claude-opus-4-5',
    },
    escalations: { critic: 'claude-sonnet-4-5' },
    prices: {
      'claude-sonnet-4-5': { input: 3, output: 15, cache_write: 3.75, cache_read: 0.3 },
      'claude-haiku-4-5': { input: 1, output: 5, cache_write: 1.25, cache_read: 0.1 },
      'claude-opus-4-5': { input: 5, output: 25, cache_write: 6.25, cache_read: 0.5 },
    },
    budgets: {
      per_scene: 2,
      per_episode: 12,
      json_reasks: 2,
      provider_calls_per_episode: 400,
      retries: 4,
    },
    concurrency: 4,
    timeouts_ms: {
      director: 180_000,
      proposals: 60_000,
      writer: 300_000,
      critic: 60_000,
      recap: 60_000,
    },
    max_tokens: {
      director: 8000,
      proposals: 2000,
      writer: 6000,
      critic: 1500,
      recap: 1500,
    },
    stream_roles: ['writer'],
    cache: { mode: 'read-write', dir: '.aureus/cache' },
    packets: { token_budget: 6000 },
    chaos: 0,
  };
}
