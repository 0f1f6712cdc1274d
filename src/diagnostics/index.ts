// Importing this module registers every catalog range.
import './codes/world.js';
import './codes/core.js';
import './codes/planning.js';
import './codes/llm.js';
import './codes/verify.js';
import './codes/commit.js';
import './codes/cli.js';
import './codes/import.js';
import './codes/review.js';
import './codes/safety.js';
import './codes/play.js';

export * from './catalog.js';
export * from './diagnostic.js';
export * from './cap.js';
