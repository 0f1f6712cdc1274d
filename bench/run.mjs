// `npm run bench`: scale of the symbolic stages, wall time against the critical path, prompt
// tokens against naive full-world prompting; then bench/cli.mjs: the CLI as a process (start-up, a
// whole offline episode, planning by world size) with the issue-18 targets.
// Writes bench/results.json (git-ignored) and prints markdown tables. See README "Benchmarks".
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { benchArgs, median, r1, requireDprrData, ROOT, runChild } from './lib.mjs';

const USAGE = `Usage: node bench/run.mjs [--quick]   (npm run bench builds first, then runs this)

Symbolic stages by world size, episode wall time against its critical path, prompt tokens, then the CLI as a
process (bench/cli.mjs) with the issue-18 targets. Figures to bench/results.json and bench/results-cli.json.
  --quick   sizes 10 and 100 only, 3 runs per CLI figure

Example:
  node bench/run.mjs --quick`;
const quick = benchArgs({ quick: { type: 'boolean', default: false } }, USAGE).quick;
const SIZES = quick ? [10, 100] : [10, 100, 1000, 10000];
const REPS = { 10: 5, 100: 1, 1000: 1, 10000: 1 };
const CAP_MS = { 10: 60_000, 100: 120_000, 1000: 120_000, 10000: 120_000 };
const STAGES = ['A', 'C', 'D', 'F', 'H'];
const LATENCY = 50;
const log = (s) => process.stderr.write(s + '\n');
const results = { node: process.version, cpus: os.cpus().length, date_note: 'figures vary by machine; compare ratios, not absolutes', stages: {}, episode: {} };

// The small sizes are real DPRR worlds: without the tables the bench would measure nothing there.
try {
  requireDprrData();
} catch (e) {
  log(`bench: ${e.message}`);
  process.exit(1);
}

// (a) symbolic stages by world size, each size in its own process (own peak RSS, killable at the cap).
for (const size of SIZES) {
  log(`(a) stages on ${size} principals (cap ${CAP_MS[size] / 1000}s)…`);
  const r = await runChild('stages.mjs', [String(size), String(REPS[size])], CAP_MS[size]);
  const by = Object.fromEntries(r.lines.map((l) => [l.stage, l]));
  results.stages[size] = {
    source: by.build?.source ?? null,
    characters: by.build?.characters ?? null,
    relationships: by.build?.relationships ?? null,
    build_ms: by.build?.ms ?? null,
    B_ms: by.B?.ms ?? null,
    packet_tokens: by['D-tokens']?.packet_tokens ?? null,
    timed_out: r.timedOut,
    error: !r.timedOut && r.code !== 0 ? r.stderr.split('\n').filter(Boolean).slice(-3).join(' | ') : null,
    stages: Object.fromEntries(STAGES.map((s) => [s, by[s] ? { ms: by[s].ms, runs: by[s].runs, peak_rss_mb: by[s].rss_mb } : null])),
  };
}

// (b) + (c) episode wall time with a fixed-latency provider, concurrency 1 and 8, against the
// critical path and the naive sequential full-world pipeline.
for (const c of [1, 8]) {
  const runs = [];
  for (let i = 0; i < 3; i++) {
    log(`(b) episode, ${LATENCY} ms per call, concurrency ${c}, run ${i + 1}/3…`);
    const r = await runChild('episode.mjs', [String(LATENCY), String(c), ...(i === 0 && c === 1 ? ['naive'] : [])], 180_000);
    if (r.lines[0]) runs.push(r.lines[0]);
    else log(`  failed: ${r.stderr.split('\n').slice(-3).join(' | ')}`);
  }
  if (!runs.length) continue;
  const first = runs[0];
  results.episode[`c${c}`] = {
    wall_ms: r1(median(runs.map((x) => x.wall_ms))),
    phases_ms: first.phases_ms,
    calls: first.calls,
    calls_by_role: first.calls_by_role,
    critical_path_depth: first.critical_path_depth,
    peak_in_flight: first.peak_in_flight,
    critical_path_ms: first.critical_path_ms,
    ...(first.naive_wall_ms !== undefined ? { naive_wall_ms: first.naive_wall_ms } : {}),
    tokens: {
      aureus_input: first.aureus_input_tokens,
      naive_input: first.naive_input_tokens,
      world: first.world_tokens,
      writer_input: first.writer_input_tokens,
      writer_static_prefix: first.writer_static_tokens,
    },
  };
}

// (d) the offline play turn (issue 15 target: ≤ 200 ms a turn, canonization excluded).
log('(d) play: 20 offline turns…');
{
  const r = await runChild('play.mjs', [], 60_000);
  results.play = r.lines[0] ?? { error: r.stderr.split('\n').filter(Boolean).slice(-3).join(' | ') };
}

