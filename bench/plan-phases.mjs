// Not part of `npm run bench`: where the CPU of `episode plan` goes, phase by phase, and what that says
// about the growth target (issue 18, fourteenth pass). For each world folder given, N runs alternated
// between the worlds; each run is a child node that does what `episode plan` does through dist/ (load and
// validate, the seed's hash of the world, stages A–D, the artefacts' text) and reports the process's CPU
// (user + system, every thread) after each phase, and at exit each thread's CPU from /proc (Linux): the
// main thread against V8's background threads (parallel GC, concurrent compilation).
//   npm run build && node bench/plan-phases.mjs [--runs 6] WORLD_DIR [WORLD_DIR…]
// Figures are medians in ms. Without the bundle's code cache they run higher than `bench/cli.mjs`; the
// shares are what this is for. Worlds over the store's 10 MB file cap are read with the cap raised.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dist, median } from './lib.mjs';

const PHASES = ['import', 'load', 'seed', 'A', 'B', 'C', 'D', 'files'];

/** The child: one plan of `root`, printing one JSON line of CPU per phase and per thread. */
async function child(root) {
  const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
  const out = {};
  let last = cpu();
  const mark = (k) => { const c = cpu(); out[k] = Math.round(c - last); last = c; };
  const { loadValidatedWorld } = await dist('store/validate.js');
  const { deriveSeed, previousCliffhangerText } = await dist('pipeline/seed.js');
  const planning = await dist('stages/planning.js');
  const { seasonPlanningInputs } = await dist('pipeline/planning-adapter.js');
  const { StateHasher } = await dist('core/state-hash.js');
  mark('import');
  // As a compiling command that goes ahead: the derived index's entry is written on a miss (remember).
  const { world, remember } = await loadValidatedWorld(root);
  remember();
  mark('load');
  const ref = await planning.nextEpisodeRef(root);
  const hasher = new StateHasher();
  const seed = await deriveSeed(ref, previousCliffhangerText(root, ref), world, hasher);
  mark('seed');
  const inputs = await seasonPlanningInputs(root, ref, world, null);
  last = cpu();
  const onStage = (stage, state) => { if (state === 'done') mark(stage); };
  const artifacts = await planning.planEpisode({ ...inputs, world, ref, seed, previousCliffhanger: null, hasher, onStage });
  last = cpu();
  planning.planningFiles(artifacts);
  mark('files');
  process.on('exit', () => {
    let main = 0;
    let background = 0;
    for (const t of readdirSync('/proc/self/task')) {
      const stat = readFileSync(`/proc/self/task/${t}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ms = ((Number(f[11]) + Number(f[12])) * 1000) / 100; // utime + stime, in clock ticks of 10 ms
      if (t === String(process.pid)) main += ms;
      else background += ms;
    }
    const u = process.cpuUsage();
    writeSync(1, JSON.stringify({ ...out, total: Math.round((u.user + u.system) / 1000), main, background }) + '\n');
  });
}

function parent() {
  const argv = process.argv.slice(2);
  const at = argv.indexOf('--runs');
  const runs = at >= 0 ? Number(argv.splice(at, 2)[1]) : 6;
  const worlds = argv.map((d) => path.resolve(d));
  if (!worlds.length || !(runs > 0)) {
    process.stderr.write('usage: node bench/plan-phases.mjs [--runs N] WORLD_DIR [WORLD_DIR…]\n');
    process.exit(2);
  }
  const env = { ...process.env, NO_COLOR: '1', ANTHROPIC_API_KEY: '', AUREUS_MAX_FILE_BYTES: String(64 * 1024 * 1024) };
  const rows = new Map(worlds.map((w) => [w, []]));
  for (let i = 0; i < runs; i++) {
    for (const w of i % 2 ? [...worlds].reverse() : worlds) {
      const p = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', w], { encoding: 'utf8', env, maxBuffer: 1 << 24 });
      if (p.status !== 0) {
        // The child's error message (Node's "XError: …" line), not its stack.
        const why = p.stderr.split('\n').find((l) => /^\w*Error\b/.test(l)) ?? p.stderr.trim().split('\n').pop() ?? '';
        process.stderr.write(`plan-phases: the plan of ${w} failed (exit ${p.status}): ${why.trim()}\n`);
        process.exit(1);
      }
      rows.get(w).push(JSON.parse(p.stdout.trim().split('\n').pop()));
    }
  }
  const keys = [...PHASES, 'total', 'main', 'background'];
  let md = `| world | ${keys.join(' | ')} | total − load − seed |\n|${'---|'.repeat(keys.length + 2)}\n`;
  for (const [w, rs] of rows) {
    const m = Object.fromEntries(keys.map((k) => [k, median(rs.map((r) => r[k]))]));
    md += `| ${path.basename(w)} | ${keys.map((k) => Math.round(m[k])).join(' | ')} | ${Math.round(m.total - m.load - m.seed)} |\n`;
  }
  process.stdout.write(`CPU per phase, ms (median of ${runs} runs each, alternated):\n\n${md}`);
}

if (process.argv[2] === '--child') await child(path.resolve(process.argv[3]));
else parent();
