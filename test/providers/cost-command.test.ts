import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { Io } from '../../src/cli/io.js';
import { canonicalCompact } from '../../src/core/json.js';
import type { RunLogEntry } from '../../src/providers/run-log.js';
import { tempRoot } from './helpers.js';

function io(cwd: string) {
  const out: string[] = [];
  const err: string[] = [];
  const value: Io = { stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), env: { NO_COLOR: '1' }, cwd, isTTY: false };
  return { io: value, out: () => out.join(''), err: () => err.join('') };
}

/** A world repository's folder for the logs (cost reads them only in one: AUR1000 otherwise). */
async function worldRoot(): Promise<string> {
  const root = await tempRoot();
  fs.mkdirSync(path.join(root, 'world'));
  return root;
}

function entry(p: Partial<RunLogEntry>): RunLogEntry {
  return {
    role: 'writer',
    model: 'claude-sonnet-4-5',
    provider: 'anthropic',
    episode: 's01e01',
    attempt: 0,
    reask: 0,
    escalated: false,
    latency_ms: 1200,
    input_tokens: 1000,
    output_tokens: 500,
    cache_read_tokens: 0,
    cache_write_tokens: 0,
    cost_usd: 0.0105,
    cached: false,
    stop_reason: 'end_turn',
    ...p,
  };
}

function writeLog(file: string, entries: RunLogEntry[], extra = '') {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, entries.map((e) => canonicalCompact(e) + '\n').join('') + extra);
}

describe('aureus cost', () => {
  it('prints tokens and cost per role for an episode, and --json', async () => {
    const root = await worldRoot();
    writeLog(path.join(root, 'seasons', 'season_01', 'episode_01', 'run_log.jsonl'), [
      entry({ scene: 'SC01' }),
      entry({ scene: 'SC02', cache_read_tokens: 2000, cost_usd: 0.0111 }),
      entry({ role: 'critic', model: 'claude-haiku-4-5', scene: 'SC01', input_tokens: 800, output_tokens: 100, cost_usd: 0.0013 }),
      entry({ role: 'critic', model: 'claude-haiku-4-5', scene: 'SC02', cached: true, cost_usd: 0, latency_ms: 0 }),
    ]);
    const t = io(root);
    expect(await main(['cost', 's01e01'], t.io)).toBe(0);
    const text = t.out();
    expect(text).toContain('seasons/season_01/episode_01/run_log.jsonl');
    expect(text).toMatch(/writer\s+2\s+0\s+2000\s+1000\s+0\s+2000\s+0\.0216/);
    expect(text).toMatch(/critic\s+2\s+1\s+1800\s+600\s+0\s+0\s+0\.0013/);
    expect(text).toMatch(/total\s+4\s+1\s+3800\s+1600\s+0\s+2000\s+0\.0229/);
    expect(text).toMatch(/claude-haiku-4-5 2 calls, claude-sonnet-4-5 2 calls/);

    const j = io(root);
    expect(await main(['cost', '--json'], j.io)).toBe(0); // default: the latest episode
    const data = JSON.parse(j.out());
    expect(data.file).toBe('seasons/season_01/episode_01/run_log.jsonl');
    expect(data.per_role.writer).toMatchObject({ calls: 2, input_tokens: 2000, cache_read_tokens: 2000, cost_usd: 0.0216 });
    expect(data.total).toMatchObject({ calls: 4, cached: 1, cost_usd: 0.0229 });
  });

  it('reads a run folder, errors on a malformed line (exit 3, line named, no total), and refuses paths outside the world', async () => {
    const root = await worldRoot();
    const run = path.join(root, '.aureus', 'runs', 's01e02-7');
    writeLog(path.join(run, 'run_log.jsonl'), [entry({ episode: 's01e02' })], 'not json\n');
    const t = io(root);
    expect(await main(['cost', 's01e02', '--json'], t.io)).toBe(3);
    // No total: stdout holds only the --json failure document (main.ts's error boundary).
    expect(JSON.parse(t.out())).toEqual({ error: { message: expect.any(String), exit_code: 3, codes: ['AUR4402'] } });
    expect(t.err()).toContain('AUR4402');
    expect(t.err()).toMatch(/run_log\.jsonl\n  2:1: error AUR4402/);
    writeLog(path.join(run, 'run_log.jsonl'), [entry({ episode: 's01e02' })]);
    const ok = io(root);
    expect(await main(['cost', 's01e02', '--json'], ok.io)).toBe(0);
    expect(JSON.parse(ok.out()).file).toBe('.aureus/runs/s01e02-7/run_log.jsonl');

    const byDir = io(root);
    expect(await main(['cost', '.aureus/runs/s01e02-7', '--json'], byDir.io)).toBe(0);
    expect(JSON.parse(byDir.out()).total.calls).toBe(1);

    const out = io(root);
    expect(await main(['cost', '../../etc/passwd'], out.io)).toBe(2);
    expect(out.err()).toMatch(/outside the world repository/);
    expect(out.err()).not.toMatch(/\n\s+at /); // no stack trace

    const missing = io(root);
    expect(await main(['cost', 's09e09'], missing.io)).toBe(2);
    expect(missing.err()).toContain('AUR4401');
  });

  it('refuses a line whose counts are not numbers (exit 3, at the key line:col and pointer), never a garbled total', async () => {
    const root = await worldRoot();
    const file = path.join(root, 'seasons', 'season_01', 'episode_01', 'run_log.jsonl');
    // A hand edit: a count as a string, another left out. Summed as they were, "abc" concatenated
    // the totals into a string of digits and the missing one made them NaN, and the exit was 0.
    writeLog(file, [entry({ scene: 'SC01' })], '{"attempt":0,"input_tokens":"abc","model":"m","role":"writer"}\n');
    const t = io(root);
    expect(await main(['cost', 's01e01'], t.io)).toBe(3);
    expect(t.out()).toBe('');
    expect(t.err()).toMatch(/run_log\.jsonl\n  2:14 \/input_tokens: error AUR4402 invalid run log line: input_tokens must be a number >= 0, not "abc"/);
    expect(t.err()).toMatch(/  2:1 \/output_tokens: error AUR4402 invalid run log line: output_tokens must be a number >= 0, not missing/);
    const j = io(root);
    expect(await main(['cost', 's01e01', '--json'], j.io)).toBe(3);
    // One line, six problems: the input_tokens string and the five counts it lacks.
    expect(JSON.parse(j.out())).toEqual({ error: { message: 'seasons/season_01/episode_01/run_log.jsonl has 1 invalid line', exit_code: 3, codes: Array(6).fill('AUR4402') } });
  });

  it('outside a world repository says that (AUR1000, exit 3), not that no run log was found', async () => {
    const root = await tempRoot();
    const t = io(root);
    expect(await main(['cost'], t.io)).toBe(3);
    expect(t.err()).toContain(`AUR1000 not a world repository: ${root} has no world/ folder`);
    expect(t.err()).not.toMatch(/AUR4401/);
  });

  it('says so when there is no run log at all', async () => {
    const root = await worldRoot();
    const t = io(root);
    expect(await main(['cost'], t.io)).toBe(2);
    expect(t.err()).toMatch(/AUR4401 no run log at/);
  });

  it('has help with an example', async () => {
    const root = await tempRoot();
    const t = io(root);
    expect(await main(['cost', '--help'], t.io)).toBe(0);
    expect(t.out()).toMatch(/\$ aureus cost s01e03 --json/);
  });
});
