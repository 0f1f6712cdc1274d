import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, cli, makeWorld } from '../pipeline/world.js';
import { apiKeyOf } from '../support/fake-anthropic-server.js';
import { anthropicEnv, useFakeAnthropic } from '../support/use-fake-anthropic.js';
import { faultyHandler } from './fake-model.js';

/**
 * Secrets: with a fake API key set, a full episode against the fake Messages API (the key does
 * reach the wire: it is checked there) leaves the key string nowhere in the repository's files,
 * in .aureus/ (run log, call journal, replay cache, checkpoints), in any git object, ref or log,
 * or in the command's own output.
 */
const server = useFakeAnthropic();
let w = '';
const KEY = 'sk-ant-api03-RELIABILITY-' + 'Zq9'.repeat(12) + '-canary';

beforeAll(async () => {
  w = await makeWorld('rel-secrets');
}, 120_000);
afterAll(cleanup);

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p));
    else out.push(p);
  }
  return out;
}

describe('API key hygiene', () => {
  it('a full run with a key set leaves the key in no file, no git object and no output', async () => {
    server.handler = faultyHandler('secrets', 0.1).handler;
    const r = await cli(['episode', 'run', '--provider', 'anthropic', '--json'], w, anthropicEnv(server, KEY));
    expect(r.code, r.stderr.slice(-800)).toBe(0);
    // The key was really used: every request carried it.
    expect(server.requests.length).toBeGreaterThan(40);
    expect(server.requests.every((q) => apiKeyOf(q) === KEY)).toBe(true);
    expect(fs.existsSync(path.join(w, '.aureus'))).toBe(true);

    const needles = [KEY, KEY.slice(0, 24), KEY.slice(-24)];
    const leaks: string[] = [];
    // Every file: the working tree, .aureus/ and the raw .git directory (loose objects are
    // compressed, so the objects are also read decompressed below).
    for (const f of filesUnder(w)) {
      const bytes = fs.readFileSync(f).toString('latin1');
      for (const n of needles) if (bytes.includes(n)) leaks.push(path.relative(w, f));
    }
    const git = (...args: string[]) => execFileSync('git', args, { cwd: w, encoding: 'latin1', maxBuffer: 512 * 1024 * 1024 });
    const objects = git('cat-file', '--batch-all-objects', '--batch');
    const history = git('log', '--all', '-p', '--format=%H%n%B');
    const refs = git('for-each-ref', '--format=%(refname) %(contents)');
    for (const [name, text] of [['git objects', objects], ['git log -p --all', history], ['refs and tag messages', refs], ['stdout', r.stdout], ['stderr', r.stderr]] as const) {
      for (const n of needles) if (text.includes(n)) leaks.push(name);
    }
    expect(leaks).toEqual([]);
    // Sanity: the search would find the key if it were there.
    fs.writeFileSync(path.join(w, '.aureus', 'control.txt'), `x${KEY}x`);
    expect(filesUnder(w).filter((f) => fs.readFileSync(f).toString('latin1').includes(KEY)).map((f) => path.relative(w, f))).toEqual([path.join('.aureus', 'control.txt')]);
    fs.rmSync(path.join(w, '.aureus', 'control.txt'));
    expect(objects.length).toBeGreaterThan(10_000);
    expect(history).toContain('S01E01');
  }, 180_000);
});
