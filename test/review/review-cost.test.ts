import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, cli, makeWorld } from '../pipeline/world.js';

afterAll(cleanup);

/**
 * `episode review`'s "cost so far" is what the commit will record. An audit planned the episode
 * twice before `episode run --review`: each `episode plan` journals its planning calls in the same
 * run folder, and review counted 82 calls where the committed run_log.jsonl (and `aureus cost`) had 60.
 */
describe('episode review: cost so far', () => {
  it('after two `episode plan`s, counts the calls the commit records, once each', async () => {
    const w = await makeWorld('review-cost');
    for (let i = 0; i < 2; i++) expect((await cli(['episode', 'plan'], w)).code).toBe(0);
    const staged = await cli(['episode', 'run', '--review', '--json'], w);
    expect(staged.code, staged.stderr).toBe(0);
    const review = JSON.parse((await cli(['episode', 'review', '--json'], w)).stdout) as { cost: { calls: number; input_tokens: number; output_tokens: number } };
    const done = await cli(['episode', 'commit'], w);
    expect(done.code, done.stderr).toBe(0);
    const committed = fs.readFileSync(path.join(w, 'seasons/season_01/episode_01/run_log.jsonl'), 'utf8').trim().split('\n');
    expect(review.cost.calls).toBe(committed.length);
    const cost = JSON.parse((await cli(['cost', '--json'], w)).stdout) as { total: { calls: number; input_tokens: number; output_tokens: number } };
    expect(review.cost).toMatchObject({ calls: cost.total.calls, input_tokens: cost.total.input_tokens, output_tokens: cost.total.output_tokens });
  }, 240_000);
});
