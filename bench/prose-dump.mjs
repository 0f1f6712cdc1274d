// Not part of `npm run bench`: the evidence that a change to the prose reader changes no finding
// (issue 18, seventh pass). Verifies every file of test/fixtures/prose-corpus and
// prose-corpus-heldout against its packet, and every draft of six offline episodes (seeds alpha,
// beta, gamma; chaos 0 and 0.5, written into a temp folder) against its own packet and the next
// three scenes' packets, and writes every finding, the reader's sentences and deeds, and the
// roots, compliance verbs and sums of every sentence to one JSON file. Run it on the code before
// and after a change: the two files must be byte-identical.
//   npm run build && node bench/prose-dump.mjs /tmp/before.json
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { dist, ROOT } from './lib.mjs';

const out = process.argv[2];
if (!out) {
  process.stderr.write('usage: node bench/prose-dump.mjs <out.json>\n');
  process.exit(1);
}
const { loadWorldOrThrow } = await dist('store/load.js');
const { loadStyle } = await dist('style/index.js');
const { readPacket } = await dist('stages/f-verifier/load.js');
const { worldVerifyContext } = await dist('stages/f-verifier/world-context.js');
const { verifySceneOutput } = await dist('stages/f-verifier/verify.js');
const { planPrereqs, writeEpisodeScenes } = await dist('stages/scenes.js');
const { readProse } = await dist('stages/f-verifier/prose/reader.js');
// prose/roots.js since issue 18's seventh pass; facts.js in the builds before it (for a before/after dump).
const { contentRoots } = await dist('stages/f-verifier/prose/roots.js').catch(() => dist('stages/f-verifier/prose/facts.js'));
const { complianceIn } = await dist('stages/f-verifier/prose/compliance.js');
const { sumsIn } = await dist('stages/f-verifier/prose/money.js');
const { buildEpisodeContext } = await dist('stages/a-snapshot/index.js');
const { proposeSymbolic } = await dist('stages/b-proposals/index.js');
const { planSymbolic } = await dist('stages/c-director/plan.js');
const { buildPackets } = await dist('stages/d-packets/index.js');
const { episodeRef } = await dist('domain/context.js');
const { LlmRouter } = await dist('providers/router.js');
const { OfflineProvider } = await dist('providers/offline/index.js');
const { defaultConfig } = await dist('config/defaults.js');

const W = path.join(ROOT, 'test', 'fixtures', 'writer-corpus');
const { world } = await loadWorldOrThrow(ROOT);
const st = await loadStyle(ROOT);
const corpusWorld = structuredClone(world);
corpusWorld.characters = JSON.parse(readFileSync(path.join(W, 'world-characters.json'), 'utf8'));
const corpusBase = { ...worldVerifyContext(corpusWorld, st.lexicon), prereqs: planPrereqs(JSON.parse(readFileSync(path.join(W, 'episode_plan.json'), 'utf8'))) };
const dump = {};

function one(key, raw, ctx) {
  const v = verifySceneOutput(raw, ctx);
  const r = readProse(v.parsed, ctx);
  const sents = r.sentences.map((s) => s.text);
  const windows = sents.slice(0, -1).map((s, i) => `${s}\u2063${sents[i + 1]}`);
  dump[key] = {
    findings: v.findings,
    hard: v.hard,
    sentences: r.sentences,
    deeds: r.deeds,
    roots: [...sents, ...windows].map((s) => [...contentRoots(s)].sort()),
    compliance: r.sentences.map((s) => complianceIn(s.text, s.kind)),
    sums: sents.map((s) => sumsIn(s)),
  };
}

for (const dir of ['prose-corpus', 'prose-corpus-heldout']) {
  const P = path.join(ROOT, 'test', 'fixtures', dir);
  for (const e of JSON.parse(readFileSync(path.join(P, 'manifest.json'), 'utf8'))) one(`${dir}/${e.file}`, readFileSync(path.join(P, e.file), 'utf8'), { ...corpusBase, packet: readPacket(path.join(W, e.packet)) });
}

const tmp = mkdtempSync(path.join(tmpdir(), 'aureus-prose-dump-'));
try {
  const style = { guide: st.guide, lexicon: st.lexicon, lexicon_md: st.lexiconMarkdown };
  for (const seed of ['alpha', 'beta', 'gamma']) {
    for (const chaos of [0, 0.5]) {
      const { context } = buildEpisodeContext({ world, ref: episodeRef(1, 1), seed, previousCliffhanger: null });
      const plan = planSymbolic({ world, context, proposals: proposeSymbolic(world, context), seed });
      const packets = buildPackets(plan, world, context);
      const llm = new LlmRouter({ config: { ...defaultConfig(), concurrency: 2 }, provider: new OfflineProvider({ seed, chaos }), providerId: 'offline', deterministic: true });
      const dir = path.join(tmp, `${seed}-${chaos}`);
      await writeEpisodeScenes({ llm, plan, packets, world, style, budgets: { per_scene: 2, per_episode: 12 }, concurrency: 2, seed, draftDir: dir });
      const base = { ...worldVerifyContext(world, st.lexicon), prereqs: planPrereqs(plan) };
      for (const f of readdirSync(path.join(dir, 'drafts')).sort()) {
        const raw = readFileSync(path.join(dir, 'drafts', f), 'utf8');
        const i = packets.findIndex((p) => p.scene_id === f.split('.')[0]);
        // Its own packet, and (for more findings) the next three scenes' packets.
        for (let k = 0; k < 4; k++) {
          const pk = packets[(i + k) % packets.length];
          one(`${seed}-${chaos}/${f}@${pk.scene_id}`, raw, { ...base, packet: pk });
        }
      }
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
writeFileSync(out, JSON.stringify(dump, null, 1));
const all = Object.values(dump).flatMap((x) => x.findings);
process.stdout.write(JSON.stringify({ verifies: Object.keys(dump).length, findings: all.length }) + '\n');
