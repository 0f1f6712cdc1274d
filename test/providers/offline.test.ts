import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openLlm } from '../../src/providers/index.js';
import { MissingRealizerError, OfflineProvider, offlineRealizerFor, registerOfflineRealizer, type OfflineRealizer } from '../../src/providers/offline/index.js';
import { JsonlRunLog, MemoryRunLog, readRunLog, summarizeRunLog } from '../../src/providers/run-log.js';
import { LlmAbortedError, LlmOutputError } from '../../src/providers/errors.js';
import { LLM_ROLES, type LlmRequest, type LlmRole } from '../../src/ports/llm.js';
import { packageRoot } from '../../src/paths.js';
import { criticRequest, criticSchema, tempRoot, testConfig, writerRequest } from './helpers.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

/** A test realizer: prose drawn from the rng, so determinism and forking are observable. */
const WORDS = ['senate', 'grain', 'dagger', 'forum', 'debt', 'vote', 'ship', 'rumour', 'oath', 'villa'];
const proseRealizer: OfflineRealizer = (req, { rng, chaos }) => ({
  text: `${req.meta?.scene ?? '-'} ${Array.from({ length: 8 }, () => rng.pick(WORDS)).join(' ')}${chaos > 0.5 ? ' [chaos]' : ''}`,
});
const verdictRealizer: OfflineRealizer = (_req, { rng }) => ({ text: '', json: { verdict: rng.next() < 2 ? 'PASS' : 'FAIL', violations: [] } });

function register(role: LlmRole, fn: OfflineRealizer) {
  cleanups.push(registerOfflineRealizer(role, fn));
}

async function offline(seed = 'seed-1', concurrency = 4, chaos?: number) {
  const root = await tempRoot();
  const runLog = new MemoryRunLog();
  const llm = openLlm({ root, config: testConfig((c) => ((c.provider = 'offline'), (c.concurrency = concurrency))), seed, chaos, runLog });
  return { llm, runLog, root };
}

