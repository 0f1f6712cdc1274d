// Child process: one in-process episode (stages A–H, no git) on the starter world through a
// simulated-latency provider (every call takes exactly <ms>), at a given concurrency; then the
// naive baseline: the same calls, one at a time, each prompt carrying the whole world.
//   node bench/episode.mjs <latencyMs> <concurrency> [naive]
import { setTimeout as sleep } from 'node:timers/promises';
import { compileEpisodeInMemory, dist, peakRssMb, r1, ROOT } from './lib.mjs';

const latency = Number(process.argv[2] ?? 50);
const concurrency = Number(process.argv[3] ?? 1);
const withNaive = process.argv[4] === 'naive';

const { loadWorldOrThrow } = await dist('store/index.js');
const { loadConfigOrThrow } = await dist('config/load.js');
const { OfflineProvider, openLlm, estimateTokens } = await dist('providers/index.js');
const { episodeRef } = await dist('domain/context.js');
const { canonicalCompact } = await dist('core/json.js');

const { world } = await loadWorldOrThrow(ROOT);
const { config } = loadConfigOrThrow(ROOT, { concurrency, provider: 'offline' });
const seed = 'bench';
const ref = episodeRef(1, 1);

/** A provider whose every call takes `latency` ms, answering like the offline provider; records the call graph. */
class LatencyProvider {
  constructor(ms) {
    this.id = `latency:${ms}`;
    this.ms = ms;
    this.inner = new OfflineProvider({ seed, simulatedLatencyMs: 0 });
    this.calls = [];
    this.t0 = performance.now();
  }
  async complete(req, model) {
    const start = performance.now() - this.t0;
    await sleep(this.ms);
    const res = await this.inner.complete(req, model);
    const prompt = [req.system, req.static_context ?? '', ...req.messages.map((m) => m.content)].join('\n');
    this.calls.push({
      role: req.role,
      scene: req.meta?.scene ?? null,
      attempt: req.meta?.attempt ?? null,
      start,
      end: performance.now() - this.t0,
      input_tokens: estimateTokens(prompt),
      static_tokens: estimateTokens(req.static_context ?? ''),
      dynamic_text: [req.system, ...req.messages.map((m) => m.content)].join('\n'),
      req,
    });
    return { ...res, latency_ms: this.ms };
  }
}

const provider = new LatencyProvider(latency);
const llm = openLlm({ root: ROOT, config, seed, provider: { provider, providerId: provider.id, deterministic: true } });
const { efg, marks } = await compileEpisodeInMemory({ world, config, llm, seed, ref, concurrency, recapMaxTokens: config.max_tokens.recap });
const { t0, planned: tPlanned, scenes: tScenes } = marks;
const wall = marks.end - t0;

// Critical path of the call graph: proposals are independent of each other (one layer), director
// calls are sequential re-asks, each scene's writer/critic attempts form a chain and scenes are
// independent, the recap comes last. With unlimited parallelism and zero compute this is the floor.
const calls = provider.calls;
const count = (role) => calls.filter((c) => c.role === role).length;
const perScene = new Map();
for (const c of calls) if (c.scene && (c.role === 'writer' || c.role === 'critic')) perScene.set(c.scene, (perScene.get(c.scene) ?? 0) + 1);
const depth = (count('proposals') > 0 ? 1 : 0) + count('director') + Math.max(0, ...perScene.values()) + count('recap');
const criticalPathMs = depth * latency;

const tokens = calls.reduce((s, c) => s + c.input_tokens, 0);
const writer = calls.filter((c) => c.role === 'writer');
const writerInput = writer.reduce((s, c) => s + c.input_tokens, 0);
const writerStatic = writer.reduce((s, c) => s + c.static_tokens, 0);
const worldTokens = estimateTokens(canonicalCompact(world));

/** Most calls of a role in flight at once (1 = the role's calls ran one after another). */
const peakInFlight = (role) => {
  const ev = calls.filter((c) => c.role === role).flatMap((c) => [[c.start, 1], [c.end, -1]]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let n = 0, peak = 0;
  for (const [, d] of ev) peak = Math.max(peak, (n += d));
  return peak;
};

const result = {
  latency_ms: latency,
  concurrency,
  wall_ms: r1(wall),
  phases_ms: { planning_AD: r1(tPlanned - t0), scenes_EG: r1(tScenes - tPlanned), commit_H_recap: r1(performance.now() - tScenes - (performance.now() - t0 - wall)) },
  calls: calls.length,
  calls_by_role: Object.fromEntries(['proposals', 'director', 'writer', 'critic', 'recap'].map((r) => [r, count(r)])),
  critical_path_depth: depth,
  peak_in_flight: Object.fromEntries(['proposals', 'writer', 'critic'].map((r) => [r, peakInFlight(r)])),
  critical_path_ms: criticalPathMs,
  ok: efg.ok,
  aureus_input_tokens: tokens,
  world_tokens: worldTokens,
  naive_input_tokens: calls.reduce((s, c) => s + worldTokens + estimateTokens(c.dynamic_text), 0),
  writer_input_tokens: writerInput,
  writer_static_tokens: writerStatic,
  rss_mb: peakRssMb(),
};

if (withNaive) {
  // The naive pipeline: no packets, no concurrency; every call re-sends the whole world bible.
  const naive = new OfflineProvider({ seed, simulatedLatencyMs: 0 });
  const worldJson = canonicalCompact(world);
  const tn = performance.now();
  for (const c of calls) {
    const req = { ...c.req, static_context: undefined, messages: [{ role: 'user', content: `CURRENT_STATE: ${worldJson}\n\n${c.dynamic_text}` }] };
    await sleep(latency);
    await naive.complete(req, 'naive');
  }
  result.naive_wall_ms = r1(performance.now() - tn);
}
process.stdout.write(JSON.stringify(result) + '\n');
