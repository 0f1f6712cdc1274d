// Child process: time the symbolic stages on one world size; prints one JSON line per stage as it
// finishes, so the parent keeps what was measured if it has to kill us at the cap.
//   node bench/stages.mjs <principals> <reps>
import { benchWorld, dist, median, peakRssMb, r1 } from './lib.mjs';

const size = Number(process.argv[2]);
const reps = Number(process.argv[3] ?? 3);
const emit = (o) => process.stdout.write(JSON.stringify({ size, ...o }) + '\n');

const t0 = performance.now();
const { world, source } = await benchWorld(size);
emit({ stage: 'build', ms: r1(performance.now() - t0), rss_mb: peakRssMb(), source, characters: world.characters.characters.length, relationships: world.relationships.relationships.length });

const { episodeRef } = await dist('domain/context.js');
const { buildEpisodeContext } = await dist('stages/a-snapshot/index.js');
const { proposeSymbolic } = await dist('stages/b-proposals/index.js');
const { planSymbolic } = await dist('stages/c-director/plan.js');
const { buildPackets } = await dist('stages/d-packets/index.js');
const { worldVerifyContext } = await dist('stages/f-verifier/world-context.js');
const { verifySceneOutput } = await dist('stages/f-verifier/verify.js');
const { planPrereqs, writeEpisodeScenes } = await dist('stages/scenes.js');
const { stageH } = await dist('stages/h-commit/index.js');
const { OfflineProvider, LlmRouter } = await dist('providers/index.js');
const { defaultConfig } = await dist('config/defaults.js');
const { loadStyle } = await dist('style/index.js');

const ref = episodeRef(1, 1);
const seed = 'bench';
/** Time fn `reps` times (each on fresh input from make()), report the median and the peak RSS. */
function timed(stage, make, fn) {
  const times = [];
  let out;
  for (let i = 0; i < reps; i++) {
    const input = make();
    const t = performance.now();
    out = fn(input);
    times.push(performance.now() - t);
  }
  emit({ stage, ms: r1(median(times)), runs: times.length, rss_mb: peakRssMb() });
  return out;
}

const { context } = timed('A', () => null, () => buildEpisodeContext({ world, ref, seed, previousCliffhanger: null }));
// B is not one of the benchmarked stages but C needs its proposals; timed once, reported aside.
const proposals = (() => {
  const t = performance.now();
  const p = proposeSymbolic(world, context);
  emit({ stage: 'B', ms: r1(performance.now() - t), runs: 1, rss_mb: peakRssMb() });
  return p;
})();
const plan = timed('C', () => null, () => planSymbolic({ world, context, proposals, seed }));
const packets = timed('D', () => null, () => buildPackets(plan, world, context, { tokenBudget: defaultConfig().packets.token_budget }));
emit({ stage: 'D-tokens', packet_tokens: packets.reduce((s, p) => s + p.token_estimate, 0), scenes: packets.length });

// E–G with the offline provider produce the scenes F verifies and H commits; F is then timed alone
// on every writer output the episode produced (the deterministic verifier, not the critic).
const style = await loadStyle((await import('./lib.mjs')).ROOT);
const writerStyle = { guide: style.guide, lexicon: style.lexicon.map((e) => ({ forbidden: e.forbidden, replacement: e.replacement })), lexicon_md: style.lexiconMarkdown };
const outputs = [];
const config = defaultConfig();
const offline = new OfflineProvider({ seed });
const recorder = {
  id: 'offline',
  async complete(req, model) {
    const res = await offline.complete(req, model);
    if (req.role === 'writer') outputs.push({ scene: req.meta?.scene, text: res.text });
    return res;
  },
};
const llm = new LlmRouter({ config, provider: recorder, providerId: 'offline', deterministic: true });
const efg = await writeEpisodeScenes({ llm, plan, packets, world, style: writerStyle, budgets: { per_scene: config.budgets.per_scene, per_episode: config.budgets.per_episode }, concurrency: 1, seed });
const base = { ...worldVerifyContext(world, writerStyle.lexicon), prereqs: planPrereqs(plan) };
const bySceneId = new Map(packets.map((p) => [p.scene_id, p]));
timed('F', () => null, () => {
  for (const o of outputs) verifySceneOutput(o.text, { ...base, packet: bySceneId.get(o.scene) });
  return null;
});
emit({ stage: 'F-count', verified: outputs.length });
timed('H', () => null, () => stageH({ ref, seed, world, context, proposals, plan, packets, scenes: efg.scenes, report: efg.report }));
emit({ stage: 'done', rss_mb: peakRssMb() });
