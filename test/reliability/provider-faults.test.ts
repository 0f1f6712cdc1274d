import { loadConfigOrThrow } from '../../src/config/load.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, cli, copyRepo, git, makeWorld } from '../pipeline/world.js';
import { steps } from '../support/fake-anthropic-server.js';
import { anthropicEnv, useFakeAnthropic } from '../support/use-fake-anthropic.js';
import { faultyHandler } from './fake-model.js';

/**
 * Whole episodes through the real Anthropic SDK against the local fake Messages API, with rate
 * limits, overloads, server errors, connection resets, truncated streams, mid-stream errors,
 * max_tokens cut-offs and malformed answers at seeded random. Each episode either commits within
 * the provider-call budget, or fails cleanly: a documented exit code, no stack trace, and world/
 * and git exactly as they were.
 */
const server = useFakeAnthropic();
let pristine = '';
const outcomes: string[] = [];
beforeAll(async () => {
  pristine = await makeWorld('rel-faults');
}, 120_000);
afterAll(() => {
  if (process.env.AUREUS_TEST_VERBOSE) console.log(outcomes.join('\n'));
  cleanup();
});

const env = () => anthropicEnv(server, 'sk-ant-test-faults');

describe('provider faults over a whole episode', () => {
  it('a fault-free model behind the fake API compiles and commits an episode', async () => {
    server.reset();
    server.handler = faultyHandler('clean', 0).handler;
    const w = copyRepo(pristine, 'rel-faults-clean');
    const r = await cli(['episode', 'run', '--provider', 'anthropic', '--json'], w, env());
    expect(r.code, r.stderr.slice(-1500)).toBe(0);
    expect(JSON.parse(r.stdout).tag).toBe('s01e01');
    expect(server.requests.length).toBeGreaterThan(40);
    // Not one request a 5.x model would refuse (the fake answers those with HTTP 400).
    expect(server.rejected).toEqual([]);
    expect(server.requests.every((q) => !('temperature' in (q.body ?? {})) && !('thinking' in (q.body ?? {})))).toBe(true);
  }, 180_000);

  it('season run --batch compiles and commits through the Message Batches API, one batch per layer', async () => {
    server.reset();
    server.handler = faultyHandler('batched', 0).handler;
    const w = copyRepo(pristine, 'rel-batch');
    const r = await cli(['season', 'run', '--count', '1', '--batch', '--provider', 'anthropic', '--json'], w, env());
    expect(r.code, r.stderr.slice(-1500)).toBe(0);
    expect(server.requests.filter((q) => q.path === '/v1/messages')).toEqual([]);
    expect(server.rejected).toEqual([]);
    const created = server.batches.created;
    // Layers: proposals, director, first drafts, critics, repairs…, recap: far fewer batches than calls.
    expect(created.length).toBeGreaterThanOrEqual(4);
    expect(created.reduce((n, b) => n + b.requests.length, 0)).toBeGreaterThan(created.length * 4);
    expect(created.some((b) => b.requests.length >= 18)).toBe(true); // every first draft in one batch
  }, 180_000);

  it('season run --batch under --max-cost sends the same batches: worst cases are reserved at the batch price', async () => {
    const batchSizes = async (label: string, extra: string[]) => {
      server.reset();
      server.handler = faultyHandler('batched', 0).handler;
      const w = copyRepo(pristine, label);
      const r = await cli(['season', 'run', '--count', '1', '--batch', '--provider', 'anthropic', '--json', ...extra], w, env());
      expect(r.code, r.stderr.slice(-1500)).toBe(0);
      return server.batches.created.map((b) => b.requests.length);
    };
    const free = await batchSizes('rel-batch-free', []);
    // A first draft's worst case here is about $0.10 at full price, $0.05 at the batch price: the
    // 24 scenes' drafts fit $1.60 together only at the price they pay (at full price: 16, then 8).
    const capped = await batchSizes('rel-batch-capped', ['--max-cost', '1.6']);
    expect(free.some((n) => n >= 18)).toBe(true);
    expect(capped).toEqual(free);
  }, 240_000);

  it('--max-cost stops the episode before a call that could pass it: exit 5, nothing committed, resumable', async () => {
    server.reset();
    server.handler = faultyHandler('capped', 0).handler;
    const w = copyRepo(pristine, 'rel-capped');
    const head = git(w, 'rev-parse', 'HEAD');
    const r = await cli(['episode', 'run', '--provider', 'anthropic', '--max-cost', '0.08'], w, env());
    expect(r.code, r.stderr.slice(-800)).toBe(5);
    expect(r.stderr).toMatch(/AUR4209/);
    expect(r.stderr).toMatch(/nothing was committed/);
    expect(git(w, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(w, 'status', '--porcelain', '--', 'world', 'operators', 'seasons')).toBe('');
    // A higher cap resumes the same run to a commit.
    const again = await cli(['episode', 'run', '--provider', 'anthropic', '--max-cost', '5', '--json'], w, env());
    expect(again.code, again.stderr.slice(-800)).toBe(0);
  }, 180_000);

  it('a key revoked mid-episode (401 from request 25 on) fails cleanly: exit 7, world/ and git untouched', async () => {
    server.reset();
    const good = faultyHandler('revoked', 0).handler;
    server.handler = (req) => (req.index >= 24 ? steps.unauthorized() : good(req));
    const w = copyRepo(pristine, 'rel-revoked');
    const head = git(w, 'rev-parse', 'HEAD');
    const r = await cli(['episode', 'run', '--provider', 'anthropic'], w, env());
    expect(r.code, r.stderr.slice(-800)).toBe(7);
    expect(r.stderr).toMatch(/AUR4\d{3}/);
    expect(r.stderr).not.toMatch(/\n\s+at .*:\d+:\d+/);
    expect(git(w, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(w, 'status', '--porcelain', '--', 'world', 'operators', 'seasons')).toBe('');
    expect(git(w, 'tag', '--list')).toBe('');
  }, 180_000);

  it('a writer that never follows the format exhausts the repair budget: exit 5, world/ and git untouched', async () => {
    server.reset();
    const good = faultyHandler('broken-writer', 0).handler;
    server.handler = (req) => (JSON.stringify(req.body?.messages ?? '').includes('SCENE_PACKET:') && !JSON.stringify(req.body?.messages ?? '').includes('SCENE_TEXT:\\n') ? steps.missingSection() : good(req));
    const w = copyRepo(pristine, 'rel-broken-writer');
    const head = git(w, 'rev-parse', 'HEAD');
    const r = await cli(['episode', 'run', '--provider', 'anthropic'], w, env());
    expect(r.code, r.stderr.slice(-800)).toBe(5);
    expect(r.stderr).not.toMatch(/\n\s+at .*:\d+:\d+/);
    expect(git(w, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(w, 'status', '--porcelain', '--', 'world', 'operators', 'seasons')).toBe('');
    expect(server.requests.length).toBeLessThanOrEqual(loadConfigOrThrow(w).config.budgets.provider_calls_per_episode);
  }, 180_000);

  for (const [seed, rate] of [['faults-a', 0.15], ['faults-b', 0.3], ['faults-c', 0.6]] as const) {
    it(`fault rate ${rate} (${seed}): commits within budget or fails cleanly with world/ and git untouched`, async () => {
      server.reset();
      const f = faultyHandler(seed, rate);
      server.handler = f.handler;
      const w = copyRepo(pristine, `rel-${seed}`);
      const head = git(w, 'rev-parse', 'HEAD');
      const worldBefore = git(w, 'ls-files', '-s', '--', 'world', 'operators', 'seasons');
      const r = await cli(['episode', 'run', '--provider', 'anthropic', '--json'], w, env());
      const out = r.stdout + r.stderr;
      expect(Object.values(f.faults).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
      expect(out).not.toMatch(/\n\s+at .*:\d+:\d+/);
      expect(out).not.toMatch(/internal error/);
      // Within budget: every HTTP request (SDK retries included) counts against the per-episode cap.
      expect(server.requests.length).toBeLessThanOrEqual(loadConfigOrThrow(w).config.budgets.provider_calls_per_episode);
      outcomes.push(`${seed}: exit ${r.code}, ${server.requests.length} requests, faults ${JSON.stringify(f.faults)}`);
      if (r.code === 0) {
        expect(JSON.parse(r.stdout).tag).toBe('s01e01');
        expect((await cli(['validate'], w)).code).toBe(0);
      } else {
        expect([5, 7]).toContain(r.code);
        expect(git(w, 'rev-parse', 'HEAD')).toBe(head);
        expect(git(w, 'status', '--porcelain', '--', 'world', 'operators', 'seasons')).toBe('');
        expect(git(w, 'ls-files', '-s', '--', 'world', 'operators', 'seasons')).toBe(worldBefore);
        expect(git(w, 'tag', '--list')).toBe('');
      }
      git(w, 'fsck', '--strict', '--no-progress');
    }, 300_000);
  }
});
