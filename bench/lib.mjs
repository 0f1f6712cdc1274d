// Shared helpers for `npm run bench` (plain ESM over the built dist/, so the bench measures what ships).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const dist = (rel) => import(path.join(ROOT, 'dist', rel));

export function median(xs) {
  const s = xs.filter((x) => typeof x === 'number' && Number.isFinite(x)).sort((a, b) => a - b);
  if (!s.length) return null;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export const r1 = (x) => (x === null || x === undefined ? null : Math.round(x * 10) / 10);
export const r2 = (x) => (x === null || x === undefined ? null : Math.round(x * 100) / 100);
export const mb = (bytes) => Math.round((bytes / 1048576) * 10) / 10;
/** Peak resident set size of this process so far, in MB (ru_maxrss is in KB on Linux). */
export const peakRssMb = () => Math.round((process.resourceUsage().maxRSS / 1024) * 10) / 10;

/**
 * Run a child node script, collecting the JSON lines it prints; kill it (SIGKILL) at the cap.
 * Returns { lines, timedOut, code, ms }. Memory-heavy work runs in children so each size gets its
 * own peak RSS and a runaway stage cannot take the whole bench down.
 */
export function runChild(script, args, capMs, env = {}) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ['--max-old-space-size=4096', path.join(ROOT, 'bench', script), ...args], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let timedOut = false;
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, capMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      const lines = out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l));
      resolve({ lines, timedOut, code, stderr: err.slice(-2000), ms: performance.now() - t0 });
    });
  });
}

/** The DPRR tables the small sizes are built from (AUREUS_DPRR_DATA overrides, for tests). */
export const DPRR_DIR = process.env.AUREUS_DPRR_DATA || path.join(ROOT, 'data', 'dprr');
export const DPRR_TABLES = ['dprr_persons.csv', 'dprr_post_assertions.csv', 'dprr_relationship_assertions.csv'];

/**
 * Fail loudly when the DPRR tables are missing: a bench that quietly prints "—" for every DPRR
 * size looks like a result. Throws an Error naming the folder and the missing tables.
 */
export function requireDprrData(dir = DPRR_DIR) {
  const missing = DPRR_TABLES.filter((f) => !existsSync(path.join(dir, f)));
  if (missing.length) {
    throw new Error(`the DPRR tables are missing from ${dir}: ${missing.join(', ')}. They ship in the repository under data/dprr (see data/README.md); restore that folder.`);
  }
}

/** Build an in-memory world of a bench size: DPRR for ≤ 3,000 principals, synthetic beyond. */
export async function benchWorld(size) {
  const { loadStarterKit } = await dist('import/kit.js');
  const kit = await loadStarterKit(ROOT);
  if (size <= 3000) {
    requireDprrData();
    const { importDprrFiles } = await dist('import/dprr/index.js');
    const { assembled } = await importDprrFiles({ from: -100, to: -44, limit: size, principals: size, data: DPRR_DIR }, kit);
    return { world: assembled.world, source: `DPRR 100–44 BC, top ${size}` };
  }
  const { generateSyntheticWorld } = await dist('import/synthetic.js');
  return { world: generateSyntheticWorld({ principals: size, seed: 'bench' }, kit).world, source: `synthetic, seed bench` };
}

/**
 * One episode in process, as the episode and wire benches measure it: stages A–D (planEpisode),
 * E–G (writeEpisodeScenes), H (stageH) and the recap call, with no git and no run folder. The
 * style is loaded before the clock starts. Returns the stages' outputs and performance.now() marks:
 * t0 (start), planned (A–D done), scenes (E–G done), end (recap answered).
 */
export async function compileEpisodeInMemory({ world, config, llm, seed, ref, concurrency, recapMaxTokens }) {
  const { planEpisode } = await dist('stages/planning.js');
  const { writeEpisodeScenes } = await dist('stages/scenes.js');
  const { stageH } = await dist('stages/h-commit/index.js');
  const { loadStyle } = await dist('style/index.js');
  const { canonicalCompact } = await dist('core/json.js');
  const style = await loadStyle(ROOT);
  const writerStyle = { guide: style.guide, lexicon: style.lexicon.map((e) => ({ forbidden: e.forbidden, replacement: e.replacement })), lexicon_md: style.lexiconMarkdown };

  const t0 = performance.now();
  const planning = await planEpisode({ world, ref, seed, previousCliffhanger: null, llm, packets: { tokenBudget: config.packets.token_budget } });
  const planned = performance.now();
  const efg = await writeEpisodeScenes({ llm, plan: planning.plan, packets: planning.packets, world, style: writerStyle, budgets: { per_scene: config.budgets.per_scene, per_episode: config.budgets.per_episode }, concurrency, seed });
  const scenes = performance.now();
  const h = stageH({ ref, seed, world, context: planning.context, proposals: planning.proposals, plan: planning.plan, packets: planning.packets, scenes: efg.scenes, report: efg.report });
  await llm.complete({ role: 'recap', system: 'Write the recap.', messages: [{ role: 'user', content: canonicalCompact(h.recap) }], ...(recapMaxTokens !== undefined ? { max_tokens: recapMaxTokens } : {}), payload: h.recap, meta: { episode: ref.id, label: 'recap' } });
  return { planning, efg, h, marks: { t0, planned, scenes, end: performance.now() } };
}

/**
 * A bench script's options, read strictly (node's parseArgs): `--help` prints the usage and exits 0; an
 * unknown option or a bad value prints what was wrong and the usage and exits 2, so a typo such as
 * `--rep 3` never starts a five-minute run with the defaults.
 */
export function benchArgs(options, usage, check = () => null) {
  let values;
  try {
    ({ values } = parseArgs({ options: { ...options, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: false }));
  } catch (e) {
    process.stderr.write(`${e.message}\n\n${usage}\n`);
    process.exit(2);
  }
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  const bad = check(values);
  if (bad) {
    process.stderr.write(`${bad}\n\n${usage}\n`);
    process.exit(2);
  }
  return values;
}
