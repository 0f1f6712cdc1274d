// `node bench/plan-identity.mjs save|check [--bin path/to/bin/aureus.js] [--dir /tmp/aureus-plan-identity]`:
// the byte-identity check of issue 18's planning passes. A speed change to planning must leave every output
// the same per seed, so this plans four worlds — DPRR 100–44 BC whole, DPRR --limit 100, the starter world
// and the synthetic 10,000-character world — and runs a seeded offline episode on the starter world, then
// records every file of each plan's run folder, the `--json` stdout and the episode's committed tree
// (`save`, with the unchanged build) or compares them with what was saved (`check`, with the changed one).
// The worlds are imported once by the `save` build and each command runs on a fresh copy of them.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './lib.mjs';

const arg = (name, dflt) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : dflt);
const mode = process.argv[2];
if (mode !== 'save' && mode !== 'check') {
  process.stderr.write('usage: node bench/plan-identity.mjs save|check [--bin bin/aureus.js] [--dir DIR]\n');
  process.exit(2);
}
const bin = path.resolve(arg('--bin', path.join(ROOT, 'bin/aureus.js')));
const dir = path.resolve(arg('--dir', path.join(os.tmpdir(), 'aureus-plan-identity')));
// The synthetic world's characters and relationships files are over the store's 10 MB cap: raised
// knowingly, as bench/cli.mjs does.
const env = { ...process.env, NO_COLOR: '1', ANTHROPIC_API_KEY: '', AUREUS_MAX_FILE_BYTES: String(64 * 1024 * 1024) };

function aureus(args, cwd) {
  const p = spawnSync(process.execPath, [bin, ...args], { cwd, env, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (p.status !== 0) throw new Error(`aureus ${args.join(' ')} (in ${cwd}) exited ${p.status}: ${(p.stderr || p.stdout).slice(-600)}`);
  return p.stdout;
}
const git = (args, cwd) => spawnSync('git', args, { cwd, encoding: 'utf8' }).stdout.trim();

const worlds = {
  dprr: ['import', 'dprr', '{}', '--from', '-100', '--to', '-44'],
  dprr100: ['import', 'dprr', '{}', '--from', '-100', '--to', '-44', '--limit', '100'],
  starter: ['init', '{}'],
  synthetic: ['import', 'synthetic', '{}', '--principals', '6667'],
};

/** Every file under `root`, path → contents (relative paths, sorted). */
function filesUnder(root, rel = '') {
  const out = {};
  for (const e of readdirSync(path.join(root, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const r = path.join(rel, e.name);
    if (e.isDirectory()) Object.assign(out, filesUnder(root, r));
    else out[r] = readFileSync(path.join(root, r), 'utf8');
  }
  return out;
}

/** One world's outputs: the plan's run folder and stdout; for the starter world also a seeded episode's commit. */
function outputs(name) {
  const source = path.join(dir, 'worlds', name);
  if (!existsSync(source)) aureus(worlds[name].map((a) => (a === '{}' ? source : a)), ROOT);
  const work = path.join(dir, 'work', name);
  rmSync(work, { recursive: true, force: true });
  cpSync(source, work, { recursive: true });
  const result = { stdout: aureus(['episode', 'plan', '--provider', 'offline', '--json'], work) };
  result.files = filesUnder(path.join(work, '.aureus', 'runs'));
  if (name === 'starter') {
    const ep = path.join(dir, 'work', 'starter-episode');
    rmSync(ep, { recursive: true, force: true });
    cpSync(source, ep, { recursive: true });
    // The commit's hash carries its date; the tree, message and tag below are what must not change.
    result.episode_stdout = JSON.stringify({ ...JSON.parse(aureus(['episode', 'run', '--provider', 'offline', '--seed', '7', '--json'], ep)), commit: undefined });
    result.episode_tree = git(['rev-parse', 'HEAD^{tree}'], ep);
    result.episode_message = git(['log', '-1', '--format=%B'], ep);
    result.episode_tags = git(['tag', '--points-at', 'HEAD'], ep);
  }
  return result;
}

mkdirSync(dir, { recursive: true });
let failed = 0;
for (const name of Object.keys(worlds)) {
  const t = performance.now();
  const got = outputs(name);
  const saved = path.join(dir, `baseline-${name}.json`);
  if (mode === 'save') {
    writeFileSync(saved, JSON.stringify(got));
    process.stdout.write(`${name}: saved ${Object.keys(got.files).length} files (${Math.round(performance.now() - t)} ms)\n`);
    continue;
  }
  const want = JSON.parse(readFileSync(saved, 'utf8'));
  const diffs = [];
  for (const k of new Set([...Object.keys(want.files), ...Object.keys(got.files)])) {
    if (want.files[k] !== got.files[k]) diffs.push(`file ${k}`);
  }
  for (const k of Object.keys(want)) if (k !== 'files' && want[k] !== got[k]) diffs.push(k);
  failed += diffs.length;
  process.stdout.write(`${name}: ${diffs.length ? `DIFFERS: ${diffs.slice(0, 8).join(', ')}` : `identical (${Object.keys(got.files).length} files)`} (${Math.round(performance.now() - t)} ms)\n`);
}
process.exit(failed ? 1 : 0);
