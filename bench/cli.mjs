// `npm run bench` part (e), also `node bench/cli.mjs [--reps N]`: the issue-18 targets measured on the
// real CLI as a process (start-up, validation, disk, git included). Each figure is the median of N
// runs (default 5) with its spread (min–max); CPU and peak RSS come from bench/probe.mjs inside the
// child. Prints a table with pass/fail per target; exits 1 when a figure is missing (its data, a
// world that failed to build, a run that failed) — a missing figure is never a pass.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { median, r1, requireDprrData, ROOT } from './lib.mjs';

const arg = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const reps = Number(arg('--reps')) || 5;
// --only startup,episode,plan (default all); --sizes 100,1000,all,10000 for the planning worlds.
const only = new Set((arg('--only') ?? 'startup,episode,plan').split(','));
const sizes = new Set((arg('--sizes') ?? '100,1000,all,10000').split(','));
const log = (s) => process.stderr.write(s + '\n');
const bin = path.join(ROOT, 'bin/aureus.js');
const probe = pathToFileURL(path.join(ROOT, 'bench/probe.mjs')).href;
const tmp = mkdtempSync(path.join(os.tmpdir(), 'aureus-bench-cli-'));
const probeFile = path.join(tmp, 'probe.jsonl');
const env = { ...process.env, NO_COLOR: '1', ANTHROPIC_API_KEY: '', AUREUS_BENCH_PROBE: probeFile };
const missing = [];

/** Run node with args once; returns { wall_ms, cpu_ms, rss_mb } or throws with the child's stderr. */
function once(args, opts = {}) {
  writeFileSync(probeFile, '');
  const t = performance.now();
  const p = spawnSync(process.execPath, ['--import', probe, ...args], { encoding: 'utf8', env, maxBuffer: 1 << 28, ...opts });
  const wall = performance.now() - t;
  if (p.status !== 0) throw new Error(`${args.slice(0, 4).join(' ')} exited ${p.status}: ${(p.stderr || '').slice(-400)}`);
  const lines = readFileSync(probeFile, 'utf8').trim().split('\n').filter(Boolean);
  const last = lines.length ? JSON.parse(lines[lines.length - 1]) : {};
  return { wall_ms: wall, cpu_ms: last.cpu_ms ?? null, rss_mb: last.rss_mb ?? null };
}

const stat = (xs) => {
  const v = xs.filter((x) => typeof x === 'number');
  return v.length ? { median: r1(median(v)), min: r1(Math.min(...v)), max: r1(Math.max(...v)), n: v.length } : null;
};
const summary = (runs) => ({ wall_ms: stat(runs.map((r) => r.wall_ms)), cpu_ms: stat(runs.map((r) => r.cpu_ms)), rss_mb: stat(runs.map((r) => r.rss_mb)) });

/** One measured run into `runs`: false, with the failure recorded as missing (loudly), when it throws. */
function tryRun(label, run, runs) {
  try {
    runs.push(run());
    return true;
  } catch (e) {
    missing.push(`${label}: ${e.message.split('\n')[0]}`);
    log(`  ${label}: FAILED ${e.message.slice(0, 300)}`);
    return false;
  }
}

/** N runs of `prepare()` then the measured command; a failure is recorded as missing, loudly. */
function measure(label, args, prepare = () => ({}), n = reps) {
  const runs = [];
  for (let i = 0; i < n; i++) {
    if (!tryRun(label, () => { const opts = prepare(i); return once(typeof args === 'function' ? args(opts) : args); }, runs)) return null;
  }
  return summary(runs);
}

function aureus(args, cwd) {
  const p = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { ...env, AUREUS_BENCH_PROBE: '' }, cwd, maxBuffer: 1 << 28 });
  if (p.status !== 0) throw new Error(`aureus ${args.join(' ')} exited ${p.status}: ${(p.stderr || p.stdout).slice(-400)}`);
}

const results = { reps, load: os.loadavg().map((x) => r1(x)), cpus: os.cpus().length, node: process.version };

log(`(e) CLI start-up, ${reps} runs each…`);
if (only.has('startup')) {
  results.node_e0 = measure('node -e 0', ['-e', '0']);
  results.help = measure('aureus --help', [bin, '--help']);
}

if (only.has('episode')) log('(e) offline episode run on a fresh starter world…');
if (only.has('episode')) results.episode_run = measure('episode run', (o) => [bin, '-C', o.world, 'episode', 'run', '--provider', 'offline', '--json'], (i) => {
  const world = path.join(tmp, `starter-${i}`);
  aureus(['init', world]);
  return { world };
});

