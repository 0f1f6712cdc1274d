// Child process: one episode (stages A–H, no git) on the starter world through the real Anthropic
// provider and SDK against bench/wire-server.mjs (latency 200 ms + 1 ms per output token, realistic
// answer sizes). Reports the cost at default routing, the cost the same calls would have through
// the Message Batches API (half price), the cached share of writer input, and wall time against the
// critical-path bound at the given concurrency.
//   node bench/wire.mjs [concurrency=8]
import { compileEpisodeInMemory, dist, r1, ROOT } from './lib.mjs';
import { answerKey, startWireServer } from './wire-server.mjs';

const concurrency = Number(process.argv[2] ?? 8);
const { loadWorldOrThrow } = await dist('store/index.js');
const { loadConfigOrThrow } = await dist('config/load.js');
const { OfflineProvider, openLlm, MemoryRunLog, summarizeRunLog, costOf } = await dist('providers/index.js');
const { AnthropicProvider } = await dist('providers/anthropic.js');
const { CallBudget } = await dist('providers/budget.js');
const { episodeRef } = await dist('domain/context.js');
const { round } = await dist('core/json.js');

const server = await startWireServer();
const { world } = await loadWorldOrThrow(ROOT);
const { config } = loadConfigOrThrow(ROOT, { concurrency, provider: 'anthropic', cacheMode: 'off' });
const seed = 'bench';
const ref = episodeRef(1, 1);

/** The offline realizers write the content; the real provider carries it over the wire. */
class WireProvider {
  constructor() {
    this.id = 'anthropic';
    this.offline = new OfflineProvider({ seed });
    this.real = new AnthropicProvider({ config, env: { ANTHROPIC_API_KEY: 'sk-bench', ANTHROPIC_BASE_URL: server.url }, budget: new CallBudget(10_000) });
    this.calls = [];
    this.t0 = performance.now();
  }
  async complete(req, model) {
    const off = await this.offline.complete(req, model);
    const text = off.json !== undefined ? JSON.stringify(off.json) : off.text;
    server.answers.set(answerKey(req.messages.at(-1).content), { role: req.role, text });
    const start = performance.now() - this.t0;
    const res = await this.real.complete(req, model);
    this.calls.push({ role: req.role, scene: req.meta?.scene ?? null, start, end: performance.now() - this.t0, out: res.usage.output_tokens });
    return res;
  }
}

const provider = new WireProvider();
const runLog = new MemoryRunLog();
const llm = openLlm({ root: ROOT, config, seed, runLog, provider: { provider, providerId: 'anthropic', deterministic: false } });
// The recap call leaves max_tokens to the provider's default for the role.
const { efg, marks } = await compileEpisodeInMemory({ world, config, llm, seed, ref, concurrency });
const wall = marks.end - marks.t0;
await server.close();

// The critical-path bound at this concurrency: per layer (proposals, director, scenes, recap), the
// longer of its longest chain and its work spread over the slots; the writers' cache warm-up (the
// first writer alone) is part of the scenes layer's chain. Each call lasts 200 ms + 1 ms per output token.
const calls = provider.calls;
const dur = (c) => 200 + c.out;
const layer = (role) => calls.filter((c) => c.role === role);
const spread = (xs) => Math.max(0, ...xs.map(dur), xs.reduce((s, c) => s + dur(c), 0) / concurrency);
const sceneCalls = calls.filter((c) => c.role === 'writer' || c.role === 'critic');
const chains = new Map();
for (const c of sceneCalls) chains.set(c.scene, (chains.get(c.scene) ?? 0) + dur(c));
const firstWriter = sceneCalls.filter((c) => c.role === 'writer').sort((a, b) => a.start - b.start)[0];
const scenesBound = Math.max(Math.max(0, ...chains.values()) + (firstWriter ? dur(firstWriter) : 0), (firstWriter ? dur(firstWriter) : 0) + sceneCalls.reduce((s, c) => s + dur(c), 0) / concurrency);
const bound = spread(layer('proposals')) + layer('director').reduce((s, c) => s + dur(c), 0) + scenesBound + spread(layer('recap'));

const sum = summarizeRunLog(runLog.entries);
const batchCost = runLog.entries.reduce((s, e) => s + costOf({ input_tokens: e.input_tokens, output_tokens: e.output_tokens, cache_read_tokens: e.cache_read_tokens, cache_write_tokens: e.cache_write_tokens }, config.prices[e.model], { batch: true, ttl: config.cache.ttl }), 0);
const w = sum.per_role.writer;
const writerInput = w.input_tokens + w.cache_read_tokens + w.cache_write_tokens;
const out = {
  concurrency,
  ok: efg.ok,
  calls: runLog.entries.length,
  calls_by_role: Object.fromEntries(Object.entries(sum.per_role).map(([k, v]) => [k, v.calls])),
  cost_usd: round(sum.total.cost_usd),
  cost_by_role: Object.fromEntries(Object.entries(sum.per_role).map(([k, v]) => [k, round(v.cost_usd)])),
  cost_by_model: Object.fromEntries(Object.entries(sum.per_model).map(([k, v]) => [k, { calls: v.calls, usd: round(v.cost_usd), input: v.input_tokens, cache_read: v.cache_read_tokens, cache_write: v.cache_write_tokens, output: v.output_tokens }])),
  batch_cost_usd: round(batchCost),
  writer_cached_share: Math.round((1000 * w.cache_read_tokens) / writerInput) / 10,
  writer_input_tokens: writerInput,
  output_tokens: sum.total.output_tokens,
  wall_ms: r1(wall),
  bound_ms: r1(bound),
  wall_over_bound: Math.round((wall / bound) * 100) / 100,
  rejected_requests: server.refused.count,
  director_output_tokens: sum.per_role.director?.output_tokens ?? 0,
};
process.stdout.write(JSON.stringify(out) + '\n');
if (process.env.WIRE_DUMP) { const fs = await import("node:fs"); fs.writeFileSync(process.env.WIRE_DUMP, JSON.stringify(server.requests.map((b) => ({ model: b.model, sys: (b.system ?? []).map((x) => ({ n: x.text.length, cc: Boolean(x.cache_control) })), user: b.messages.map((m) => m.content.length), max_tokens: b.max_tokens, oc: b.output_config ? Object.keys(b.output_config) : null })))); }
