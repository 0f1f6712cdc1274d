// Child process: the prose checks of issue 14 on test/fixtures/prose-corpus (planted defects,
// near-miss controls, clean drafts) through the built verifier, against each file's packet and the
// world the writer corpus was planned in (the starter world with Catiline dead). Prints one JSON line:
// recall per family, hard findings on near misses and on clean drafts, and the median ms to verify
// one scene. Missing corpus data is an error (exit 1), never an empty table.
//   node bench/prose.mjs [reps]
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { dist, median, r1, ROOT } from './lib.mjs';

const P = path.join(ROOT, 'test', 'fixtures', 'prose-corpus');
const W = path.join(ROOT, 'test', 'fixtures', 'writer-corpus');
for (const f of [path.join(P, 'manifest.json'), path.join(W, 'world-characters.json'), path.join(W, 'episode_plan.json')]) {
  if (!existsSync(f)) {
    process.stderr.write(`bench/prose.mjs: missing ${path.relative(ROOT, f)} (the prose corpus ships in the repository; restore it with git checkout)\n`);
    process.exit(1);
  }
}
const reps = Number(process.argv[2] ?? 5);

const { loadWorldOrThrow } = await dist('store/load.js');
const { loadStyle } = await dist('style/index.js');
const { readPacket } = await dist('stages/f-verifier/load.js');
const { worldVerifyContext } = await dist('stages/f-verifier/world-context.js');
const { verifySceneOutput } = await dist('stages/f-verifier/verify.js');
const { planPrereqs } = await dist('stages/scenes.js');

const manifest = JSON.parse(readFileSync(path.join(P, 'manifest.json'), 'utf8'));
const { world } = await loadWorldOrThrow(ROOT);
world.characters = JSON.parse(readFileSync(path.join(W, 'world-characters.json'), 'utf8'));
const style = await loadStyle(ROOT);
const base = { ...worldVerifyContext(world, style.lexicon), prereqs: planPrereqs(JSON.parse(readFileSync(path.join(W, 'episode_plan.json'), 'utf8'))) };

/** The codes that name each family's defect (structured and prose rules); one table for this bench and the corpus test: test/fixtures/prose-corpus/families.json. */
const FAMILY_CODES = Object.fromEntries(Object.entries(JSON.parse(readFileSync(path.join(P, 'families.json'), 'utf8'))).map(([k, v]) => [k, new RegExp(v)]));

const inputs = manifest.map((e) => {
  const file = path.join(P, e.file);
  if (!existsSync(file)) {
    process.stderr.write(`bench/prose.mjs: manifest names ${e.file}, which is missing\n`);
    process.exit(1);
  }
  return { e, raw: readFileSync(file, 'utf8'), ctx: { ...base, packet: readPacket(path.join(W, e.packet)) } };
});

const times = [];
const verdicts = new Map();
for (let r = 0; r < reps; r++) {
  for (const { e, raw, ctx } of inputs) {
    const t0 = performance.now();
    const v = verifySceneOutput(raw, ctx);
    times.push(performance.now() - t0);
    verdicts.set(e.file, v);
  }
}

const hard = (e) => verdicts.get(e.file).findings.filter((f) => f.severity === 'hard');
const recall = {};
for (const e of manifest.filter((x) => x.expect === 'hard')) {
  const fam = e.code_family;
  recall[fam] ??= { planted: 0, caught: 0, missed: [] };
  const re = FAMILY_CODES[fam];
  if (hard(e).some((f) => !re || re.test(f.code))) recall[fam].caught++;
  else recall[fam].missed.push(e.file);
  recall[fam].planted++;
}
for (const r of Object.values(recall)) r.recall_pct = r1((100 * r.caught) / r.planted);
const controls = manifest.filter((e) => e.class.startsWith('control_'));
const clean = manifest.filter((e) => e.class === 'clean');
const hardControls = controls.filter((e) => hard(e).length).map((e) => e.file);
const cleanWithFindings = clean.filter((e) => verdicts.get(e.file).findings.length).map((e) => e.file);

process.stdout.write(
  JSON.stringify({
    files: manifest.length,
    recall,
    controls: controls.length,
    controls_hard: hardControls,
    controls_hard_pct: r1((100 * hardControls.length) / controls.length),
    clean: clean.length,
    clean_with_findings: cleanWithFindings,
    verify_ms_median: r1(median(times)),
    verify_ms_max: r1(Math.max(...times)),
    verify_runs: times.length,
  }) + '\n',
);
