import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores: keep the pool small so git- and process-heavy tests do not starve each other.
    maxWorkers: 2,
    // One temp folder per test run, removed at the end (test/support/global-tmp.ts).
    globalSetup: ['test/support/global-tmp.ts'],
  },
});