// Growth factors between consecutive sizes (time ratio; ~10 for linear over 10x sizes).
const growth = {};
for (const s of STAGES) {
  growth[s] = {};
  for (let i = 1; i < SIZES.length; i++) {
    const a = results.stages[SIZES[i - 1]]?.stages[s]?.ms;
    const b = results.stages[SIZES[i]]?.stages[s]?.ms;
    growth[s][`${SIZES[i - 1]}→${SIZES[i]}`] = a && b ? r1(b / Math.max(a, 0.05)) : null;
  }
}
results.growth = growth;

// (e) the wire: one episode through the real SDK against a local Messages API (bench/wire.mjs).
log('(e) wire benchmark: an episode over the Messages API wire, concurrency 8…');
{
  const r = await runChild('wire.mjs', ['8'], 300_000);
  results.wire = r.lines?.[0] ?? { error: r.timedOut ? 'timed out' : `exit ${r.code}` };
}

// (f) the prose checks of issue 14 on the planted-defect corpus (bench/prose.mjs): recall per class,
// hard findings on near misses and clean drafts, and the median ms to verify one scene.
log('(f) prose corpus: recall per class, false positives, scene verify ms…');
{
  const r = await runChild('prose.mjs', [quick ? '2' : '5'], 120_000);
  results.prose = r.lines?.[0] ?? { error: r.timedOut ? 'timed out' : r.stderr.split('\n').filter(Boolean).slice(-3).join(' | ') || `exit ${r.code}` };
}

await writeFile(path.join(ROOT, 'bench/results.json'), JSON.stringify(results, null, 2) + '\n');

// Markdown.
const cell = (x, unit = '') => (x === null || x === undefined ? '—' : `${x}${unit}`);
let md = `\n## Symbolic stages (median ms; peak RSS MB of the process so far)\n\n| principals | world | ${STAGES.map((s) => `${s} ms`).join(' | ')} | peak RSS | B ms (aside) | packet tokens |\n|${'---|'.repeat(STAGES.length + 5)}\n`;
for (const size of SIZES) {
  const r = results.stages[size];
  const rss = Math.max(0, ...STAGES.map((s) => r.stages[s]?.peak_rss_mb ?? 0));
  const cut = r.timed_out ? ` (cap ${CAP_MS[size] / 1000}s hit)` : r.error ? ' (error)' : '';
  md += `| ${size} | ${r.characters ?? '—'} chars, ${r.relationships ?? '—'} edges${cut} | ${STAGES.map((s) => cell(r.stages[s]?.ms)).join(' | ')} | ${rss || '—'} | ${cell(r.B_ms)} | ${cell(r.packet_tokens)} |\n`;
}
md += `\nGrowth factor (time ratio between sizes; 10 = linear):\n\n| stage | ${SIZES.slice(1).map((s, i) => `${SIZES[i]}→${s}`).join(' | ')} |\n|${'---|'.repeat(SIZES.length)}\n`;
for (const s of STAGES) md += `| ${s} | ${SIZES.slice(1).map((x, i) => cell(growth[s][`${SIZES[i]}→${x}`], '×')).join(' | ')} |\n`;
const e1 = results.episode.c1, e8 = results.episode.c8;
if (e1 && e8) {
  md += `\n## Episode wall time, ${LATENCY} ms per call (starter world, ${e1.calls} calls)\n\n| run | wall ms | ÷ critical path (${e1.critical_path_ms} ms, depth ${e1.critical_path_depth}) | naive ÷ this |\n|---|---|---|---|\n`;
  md += `| Aureus, concurrency 1 | ${e1.wall_ms} | ${r1(e1.wall_ms / e1.critical_path_ms)}× | ${r1(e1.naive_wall_ms / e1.wall_ms)}× |\n`;
  md += `| Aureus, concurrency 8 | ${e8.wall_ms} | ${r1(e8.wall_ms / e8.critical_path_ms)}× | ${r1(e1.naive_wall_ms / e8.wall_ms)}× |\n`;
  md += `| naive sequential, whole world per prompt | ${e1.naive_wall_ms} | ${r1(e1.naive_wall_ms / e1.critical_path_ms)}× | 1× |\n`;
  md += `\nPhases at concurrency 8 (ms): planning A–D ${e8.phases_ms.planning_AD}, scenes E–G ${e8.phases_ms.scenes_EG}, H + recap ${e8.phases_ms.commit_H_recap}. Most calls in flight at once: ${Object.entries(e8.peak_in_flight).map(([k, v]) => `${k} ${v}`).join(', ')}.\n`;
  const t = e1.tokens;
  md += `\n## Prompt tokens per episode (estimated, chars ÷ 4)\n\n| | input tokens |\n|---|---|\n| Aureus (packets) | ${t.aureus_input} |\n| naive (whole world, ${t.world} tokens, in every prompt) | ${t.naive_input} |\n| ratio naive ÷ Aureus | ${r1(t.naive_input / t.aureus_input)}× |\n| writer input that is the cacheable static prefix | ${r1((100 * t.writer_static_prefix) / t.writer_input)}% |\n`;
}
md += `\n## Play\n\n| | ms |\n|---|---|\n| offline play turn, median / max of 20 (target ≤ 200) | ${cell(results.play?.median_ms)} / ${cell(results.play?.max_ms)} |\n`;
const wr = results.wire;
if (wr && !wr.error) {
  const mark = (ok) => (ok ? '✓' : '✗');
  md += `\n## The wire (real SDK, local Messages API: 200 ms + 1 ms per output token; writer 1,000 output tokens with thinking, director 3,000, critic 300)\n\n| | figure | target |\n|---|---|---|\n`;
  md += `| episode cost at default routing | $${wr.cost_usd} | ≤ $0.50 ${mark(wr.cost_usd <= 0.5)} |\n`;
  md += `| the same calls through --batch (half price) | $${wr.batch_cost_usd} | ≤ $0.25 ${mark(wr.batch_cost_usd <= 0.25)} |\n`;
  md += `| writer input read from the prompt cache | ${wr.writer_cached_share}% | ≥ 60% ${mark(wr.writer_cached_share >= 60)} |\n`;
  md += `| wall ÷ critical-path bound, concurrency 8 | ${wr.wall_ms} ms ÷ ${wr.bound_ms} ms = ${wr.wall_over_bound}× | ≤ 1.3× ${mark(wr.wall_over_bound <= 1.3)} |\n`;
  md += `| requests a 5.x model would refuse | ${wr.rejected_requests} | 0 ${mark(wr.rejected_requests === 0)} |\n`;
  md += `\nCost by role: ${Object.entries(wr.cost_by_role).map(([k, v]) => `${k} $${v}`).join(', ')}. Calls: ${Object.entries(wr.calls_by_role).map(([k, v]) => `${k} ${v}`).join(', ')}.\n`;
}
md += proseMarkdown(results.prose);
// A size that failed says why under the table, and the bench exits non-zero: never a silent "—".
const failed = SIZES.filter((size) => results.stages[size].error || results.stages[size].timed_out);
for (const size of failed) md += `\n${size} principals: ${results.stages[size].timed_out ? `cap ${CAP_MS[size] / 1000}s hit` : `error: ${results.stages[size].error}`}\n`;
process.stdout.write(md);
log('\nwrote bench/results.json');
if (failed.some((size) => !results.stages[size].timed_out)) process.exitCode = 1;
// Missing corpus data or a crash in the prose bench is a failure, not a blank section.
if (results.prose?.error) {
  log(`bench: prose section failed: ${results.prose.error}`);
  process.exitCode = 1;
}

