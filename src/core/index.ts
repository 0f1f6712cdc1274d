// The symbolic core: pure, deterministic, no I/O. Import from here or from the files directly.
export * from './json.js';
export * from './hash.js';
export * from './rng.js';
export * from './world-index.js';
export * from './expr/index.js';
export * from './deltas/index.js';
export * from './invariants.js';
export * from './decay.js';
export * from './threads.js';
export * from './metrics.js';
export * from './projection.js';