describe('offline provider dispatcher', () => {
  it('is deterministic per seed and forks by scene, attempt and label', async () => {
    register('writer', proseRealizer);
    const { llm } = await offline('seed-1');
    const a = await llm.complete(writerRequest({ meta: { episode: 's01e01', scene: 'SC01', attempt: 0 } }));
    const b = await llm.complete(writerRequest({ meta: { episode: 's01e01', scene: 'SC01', attempt: 0 } }));
    const c = await llm.complete(writerRequest({ meta: { episode: 's01e01', scene: 'SC01', attempt: 1 } }));
    const d = await llm.complete(writerRequest({ meta: { episode: 's01e01', scene: 'SC01', attempt: 0, label: 'crassus' } }));
    const { llm: other } = await offline('seed-2');
    const e = await other.complete(writerRequest({ meta: { episode: 's01e01', scene: 'SC01', attempt: 0 } }));
    expect(a.text).toBe(b.text);
    expect(new Set([a.text, c.text, d.text, e.text]).size).toBe(4);
  });

  it('reports model offline, estimated usage, zero cost and latency, deterministic', async () => {
    register('writer', proseRealizer);
    const { llm, runLog } = await offline();
    expect(llm.deterministic).toBe(true);
    expect(llm.providerId).toBe('offline');
    const req = writerRequest();
    const res = await llm.complete(req);
    const promptChars = [req.system, req.static_context, req.messages[0].content].join('\n').length;
    expect(res).toMatchObject({ model: 'offline', provider: 'offline', cost_usd: 0, latency_ms: 0, cached: false, stop_reason: 'end_turn' });
    expect(res.usage).toEqual({ input_tokens: Math.ceil(promptChars / 4), output_tokens: Math.ceil(res.text.length / 4), cache_read_tokens: 0, cache_write_tokens: 0 });
    expect(runLog.entries).toEqual([
      expect.objectContaining({ role: 'writer', model: 'offline', provider: 'offline', latency_ms: 0, cost_usd: 0, scene: 'SC04', episode: 's01e01', attempt: 0, reask: 0 }),
    ]);
  });

  it('passes chaos and the payload to the realizer', async () => {
    let seen: unknown;
    register('writer', (req, ctx) => ((seen = { payload: req.payload, chaos: ctx.chaos, seed: ctx.seed }), { text: 'x' }));
    const { llm } = await offline('s', 4, 0.3);
    await llm.complete(writerRequest({ payload: { scene_id: 'SC04' } }));
    expect(seen).toEqual({ payload: { scene_id: 'SC04' }, chaos: 0.3, seed: 's' });
  });

  it('validates a realizer JSON answer against the request schema', async () => {
    register('critic', verdictRealizer);
    const { llm } = await offline();
    const ok = await llm.complete(criticRequest());
    expect(ok.json).toEqual({ verdict: 'PASS', violations: [] });
    expect(JSON.parse(ok.text)).toEqual(ok.json);

    register('critic', () => ({ text: '', json: { verdict: 'PASS' } }));
    const err = (await llm.complete(criticRequest()).catch((e: unknown) => e)) as LlmOutputError;
    expect(err).toBeInstanceOf(LlmOutputError);
    expect(err.schemaName).toBe('critic_verdict');
    expect(err.exitCode).toBe(7);
  });

  it('re-asks an offline realizer too (a fresh rng stream per re-ask)', async () => {
    const seenMessages: number[] = [];
    register('critic', (req) => {
      seenMessages.push(req.messages.length);
      return req.messages.length === 1 ? { text: '{"verdict": "PASS",' } : { text: '{"verdict":"PASS","violations":[]}' };
    });
    const { llm } = await offline();
    // '{"verdict": "PASS",' is repaired to {"verdict":"PASS"}: still missing violations → re-ask
    const res = await llm.complete(criticRequest({ json_schema: criticSchema }));
    expect(res.json).toEqual({ verdict: 'PASS', violations: [] });
    expect(seenMessages).toEqual([1, 3]);
  });

  it('loads each conventional src/providers/offline/<role>.ts module that exists', async () => {
    const dir = path.join(packageRoot(), 'src', 'providers', 'offline');
    const present = LLM_ROLES.filter((r) => fs.existsSync(path.join(dir, `${r}.ts`)));
    for (const role of present) expect(typeof (await offlineRealizerFor(role)), role).toBe('function');
    for (const role of LLM_ROLES.filter((r) => !present.includes(r))) await expect(offlineRealizerFor(role)).rejects.toBeInstanceOf(MissingRealizerError);
  });

  it('a role without a realizer is a typed error naming it', async () => {
    await expect(offlineRealizerFor('narrator' as LlmRole)).rejects.toBeInstanceOf(MissingRealizerError);
    const err = (await offlineRealizerFor('narrator' as LlmRole).catch((e: unknown) => e)) as MissingRealizerError;
    expect(err.diagnostics[0]).toMatchObject({ code: 'AUR4006', message: 'no offline realizer for role "narrator"' });
    expect(() => registerOfflineRealizer('narrator' as LlmRole, proseRealizer)).toThrow(/unknown role/);
  });

  it('honours an aborted signal', async () => {
    register('writer', proseRealizer);
    const ac = new AbortController();
    ac.abort();
    const p = new OfflineProvider({ seed: 'x' }).complete(writerRequest({ signal: ac.signal }), 'offline');
    await expect(p).rejects.toBeInstanceOf(LlmAbortedError);
  });

  it('simulates latency for benchmarks without changing what is recorded, and aborts during it', async () => {
    register('writer', proseRealizer);
    const root = await tempRoot();
    const runLog = new MemoryRunLog();
    const provider = new OfflineProvider({ seed: 'lat', simulatedLatencyMs: 40 });
    const llm = openLlm({ root, config: testConfig((c) => (c.concurrency = 4)), runLog, provider: { provider, providerId: 'offline', deterministic: true } });
    const t0 = performance.now();
    await Promise.all([1, 2, 3, 4].map((i) => llm.complete(writerRequest({ meta: { scene: `SC0${i}` } }))));
    const wall = performance.now() - t0;
    expect(wall).toBeGreaterThanOrEqual(38); // the calls really waited
    expect(runLog.entries.every((e) => e.latency_ms === 0)).toBe(true);
    const ac = new AbortController();
    const p = llm.complete(writerRequest({ signal: ac.signal }));
    setTimeout(() => ac.abort(), 5);
    await expect(p).rejects.toBeInstanceOf(LlmAbortedError);
  });

  it('gives a byte-identical finalized run log at concurrency 1 and 8', async () => {
    register('writer', proseRealizer);
    register('critic', verdictRealizer);
    const run = async (concurrency: number) => {
      const root = await tempRoot();
      const file = path.join(root, 'run_log.jsonl');
      const runLog = new JsonlRunLog(file);
      const llm = openLlm({ root, config: testConfig((c) => ((c.provider = 'offline'), (c.concurrency = concurrency))), seed: 'det', runLog });
      const reqs: LlmRequest[] = [];
      for (let i = 1; i <= 12; i++) {
        const scene = `SC${String(i).padStart(2, '0')}`;
        reqs.push(writerRequest({ meta: { episode: 's01e01', scene, attempt: 0 } }));
        reqs.push(criticRequest({ meta: { episode: 's01e01', scene, attempt: 0 } }));
      }
      // Different completion order each time: some calls yield longer than others.
      const texts = await Promise.all(reqs.map((r) => llm.complete(r).then((x) => x.text)));
      await runLog.finalize();
      return { bytes: fs.readFileSync(file, 'utf8'), texts };
    };
    const one = await run(1);
    const eight = await run(8);
    expect(eight.bytes).toBe(one.bytes);
    expect(eight.texts).toEqual(one.texts);
    const entries = readRunLog(path.join(await tempRoot(), 'missing.jsonl')).entries;
    expect(entries).toEqual([]);
    const lines = one.bytes.trim().split('\n').map((l) => JSON.parse(l) as { scene: string; role: string });
    expect(lines).toHaveLength(24);
    expect(lines.slice(0, 4).map((l) => `${l.scene}/${l.role}`)).toEqual(['SC01/writer', 'SC01/critic', 'SC02/writer', 'SC02/critic']);
    const sum = summarizeRunLog(lines as never);
    expect(sum.per_role.writer?.calls).toBe(12);
    expect(sum.total.cost_usd).toBe(0);
  });
});
