/** aureus.config.yaml: loading, defaults, CLI overrides, provider ids. */
export { loadConfig, loadConfigOrThrow, readConfigFile, resolveConfig, configOrThrow, configWarnings, configSchema, type ConfigFile, type LoadedConfig } from './load.js';
export { defaultConfig } from './defaults.js';
export { applyOverrides, parseCacheMode, parseChaos, parseConcurrency, parseModelFlags, parseProviderFlag, parseMaxCost, parseCacheTtl } from './overrides.js';
export { parseProviderId, resolveProviderSpec, PROVIDER_FORMS, type ProviderSpec } from './provider-id.js';
export { MODEL_SLOTS, CACHE_MODES, type AureusConfig, type ConfigOverrides, type ModelPrice, type ModelSlot, type CacheMode, type CacheTtl, type TokenPrices } from './types.js';