// (e) the real CLI as a process: start-up, a whole offline episode, planning by world size, with
// the issue-18 targets (bench/cli.mjs; its figures go to bench/results-cli.json).
log('\n(e) the CLI as a process (bench/cli.mjs)…');
const cliRun = spawnSync(process.execPath, [path.join(ROOT, 'bench/cli.mjs'), '--reps', quick ? '3' : '5'], { stdio: 'inherit' });
if (cliRun.status !== 0) process.exitCode = 1;

/** The prose section: recall per class (target ≥ 95%), near misses (≤ 2% hard), clean (0), verify ms (≤ 300). */
function proseMarkdown(p) {
  if (!p || p.error) return `\n## Prose checks (issue 14)\n\nerror: ${p?.error ?? 'not run'}\n`;
  const mark = (ok) => (ok ? '✓' : '✗');
  let out = `\n## Prose checks (issue 14: test/fixtures/prose-corpus, ${p.files} files)\n\n| class | caught / planted | recall | target ≥ 95% |\n|---|---|---|---|\n`;
  for (const [fam, r] of Object.entries(p.recall)) out += `| ${fam} | ${r.caught} / ${r.planted} | ${r.recall_pct}% | ${mark(r.recall_pct >= 95)} |\n`;
  out += `\n| | figure | target |\n|---|---|---|\n`;
  out += `| near-miss controls with a hard finding | ${p.controls_hard.length} / ${p.controls} (${p.controls_hard_pct}%) | ≤ 2% ${mark(p.controls_hard_pct <= 2)} |\n`;
  out += `| clean drafts with any finding | ${p.clean_with_findings.length} / ${p.clean} | 0 ${mark(p.clean_with_findings.length === 0)} |\n`;
  out += `| scene verify, median ms per scene (max) | ${p.verify_ms_median} (${p.verify_ms_max}) | ≤ 300 ${mark(p.verify_ms_median <= 300)} |\n`;
  return out;
}
