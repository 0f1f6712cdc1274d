import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { anthropicEnv, useFakeAnthropic } from '../support/use-fake-anthropic.js';
import { steps, type FakeRequest } from '../support/fake-anthropic-server.js';
import { faultyHandler } from '../reliability/fake-model.js';
import { cleanup, cli, copyRepo, git, makeWorld, tempDir } from './world.js';

/**
 * A recorded run (anthropic against a local Messages API, recording the cache) and its replay
 * (`--provider replay:<absolute dir>` on a copy of the same world) commit the same episode tree,
 * run_log.jsonl included, and no machine's absolute path reaches a commit.
 */
const KEY = 'sk-ant-test-record-replay';
const healthy = faultyHandler('record-replay', 0).handler;
const server = useFakeAnthropic({ handler: healthy });
afterAll(cleanup);

describe('record and replay', () => {
  it('commit the same tree and run_log.jsonl; the replay directory stays out of the commit', async () => {
    const pristine = await makeWorld('rr');
    const recorded = copyRepo(pristine, 'rr-rec');
    const rec = await cli(['episode', 'run', '--provider', 'anthropic', '--json'], recorded, anthropicEnv(server, KEY));
    expect(rec.code, rec.stderr.slice(-800)).toBe(0);
    expect(server.requests.length).toBeGreaterThan(20);

    // The cache moves to another place on this machine, named by its absolute path.
    const cacheDir = path.join(tempDir('rr-cache'), 'cache');
    fs.cpSync(path.join(recorded, '.aureus/cache'), cacheDir, { recursive: true });
    const replayed = copyRepo(pristine, 'rr-rep');
    const before = server.requests.length;
    const rep = await cli(['episode', 'run', '--provider', `replay:${cacheDir}`, '--json'], replayed);
    expect(rep.code, rep.stderr.slice(-800)).toBe(0);
    expect(server.requests.length).toBe(before); // zero HTTP

    const log = 'seasons/season_01/episode_01/run_log.jsonl';
    const recLog = git(recorded, 'show', `s01e01:${log}`);
    expect(recLog.length).toBeGreaterThan(0);
    expect(git(replayed, 'show', `s01e01:${log}`)).toBe(recLog);
    expect(recLog).toMatch(/"latency_ms":[1-9]/); // real latencies, recorded and replayed alike
    expect(git(replayed, 'rev-parse', 's01e01^{tree}')).toBe(git(recorded, 'rev-parse', 's01e01^{tree}'));

    // No absolute path in the replayed commit: not in a file, not in the message.
    const grep = spawnSync('git', ['grep', '-l', '--fixed-strings', cacheDir, 's01e01'], { cwd: replayed, encoding: 'utf8' });
    expect(grep.status, grep.stdout).toBe(1); // 1: no match
    const message = git(replayed, 'log', '-1', '--format=%B', 's01e01');
    expect(message).not.toContain(cacheDir);
    expect(message).toMatch(/^Aureus-Provider: replay:…\/cache$/m);
  }, 180_000);

  // A recording's answers are priced as they were billed: through the Message Batches API (half
  // price) or with the one-hour prompt cache (writes at twice the input price). A replay that priced
  // them at its own settings would commit another cost, so another run_log.jsonl and tree.
  for (const [label, flags] of [['batch', ['--batch']], ['ttl', ['--cache-ttl', '1h']]] as const) {
    it(`a recording made with ${flags.join(' ')} replays to the same tree and cost without it`, async () => {
      // A fresh server: its prompt cache has seen no prefix, so the recording pays cache writes.
      server.reset();
      server.handler = healthy;
      const pristine = await makeWorld(`rr-${label}`);
      const recorded = copyRepo(pristine, `rr-${label}-rec`);
      const rec = await cli(['season', 'run', '--count', '1', ...flags, '--provider', 'anthropic', '--json'], recorded, anthropicEnv(server, KEY));
      expect(rec.code, rec.stderr.slice(-800)).toBe(0);
      expect(rec.stdout).toMatch(/"cache_write": [1-9]/);
      const cacheDir = path.join(tempDir(`rr-${label}-cache`), 'cache');
      fs.cpSync(path.join(recorded, '.aureus/cache'), cacheDir, { recursive: true });
      const replayed = copyRepo(pristine, `rr-${label}-rep`);
      const rep = await cli(['season', 'run', '--count', '1', '--provider', `replay:${cacheDir}`, '--json'], replayed);
      expect(rep.code, rep.stderr.slice(-800)).toBe(0);
      const [recorded1, replayed1] = [JSON.parse(rec.stdout).episodes[0], JSON.parse(rep.stdout).episodes[0]];
      expect(replayed1.cost_usd).toBe(recorded1.cost_usd);
      expect(replayed1.cached.cost_usd).toBe(recorded1.cost_usd);
      const cost = (w: string) => git(w, 'log', '-1', '--format=%B', 's01e01').match(/^Aureus-Cost: .*$/m)?.[0];
      expect(cost(replayed)).toBe(cost(recorded));
      const log = 'seasons/season_01/episode_01/run_log.jsonl';
      expect(git(replayed, 'show', `s01e01:${log}`)).toBe(git(recorded, 'show', `s01e01:${log}`));
      expect(git(replayed, 'rev-parse', 's01e01^{tree}')).toBe(git(recorded, 'rev-parse', 's01e01^{tree}'));
    }, 180_000);
  }

  it('a corrupt cache entry: a replay names it (AUR4302, exit 7), not a miss; a read-write run warns AUR4302, asks that call again and records it', async () => {
    server.reset();
    server.handler = healthy;
    const pristine = await makeWorld('rr-corrupt');
    const recorded = copyRepo(pristine, 'rr-corrupt-rec');
    const rec = await cli(['episode', 'run', '--provider', 'anthropic', '--json'], recorded, anthropicEnv(server, KEY));
    expect(rec.code, rec.stderr.slice(-800)).toBe(0);
    // One entry cut short, as a disk or an interrupted copy leaves it.
    const cacheDir = path.join(recorded, '.aureus/cache');
    const shard = fs.readdirSync(cacheDir).sort()[0];
    const entry = `${shard}/${fs.readdirSync(path.join(cacheDir, shard)).sort()[0]}`;
    const text = fs.readFileSync(path.join(cacheDir, entry), 'utf8');
    fs.writeFileSync(path.join(cacheDir, entry), text.slice(0, Math.floor(text.length / 2)));

    const before = server.requests.length;
    const replayed = copyRepo(pristine, 'rr-corrupt-rep');
    const rep = await cli(['episode', 'run', '--provider', `replay:${cacheDir}`], replayed);
    expect(rep.code, rep.stderr.slice(-800)).toBe(7);
    expect(rep.stderr).toContain(`error AUR4302 corrupt cache entry ${path.join(cacheDir, entry)}: `);
    expect(rep.stderr).toContain('record the call again with a real provider');
    expect(rep.stderr).not.toContain('AUR4301');
    expect(rep.stderr).not.toMatch(/replay miss/);
    expect(git(replayed, 'tag', '--list')).toBe('');

    // Read-write: the damaged entry is a miss said as AUR4302 on stderr, asked again and recorded over.
    const rerun = copyRepo(pristine, 'rr-corrupt-rw');
    fs.cpSync(cacheDir, path.join(rerun, '.aureus/cache'), { recursive: true });
    const rw = await cli(['episode', 'run', '--provider', 'anthropic'], rerun, anthropicEnv(server, KEY));
    expect(rw.code, rw.stderr.slice(-800)).toBe(0);
    // The damaged call at least (a fresh answer may change what later calls ask, so not exactly one).
    expect(server.requests.length).toBeGreaterThan(before);
    // Said once, as it was found: the run's end does not say it again.
    // JSON.parse's own words after the colon depend on where the cut fell (inside a string or not), so only the rest is matched.
    expect(rw.stderr.split(`warning AUR4302 corrupt cache entry ${path.join('.aureus/cache', entry)}: `)).toHaveLength(2);
    expect(JSON.parse(fs.readFileSync(path.join(rerun, '.aureus/cache', entry), 'utf8')).key).toBe(path.basename(entry, '.json'));
  }, 240_000);

  it('a run failed on a cut answer resumes with fresh answers once the server is healthy, not from the cache', async () => {
    const root = await makeWorld('rr-cut');
    // The critic reads SCENE_TEXT first (f-verifier/critic.ts); its answers are cut at max_tokens.
    const isCritic = (r: FakeRequest) => JSON.stringify(r.body?.messages?.[0]?.content ?? '').startsWith('"SCENE_TEXT:');
    server.handler = (r) => (isCritic(r) ? steps.maxTokens('{"verdict": "PA') : healthy(r));
    try {
      const failed = await cli(['episode', 'run', '--provider', 'anthropic', '--json'], root, anthropicEnv(server, KEY));
      expect(failed.code, failed.stderr.slice(-800)).toBe(7);
      expect(failed.stderr).toContain('AUR4210');
    } finally {
      server.handler = healthy;
    }
    const before = server.requests.length;
    const rerun = await cli(['episode', 'run', '--provider', 'anthropic', '--json'], root, anthropicEnv(server, KEY));
    expect(rerun.code, rerun.stderr.slice(-800)).toBe(0);
    expect(server.requests.slice(before).filter(isCritic).length).toBeGreaterThan(0);
  }, 180_000);

  it('a recording with a refused writer asked again replays to the same run_log.jsonl and Aureus-Cost', async () => {
    server.reset();
    // The first two writer requests are refused once each; their second asks are answered.
    const isWriter = (r: FakeRequest) => JSON.stringify(r.body?.messages?.[0]?.content ?? '').includes('SCENE_PACKET:');
    let refusals = 0;
    server.handler = (r) => (isWriter(r) && refusals < 2 ? (refusals++, steps.ok("I can't help with that.", { stop_reason: 'refusal' })) : healthy(r));
    const pristine = await makeWorld('rr-refused');
    const recorded = copyRepo(pristine, 'rr-refused-rec');
    const rec = await cli(['episode', 'run', '--provider', 'anthropic', '--json'], recorded, anthropicEnv(server, KEY));
    server.handler = healthy;
    expect(rec.code, rec.stderr.slice(-800)).toBe(0);
    const log = 'seasons/season_01/episode_01/run_log.jsonl';
    const recLog = git(recorded, 'show', `s01e01:${log}`);
    expect(recLog.split('\n').filter((l) => l.includes('"stop_reason":"refusal"'))).toHaveLength(2);

    const replayed = copyRepo(pristine, 'rr-refused-rep');
    const rep = await cli(['episode', 'run', '--provider', `replay:${path.join(recorded, '.aureus/cache')}`, '--json'], replayed);
    expect(rep.code, rep.stderr.slice(-800)).toBe(0);
    // Was the log without its two refusal lines and a lower cost: each answer was recorded over its refusal.
    expect(git(replayed, 'show', `s01e01:${log}`)).toBe(recLog);
    const cost = (w: string) => git(w, 'log', '-1', '--format=%B', 's01e01').match(/^Aureus-Cost: .*$/m)?.[0];
    expect(cost(replayed)).toBe(cost(recorded));
    expect(git(replayed, 'rev-parse', 's01e01^{tree}')).toBe(git(recorded, 'rev-parse', 's01e01^{tree}'));
  }, 180_000);
});
