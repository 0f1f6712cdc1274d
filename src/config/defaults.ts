import type { AureusConfig } from './types.js';

/**
 * verifier.min_scene_words: a model's scene runs to several hundred words, the offline writer's
 * terse drafts to sixty and more; forty is below both and far above a heading and a cast line
 * (which count nothing), so only an empty or stub scene trips it.
 */
export const DEFAULT_MIN_SCENE_WORDS = 40;

/**
 * The defaults, identical to the aureus.config.yaml shipped at the package root (a test keeps the
 * two in step). Used when a world has no config file, and to fill keys a config file leaves out.
 * Models (2026-11 lineup): Sonnet 5.5 for director and writer, Haiku 5.5 for proposals, critic and
 * recap and format fixes, Opus 5.5 for escalation and marquee scenes; the critic escalates to Sonnet (spec §6.4).
 * Prices are USD per million tokens; Haiku has a second tier for prompts above 100k tokens.
 */
export function defaultConfig(): AureusConfig {
  return {
    provider: 'auto',
    models: {
      director: 'claude-sonnet-5-5',
      writer: 'claude-sonnet-5-5',
      proposals: 'claude-haiku-5-5',
      critic: 'claude-haiku-5-5',
      recap: 'claude-haiku-5-5',
      format_fix: 'claude-haiku-5-5',
      escalation: 'claude-opus-5-5',
    },
    escalations: { critic: 'claude-sonnet-5-5' },
    prices: {
      'claude-sonnet-5-5': { input: 2, output: 10, cache_write: 2.5, cache_read: 0.1 },
      'claude-opus-5-5': { input: 4, output: 20, cache_write: 5, cache_read: 0.4 },
      'claude-haiku-5-5': {
        input: 0.1,
        output: 0.5,
        cache_write: 0.125,
        cache_read: 0.01,
        long_context: { above_tokens: 100_000, input: 0.5, output: 2.5, cache_write: 0.625, cache_read: 0.05 },
      },
      'claude-fable-5-1': { input: 10, output: 50, cache_write: 12.5, cache_read: 1 },
    },
    effort: {
      director: 'medium',
      proposals: 'low',
      writer: 'medium',
      critic: 'low',
      recap: 'low',
      format_fix: 'low',
    },
    budgets: {
      per_scene: 2,
      per_episode: 12,
      format_fixes: 12,
      json_reasks: 2,
      provider_calls_per_episode: 400,
      retries: 4,
      retry_after_max_s: 60,
      max_cost_usd: null,
    },
    concurrency: 4,
    timeouts_ms: {
      director: 120_000,
      proposals: 60_000,
      writer: 180_000,
      critic: 60_000,
      recap: 60_000,
      format_fix: 60_000,
    },
    max_tokens: {
      director: 6000,
      proposals: 2000,
      writer: 6000,
      critic: 1500,
      recap: 1500,
      format_fix: 8000,
    },
    stream_roles: ['writer'],
    cache: { mode: 'read-write', dir: '.aureus/cache', ttl: '5m' },
    packets: { token_budget: 6000 },
    play: { brief_budget: 500, max_input: 2000 },
    chaos: 0,
    verifier: { min_scene_words: DEFAULT_MIN_SCENE_WORDS },
  };
}
