import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { apiKeyOf, steps } from '../support/fake-anthropic-server.js';
import { anthropicEnv, useFakeAnthropic } from '../support/use-fake-anthropic.js';
import { openLlm } from '../../src/providers/index.js';
import { JsonlRunLog, MemoryRunLog } from '../../src/providers/run-log.js';
import { LlmEmptyAnswerError, LlmOutputError, LlmRefusalError, LlmTruncatedError, ReplayCorruptError, ReplayMissError } from '../../src/providers/errors.js';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { FAKE_KEY, criticRequest, filesContaining, listFiles, tempRoot, testConfig, writerRequest } from './helpers.js';

// The record/replay cache in front of the Anthropic adapter (moved out of anthropic.test.ts, which
// covers the adapter itself against the fake Messages API).
const server = useFakeAnthropic({ resetEachTest: true });
let root: string;
beforeEach(async () => {
  root = await tempRoot();
});

const env = () => anthropicEnv(server, FAKE_KEY);

describe('record/replay cache', () => {
  const cfg = (mode: 'read-write' | 'replay') => testConfig((c) => ((c.provider = 'anthropic'), (c.cache.mode = mode)));

  it('records in read-write mode, answers hits from disk, and replays with zero HTTP and no key', async () => {
    const runLogFile = path.join(root, '.aureus', 'runs', 's01e01-7', 'run_log.jsonl');
    const runLog = new JsonlRunLog(runLogFile);
    const llm = openLlm({ root, config: cfg('read-write'), env: env(), runLog });
    server.script(steps.json({ verdict: 'PASS', violations: [] }), steps.ok('INT. FORUM - DAY'));
    const first = await llm.complete(criticRequest());
    const w = await llm.complete(writerRequest());
    expect(first.cached).toBe(false);
    expect(server.requests).toHaveLength(2);
    const again = await llm.complete(criticRequest());
    expect(again.cached).toBe(true);
    // A hit describes the recorded call: its latency and its price, not this run's cache read.
    expect(again.cost_usd).toBe(first.cost_usd);
    expect(again.latency_ms).toBe(first.latency_ms);
    expect(again.json).toEqual(first.json);
    expect(server.requests).toHaveLength(2);
    // payload and meta are not part of the key
    const withPayload = await llm.complete(criticRequest({ payload: { anything: 1 }, meta: { scene: 'SC99' } }));
    expect(withPayload.cached).toBe(true);
    expect(server.requests).toHaveLength(2);
    await runLog.finalize();

    const cacheFiles = listFiles(path.join(root, '.aureus', 'cache'));
    expect(cacheFiles).toHaveLength(2);
    expect(cacheFiles.every((f) => /^[0-9a-f]{2}\/[0-9a-f]{64}\.json$/.test(f))).toBe(true);

    // Replay: a fresh Llm, no key, the server is not asked.
    const before = server.requests.length;
    const replayLog = new MemoryRunLog();
    const replay = openLlm({ root, config: testConfig((c) => (c.provider = 'replay:.aureus/cache')), env: {}, runLog: replayLog });
    expect(replay.deterministic).toBe(true);
    const r1 = await replay.complete(criticRequest());
    const r2 = await replay.complete(writerRequest());
    expect(r1.json).toEqual(first.json);
    expect(r2.text).toBe(w.text);
    expect(r1.cached && r2.cached).toBe(true);
    // The replay logs the recorded calls' latency and cost, and the answering family, not the replay dir.
    expect(replayLog.entries.every((e) => e.cached && e.provider === 'anthropic')).toBe(true);
    expect(replayLog.entries.map((e) => [e.role, e.latency_ms, e.cost_usd])).toEqual([['critic', first.latency_ms, first.cost_usd], ['writer', w.latency_ms, w.cost_usd]]);
    // cache.mode replay with the anthropic provider is the same, and needs no key either
    const replay2 = openLlm({ root, config: cfg('replay'), env: {} });
    expect((await replay2.complete(writerRequest())).text).toBe(w.text);
    expect(server.requests.length).toBe(before);

    // The key went over the wire, and nowhere onto disk.
    expect(apiKeyOf(server.requests[0])).toBe(FAKE_KEY);
    expect(filesContaining(root, FAKE_KEY)).toEqual([]);
    expect(fs.readFileSync(runLogFile, 'utf8').trim().split('\n')).toHaveLength(4);
  });

  it('a replay miss names the role, the scene and the key', async () => {
    fs.mkdirSync(path.join(root, 'recorded'), { recursive: true }); // a recorded folder without this call
    const replay = openLlm({ root, config: testConfig((c) => (c.provider = 'replay:recorded')), env: {} });
    const err = (await replay.complete(writerRequest({ meta: { episode: 's01e02', scene: 'SC07' } })).catch((e: unknown) => e)) as ReplayMissError;
    expect(err).toBeInstanceOf(ReplayMissError);
    expect(err.exitCode).toBe(7);
    expect(err.message).toMatch(/writer call \(s01e02 SC07\), key [0-9a-f]{64}/);
    expect(err.diagnostics[0].code).toBe('AUR4301');
    expect(server.requests).toHaveLength(0);
  });

  it('an entry keeps what priced it (format 2); a format 1 entry is still served, priced at the reading run\'s TTL', async () => {
    const usage = { input_tokens: 100, output_tokens: 1000, cache_creation_input_tokens: 10_000, cache_read_input_tokens: 0 };
    const hourly = testConfig((c) => ((c.provider = 'anthropic'), (c.cache.mode = 'read-write'), (c.cache.ttl = '1h')));
    server.script(steps.ok('INT. FORUM - DAY', { usage }));
    const first = await openLlm({ root, config: hourly, env: env() }).complete(writerRequest());
    const [file] = listFiles(path.join(root, '.aureus', 'cache'));
    const entryFile = path.join(root, '.aureus', 'cache', file);
    const entry = JSON.parse(fs.readFileSync(entryFile, 'utf8'));
    expect(entry).toMatchObject({ format: 2, priced: { batch: false, cache_ttl: '1h' } });
    // Read by a run at the 5-minute TTL: priced as it was billed (1-hour writes), not at its own.
    const reader = openLlm({ root, config: cfg('read-write'), env: env() });
    expect((await reader.complete(writerRequest())).cost_usd).toBe(first.cost_usd);
    // The same entry as an earlier version wrote it: served, priced at the reader's TTL (cheaper writes).
    delete entry.priced;
    fs.writeFileSync(entryFile, JSON.stringify({ ...entry, format: 1 }));
    const old = await reader.complete(writerRequest());
    expect(old.cached).toBe(true);
    expect(old.cost_usd).toBeGreaterThan(0);
    expect(old.cost_usd).toBeLessThan(first.cost_usd);
    expect(server.requests).toHaveLength(1);
  });

  it('treats a corrupt entry as a miss, warns (AUR4302, the file under the cache folder as configured), and records it again', async () => {
    const warnings: Diagnostic[] = [];
    const llm = openLlm({ root, config: cfg('read-write'), env: env(), onWarning: (d) => warnings.push(d) });
    server.script(steps.ok('one'), steps.ok('two'));
    await llm.complete(writerRequest());
    const [file] = listFiles(path.join(root, '.aureus', 'cache'));
    fs.writeFileSync(path.join(root, '.aureus', 'cache', file), '{"format": 1, "key": "trunc');
    const res = await llm.complete(writerRequest());
    expect(res.cached).toBe(false);
    expect(res.text).toBe('two');
    expect(warnings.map((d) => [d.code, d.severity, d.file])).toEqual([['AUR4302', 'warning', path.join('.aureus/cache', file)]]);
    expect(warnings[0].message).toMatch(/^corrupt cache entry \.aureus\/cache\/[0-9a-f]{2}\/[0-9a-f]{64}\.json: Unterminated string/);
    const again = await llm.complete(writerRequest());
    expect(again).toMatchObject({ cached: true, text: 'two' });
  });

  it('a replay of a corrupt entry says it is corrupt (AUR4302 as the error, with a hint to re-record), not a miss', async () => {
    server.script(steps.ok('one'));
    await openLlm({ root, config: cfg('read-write'), env: env() }).complete(writerRequest());
    const [file] = listFiles(path.join(root, '.aureus', 'cache'));
    fs.writeFileSync(path.join(root, '.aureus', 'cache', file), '{"format": 2, "key": "tru');
    const warnings: Diagnostic[] = [];
    const replay = openLlm({ root, config: testConfig((c) => (c.provider = 'replay:.aureus/cache')), env: {}, onWarning: (d) => warnings.push(d) });
    const err = (await replay.complete(writerRequest({ meta: { episode: 's01e01', scene: 'SC04' } })).catch((e: unknown) => e)) as ReplayCorruptError;
    expect(err).toBeInstanceOf(ReplayCorruptError);
    expect(err.exitCode).toBe(7);
    expect(err.message).toContain(`replay: the recorded answer for the writer call (s01e01 SC04) is corrupt: ${path.join('.aureus/cache', file)}: Unterminated string`);
    expect(err.diagnostics.map((d) => [d.code, d.severity])).toEqual([['AUR4302', 'error']]);
    expect(err.diagnostics[0].hint).toContain('record the call again with a real provider');
    // Said once, as the error: no warning beside it.
    expect(warnings).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('never serves a later run an answer that was cut, empty or invalid: it asks again', async () => {
    const good = { verdict: 'PASS', violations: [] };
    // A run fails on a critic answer cut twice at max_tokens, a writer answer that is empty, and
    // a critic answer that is not JSON.
    const failed = openLlm({ root, config: cfg('read-write'), env: env() });
    server.script(steps.maxTokens('{"verdict": "PA'), steps.maxTokens('{"verdict": "PA'));
    await expect(failed.complete(criticRequest())).rejects.toBeInstanceOf(LlmTruncatedError);
    // An empty scene is asked once more as it was, then fails as empty (AUR4230).
    server.script(steps.ok(''), steps.ok(''));
    await expect(failed.complete(writerRequest())).rejects.toBeInstanceOf(LlmEmptyAnswerError);
    server.script(steps.malformedJson());
    await expect(failed.complete(criticRequest({ max_reasks: 0, meta: { scene: 'SC09' }, messages: [{ role: 'user', content: 'SCENE_TEXT: other' }] }))).rejects.toBeInstanceOf(LlmOutputError);
    expect(server.requests).toHaveLength(5);

    // A replay reproduces the recorded run, cuts included, without HTTP.
    const replay = openLlm({ root, config: cfg('replay'), env: {} });
    await expect(replay.complete(criticRequest())).rejects.toBeInstanceOf(LlmTruncatedError);
    expect(server.requests).toHaveLength(5);

    // The server is healthy again: the next run asks for each of those calls and succeeds.
    const rerun = openLlm({ root, config: cfg('read-write'), env: env() });
    server.script(steps.json(good), steps.ok('INT. FORUM - DAY'), steps.json(good));
    expect((await rerun.complete(criticRequest())).json).toEqual(good);
    expect(await rerun.complete(writerRequest())).toMatchObject({ cached: false, text: 'INT. FORUM - DAY' });
    expect((await rerun.complete(criticRequest({ max_reasks: 0, meta: { scene: 'SC09' }, messages: [{ role: 'user', content: 'SCENE_TEXT: other' }] }))).json).toEqual(good);
    expect(server.requests).toHaveLength(8);
    // The good answers are recorded and served from then on.
    expect(await openLlm({ root, config: cfg('read-write'), env: env() }).complete(writerRequest())).toMatchObject({ cached: true, text: 'INT. FORUM - DAY' });
    expect(server.requests).toHaveLength(8);
  });

  it('a call refused then answered replays both asks: the same run-log lines and cost as the recording', async () => {
    const line = (e: MemoryRunLog['entries'][number]) => [e.reask, e.stop_reason, e.latency_ms, e.cost_usd, e.output_tokens];
    const recording = new MemoryRunLog();
    server.script(steps.ok("I can't help with that.", { stop_reason: 'refusal', usage: { output_tokens: 12 } }), steps.ok('INT. FORUM - DAY', { usage: { output_tokens: 900 } }));
    const recorded = await openLlm({ root, config: cfg('read-write'), env: env(), runLog: recording }).complete(writerRequest());
    expect(recording.entries.map((e) => e.stop_reason)).toEqual(['refusal', 'end_turn']);

    const replayLog = new MemoryRunLog();
    const replayed = await openLlm({ root, config: cfg('replay'), env: {}, runLog: replayLog }).complete(writerRequest());
    // Was one end_turn line and the answer's cost alone: the answer was recorded over the refusal.
    expect(replayLog.entries.map(line)).toEqual(recording.entries.map(line));
    expect([replayed.text, replayed.cost_usd]).toEqual([recorded.text, recorded.cost_usd]);
    expect(server.requests).toHaveLength(2);

    // A later read-write run is served the answer that followed the refusal, as when it was recorded over it.
    expect(await openLlm({ root, config: cfg('read-write'), env: env() }).complete(writerRequest())).toMatchObject({ cached: true, text: recorded.text });
    expect(server.requests).toHaveLength(2);
  });

  it('a recording made before the second ask had its own key replays as it did', async () => {
    // Then, a call refused twice left its second refusal (rejected) under the first ask's key only.
    server.script(steps.ok('No.', { stop_reason: 'refusal' }), steps.ok('Still no.', { stop_reason: 'refusal' }));
    await expect(openLlm({ root, config: cfg('read-write'), env: env() }).complete(writerRequest())).rejects.toBeInstanceOf(LlmRefusalError);
    const cache = path.join(root, '.aureus', 'cache');
    const entries = listFiles(cache).map((f) => ({ file: path.join(cache, f), entry: JSON.parse(fs.readFileSync(path.join(cache, f), 'utf8')) }));
    const first = entries.find((e) => e.entry.response.text === 'No.')!;
    const second = entries.find((e) => e.entry.response.text === 'Still no.')!;
    fs.writeFileSync(first.file, JSON.stringify({ ...second.entry, key: first.entry.key }));
    fs.rmSync(second.file);
    const replayLog = new MemoryRunLog();
    const err = await openLlm({ root, config: cfg('replay'), env: {}, runLog: replayLog }).complete(writerRequest()).catch((e: unknown) => e);
    // Refused twice, as recorded, not a replay miss of the second ask.
    expect(err).toBeInstanceOf(LlmRefusalError);
    expect(replayLog.entries.map((e) => [e.reask, e.stop_reason])).toEqual([[0, 'refusal'], [1, 'refusal']]);
    expect(server.requests).toHaveLength(2);
  });
});
