export * from './world.js';
export * from './delta.js';
export * from './plan.js';
export * from './packet.js';
export * from './scene.js';
export * from './context.js';
export * from './episode-context.js';
export * from './proposals.js';
