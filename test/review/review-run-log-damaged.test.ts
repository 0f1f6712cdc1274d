import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, cli, copyRepo, git } from '../pipeline/world.js';
import { STACK_TRACE } from '../cli/helpers.js';
import { stagedEpisode, type Staged } from './staged-episode.js';

/**
 * `episode review`'s "cost so far" with a staged run's run_log.jsonl damaged: a line cut short, a line
 * of another shape, a line with a byte that is not UTF-8. Each was dropped without a word, so the cost
 * printed was less than was spent, and less than the commit then said ("a lower bound", AUR4499). Now
 * the review names each line as the commit does (file:line:column) and says its figures are a lower
 * bound, in text and in --json; and its figures are the commit's.
 */
let staged: Staged;
beforeAll(async () => {
  staged = await stagedEpisode('review-log-damaged');
}, 240_000);
afterAll(cleanup);

/** The staged episode copied, its run log damaged on lines 2 (cut), 4 (another shape) and 6 (a byte 0xFF where a number starts). */
function damaged(label: string): { w: string; rel: string } {
  const w = copyRepo(staged.root, label);
  const run = path.join(w, path.relative(staged.root, staged.run));
  const file = path.join(run, 'run_log.jsonl');
  const lines = fs.readFileSync(file).toString('latin1').split('\n');
  lines[1] = lines[1]!.slice(0, 60);
  lines[3] = '{"role":"nobody","model":"x"}';
  lines[5] = lines[5]!.replace('"input_tokens":', '"input_tokens":\xff');
  fs.writeFileSync(file, Buffer.from(lines.join('\n'), 'latin1'));
  return { w, rel: path.relative(w, file).split(path.sep).join('/') };
}

const trailer = (w: string, name: string) => new RegExp(`^${name}: (.*)$`, 'm').exec(git(w, 'log', '-1', '--format=%B'))?.[1];

describe('episode review with a damaged run log', () => {
  it('names each damaged line at file:line:column and says the cost so far is a lower bound', async () => {
    const { w, rel } = damaged('review-log-text');
    const r = await cli(['episode', 'review'], w);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`2:\\d+: warning AUR4499 line 2 of ${rel.replace(/[.]/g, '\\.')} is not a run log entry \\(invalid JSON: [^)]+\\): the call it records is not counted, so the tokens and cost committed for s01e01 are a lower bound`));
    expect(r.stderr).toMatch(/4:1: warning AUR4499 line 4 of .* \(not a run log entry\)/);
    expect(r.stderr).toMatch(/6:\d+: warning AUR4499 line 6 of .* \(invalid JSON: /);
    expect(r.stderr).toContain('hint: the commit keeps the line as it was');
    expect(r.stderr).not.toMatch(STACK_TRACE);
    expect(r.stdout).toMatch(/^cost so far: \d+ calls, \d+ tokens, \$\d+\.\d{4} \(a lower bound: 3 run log lines could not be read\)$/m);
  }, 120_000);

  it('--json: the lower bound and each line in the view; its figures are what the commit records', async () => {
    const { w, rel } = damaged('review-log-json');
    const r = await cli(['episode', 'review', '--json'], w);
    expect(r.code, r.stderr).toBe(0);
    const v = JSON.parse(r.stdout) as { cost: { calls: number; input_tokens: number; output_tokens: number; lower_bound: string | null }; warnings: { code: string; file: string; line: number; column: number }[] };
    expect(v.cost.lower_bound).toBe('a lower bound: 3 run log lines could not be read');
    expect(v.warnings.map((d) => [d.code, d.file, d.line])).toEqual([['AUR4499', rel, 2], ['AUR4499', rel, 4], ['AUR4499', rel, 6]]);
    expect(v.warnings.every((d) => d.column >= 1)).toBe(true);
    expect(r.stderr).toContain('warning AUR4499 line 2 of');
    const done = await cli(['episode', 'commit'], w);
    expect(done.code, done.stderr).toBe(0);
    expect(trailer(w, 'Aureus-Tokens')).toBe(`${v.cost.input_tokens + v.cost.output_tokens} (input ${v.cost.input_tokens}, output ${v.cost.output_tokens}, cache read 0, cache write 0; ${v.cost.lower_bound})`);
    const committed = fs.readFileSync(path.join(w, 'seasons/season_01/episode_01/run_log.jsonl'), 'utf8').trim().split('\n');
    expect(committed).toHaveLength(v.cost.calls + 3);
  }, 120_000);

  it('a whole run log: no warning, no lower bound', async () => {
    const w = copyRepo(staged.root, 'review-log-whole');
    const r = await cli(['episode', 'review', '--json'], w);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('AUR4499');
    expect(JSON.parse(r.stdout)).toMatchObject({ cost: { lower_bound: null }, warnings: [] });
  }, 120_000);
});