// Planning by world size: DPRR 100–44 BC (3,450 persons) cut to 100 and 1,000 characters, whole,
// and a synthetic world of 10,000 characters (6,667 principals + 3,333 supporting characters).
const worlds = [];
try {
  requireDprrData();
  for (const limit of only.has('plan') ? [100, 1000, null].filter((l) => sizes.has(String(l ?? 'all'))) : []) {
    const dir = path.join(tmp, `dprr-${limit ?? 'all'}`);
    log(`(e) importing DPRR ${limit ?? 'all'}…`);
    aureus(['import', 'dprr', dir, '--from', '-100', '--to', '-44', ...(limit ? ['--limit', String(limit)] : [])]);
    worlds.push({ label: limit ? `DPRR top ${limit}` : 'DPRR 100–44 BC', dir, chars: JSON.parse(readFileSync(path.join(dir, 'world/characters.json'), 'utf8')).characters?.length ?? null });
  }
} catch (e) {
  missing.push(`DPRR worlds: ${e.message.split('\n')[0]}`);
}
if (only.has('plan') && sizes.has('10000')) try {
  const dir = path.join(tmp, 'synthetic-10000');
  log('(e) generating the synthetic 10,000-character world…');
  aureus(['import', 'synthetic', dir, '--principals', '6667']);
  worlds.push({ label: 'synthetic', dir, chars: 10000 });
} catch (e) {
  missing.push(`synthetic 10,000-character world: ${e.message.split('\n')[0]}`);
}
// The worlds take turns, one run each per round (the 10,000-character world in the first 3 rounds
// only), so that a drift of the machine's speed during the bench (this VM's runs of the same command
// vary by a third from one minute to the next) falls on every size alike instead of on the growth
// ratios between them.
if (worlds.length) log(`(e) episode plan on ${worlds.map((w) => `${w.label} (${w.chars} characters)`).join(', ')}, taking turns…`);
const planRuns = worlds.map(() => []);
const planFailed = new Set();
for (let i = 0; i < reps; i++) {
  worlds.forEach((w, k) => {
    if (planFailed.has(k) || i >= (w.chars >= 10000 ? Math.min(reps, 3) : reps)) return;
    // The synthetic world's relationships.json is just over the store's 10 MB cap: raised knowingly.
    if (w.chars >= 10000) env.AUREUS_MAX_FILE_BYTES = String(64 * 1024 * 1024);
    const run = () => once([bin, '-C', w.dir, 'episode', 'plan', '--provider', 'offline', '--json']);
    if (!tryRun(`episode plan ${w.label}`, run, planRuns[k])) planFailed.add(k);
    delete env.AUREUS_MAX_FILE_BYTES;
  });
}
results.plan = worlds.map((w, k) => ({ ...w, dir: undefined, ...(planFailed.has(k) ? null : summary(planRuns[k])) }));
rmSync(tmp, { recursive: true, force: true });

// Targets (issue 18). Growth: CPU ratio per 10× characters, from 100 to 10,000.
const byChars = (c) => results.plan.find((p) => p.chars === c);
const dprrAll = results.plan.find((p) => p.label === 'DPRR 100–44 BC');
const cpuAt = (c) => byChars(c)?.cpu_ms?.median ?? null;
const growth = (a, b) => (cpuAt(a) && cpuAt(b) ? r1(cpuAt(b) / cpuAt(a)) : null);
const targets = [
  ['`--help` ≤ 1.3× `node -e 0` (wall)', results.help && results.node_e0 ? r1(results.help.wall_ms.median / results.node_e0.wall_ms.median) : null, (x) => x <= 1.3, '×'],
  ['`--help` ≤ 1.3× `node -e 0` (CPU)', results.help?.cpu_ms && results.node_e0?.cpu_ms ? r1(results.help.cpu_ms.median / results.node_e0.cpu_ms.median) : null, (x) => x <= 1.3, '×'],
  ['offline `episode run`, fresh starter world ≤ 1.2 s wall', results.episode_run?.wall_ms.median ?? null, (x) => x <= 1200, ' ms'],
  ['`episode plan` DPRR ≤ 1.5 s wall', dprrAll?.wall_ms?.median ?? null, (x) => x <= 1500, ' ms'],
  ['`episode plan` DPRR ≤ 300 MB', dprrAll?.rss_mb?.median ?? null, (x) => x <= 300, ' MB'],
  ['growth ≤ 1.5× per 10× characters, 100→1,000 (CPU)', growth(100, 1000), (x) => x <= 1.5, '×'],
  ['growth ≤ 1.5× per 10× characters, 1,000→10,000 (CPU)', growth(1000, 10000), (x) => x <= 1.5, '×'],
  ['10,000-character world ≤ 800 MB', byChars(10000)?.rss_mb?.median ?? null, (x) => x <= 800, ' MB'],
];
results.targets = targets.map(([name, value, ok, unit]) => ({ name, value, unit: unit.trim(), pass: value === null ? null : ok(value) }));

const fmt = (s, unit = '') => (s ? `${s.median}${unit} (${s.min}–${s.max}, n=${s.n})` : 'MISSING');
let md = `\n## CLI as a process (median of ${reps}, min–max; load average at start ${results.load.join(' / ')} on ${results.cpus} cores)\n\n| run | wall | CPU | peak RSS |\n|---|---|---|---|\n`;
const row = (label, s) => (md += `| ${label} | ${fmt(s?.wall_ms, ' ms')} | ${fmt(s?.cpu_ms, ' ms')} | ${fmt(s?.rss_mb, ' MB')} |\n`);
row('`node -e 0`', results.node_e0);
row('`aureus --help`', results.help);
row('`episode run` (offline, fresh starter world, commit included)', results.episode_run);
for (const p of results.plan) row(`\`episode plan\` ${p.label}, ${p.chars} characters`, p);
md += `\n## Issue 18 targets\n\n| target | measured | result |\n|---|---|---|\n`;
for (const t of results.targets) md += `| ${t.name} | ${t.value ?? 'MISSING'}${t.value === null ? '' : t.unit === '×' ? '×' : ' ' + t.unit} | ${t.pass === null ? 'MISSING' : t.pass ? 'pass' : 'FAIL'} |\n`;
if (missing.length) md += `\nMissing figures:\n${missing.map((m) => `- ${m}`).join('\n')}\n`;
process.stdout.write(md);
writeFileSync(path.join(ROOT, 'bench/results-cli.json'), JSON.stringify(results, null, 2) + '\n');
if (missing.length) {
  log(`bench: ${missing.length} figure(s) missing — failing`);
  process.exitCode = 1;
}
