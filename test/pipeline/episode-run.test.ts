import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, cli, copyRepo, git, makeWorld } from './world.js';

/**
 * `aureus episode run` on real temp git repositories: one offline episode compiled and committed
 * in beforeAll, then checks of what was committed and of the refusals.
 */
let root = '';
let pristine = '';
let summary: Record<string, any> = {};
let stderr = '';
let ms = 0;

beforeAll(async () => {
  // One scaffold, copied: every world in this file starts from the same bytes.
  pristine = await makeWorld('pristine');
  root = copyRepo(pristine, 'run');
  // A lock left by a process that no longer exists: stale, removed with a warning.
  fs.mkdirSync(path.join(root, '.aureus'), { recursive: true });
  fs.writeFileSync(path.join(root, '.aureus/lock'), JSON.stringify({ pid: 2 ** 22 + 12345, host: os.hostname(), since: '2020-01-01T00:00:00Z', command: 'episode run' }));
  const t0 = performance.now();
  const r = await cli(['episode', 'run', '--json'], root);
  ms = performance.now() - t0;
  stderr = r.stderr;
  if (r.code !== 0) throw new Error(`episode run failed (${r.code}): ${r.stderr}`);
  summary = JSON.parse(r.stdout);
}, 300_000);
afterAll(cleanup);

const EPISODE_FILES = [
  'episode_context.json',
  'agent_proposals.json',
  'episode_plan.json',
  'episode_script.md',
  'episode_deltas.json',
  'verifier_report.json',
  'cliffhanger_constraints.json',
  'episode_metrics.json',
  'recap.md',
  'run_log.jsonl',
];

describe('aureus episode run', () => {
  it('commits the episode with its message and an annotated tag', () => {
    console.info(`offline episode s01e01 compiled and committed in ${Math.round(ms)} ms`);
    expect(summary.status).toBe('committed');
    expect(summary.episode).toBe('s01e01');
    expect(summary.tag).toBe('s01e01');
    expect(summary.commit).toBe(git(root, 'rev-parse', 'HEAD'));
    expect(git(root, 'cat-file', '-t', 's01e01')).toBe('tag');
    expect(git(root, 'rev-parse', 's01e01^{commit}')).toBe(summary.commit);
    const msg = git(root, 'log', '-1', '--format=%B');
    const lines = msg.split('\n');
    expect(lines[0]).toBe(`S01E01: ${summary.title}`);
    expect(lines[1]).toBe('');
    expect(lines[2]).toMatch(/^Previously on /);
    for (const t of ['Provider: offline', 'Models: ', `Seed: ${summary.seed}`, 'Tokens: ', 'Cost: $0.0000']) expect(msg).toContain(`\nAureus-${t}`);
    // git itself parses them as trailers.
    const trailers = git(root, 'log', '-1', '--format=%(trailers:only,unfold)');
    expect(trailers).toContain(`Aureus-Seed: ${summary.seed}`);
  });

  it('commits only the world files and the episode folder', () => {
    const files = git(root, 'show', '--pretty=format:', '--name-only', 'HEAD').split('\n').filter(Boolean);
    expect(files.length).toBeGreaterThan(EPISODE_FILES.length);
    for (const f of files) expect(f).toMatch(/^(world\/|operators\/|seasons\/season_01\/episode_01\/)/);
    const dir = path.join(root, 'seasons/season_01/episode_01');
    for (const f of EPISODE_FILES) expect(fs.existsSync(path.join(dir, f)), f).toBe(true);
    const packets = fs.readdirSync(path.join(dir, 'packets'));
    expect(packets.length).toBe(summary.scenes);
    expect(git(root, 'status', '--porcelain')).toBe('');
    // The run folder and the lock are gone; the stale lock was reported.
    expect(fs.existsSync(path.join(root, '.aureus/lock'))).toBe(false);
    expect(fs.readdirSync(path.join(root, '.aureus/runs'))).toEqual([]);
    expect(summary.warnings.map((w: { code: string }) => w.code)).toContain('AUR6003');
    expect(stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('leaves a world file the episode does not change as the author formatted it; a changed one keeps its layout', async () => {
    const formatted = copyRepo(pristine, 'formatted');
    const fourSpaces = (rel: string) => fs.writeFileSync(path.join(formatted, rel), JSON.stringify(JSON.parse(fs.readFileSync(path.join(formatted, rel), 'utf8')), null, 4) + '\n');
    fourSpaces('world/factions.json');
    fourSpaces('world/world.json');
    git(formatted, 'commit', '-qam', 'four spaces');
    const before = fs.readFileSync(path.join(formatted, 'world/factions.json'), 'utf8');
    const r = await cli(['episode', 'run', '--json'], formatted);
    expect(r.code, r.stderr).toBe(0);
    const changed = git(formatted, 'show', '--pretty=format:', '--name-only', 'HEAD').split('\n');
    // No delta of this episode touches the factions (the offline seed is fixed): no rewrite, no diff.
    expect(changed).not.toContain('world/factions.json');
    expect(fs.readFileSync(path.join(formatted, 'world/factions.json'), 'utf8')).toBe(before);
    // The calendar moves every episode: world.json is written, in its author's 4-space layout (core/json-layout.ts),
    // so its diff is the episode's change only.
    expect(changed).toContain('world/world.json');
    expect(fs.readFileSync(path.join(formatted, 'world/world.json'), 'utf8')).toMatch(/^\{\n {4}"/);
    const stat = git(formatted, 'diff', '--numstat', 'HEAD~1', 'HEAD', '--', 'world/world.json').trim().split('\t');
    expect(Number(stat[0])).toBeLessThan(20);
    expect(git(formatted, 'status', '--porcelain')).toBe('');
  }, 300_000);

  it('records every applied delta with provenance, in scene order', () => {
    const dir = path.join(root, 'seasons/season_01/episode_01');
    const deltas = JSON.parse(fs.readFileSync(path.join(dir, 'episode_deltas.json'), 'utf8')).deltas as { path: string; provenance: { episode: string; scene: string; event: string; operator: string | null } }[];
    const plan = JSON.parse(fs.readFileSync(path.join(dir, 'episode_plan.json'), 'utf8'));
    expect(deltas.length).toBeGreaterThan(20);
    const order = plan.scenes.map((s: { id: string }) => s.id);
    const sceneDeltas = deltas.filter((d) => d.provenance.operator !== null);
    const idx = sceneDeltas.map((d) => order.indexOf(d.provenance.scene));
    expect(idx.every((v, i) => v >= 0 && (i === 0 || v >= idx[i - 1]))).toBe(true);
    for (const d of deltas) expect(d.provenance.episode).toBe('s01e01');
    // Every required delta of the plan is there, attributed to its operator.
    const required = plan.beats.flatMap((b: any) => b.applications.flatMap((a: any) => a.required_deltas.map((r: any) => `${b.scene}|${a.operator_id}|${r.path}`)));
    const got = new Set(sceneDeltas.map((d) => `${d.provenance.scene}|${d.provenance.operator}|${d.path}`));
    for (const r of required) expect(got.has(r), r).toBe(true);
    // Thread progress is bookkept for the advanced threads.
    const threads = JSON.parse(fs.readFileSync(path.join(root, 'world/threads.json'), 'utf8')).threads;
    for (const id of plan.threads_advanced) expect(threads.find((t: any) => t.id === id).last_progress_episode).toBe(1);
  });

  it('writes the script in the spec §11.1 format, the metrics, the cliffhanger and the recap', () => {
    const dir = path.join(root, 'seasons/season_01/episode_01');
    const script = fs.readFileSync(path.join(dir, 'episode_script.md'), 'utf8');
    expect(script.match(/^## SC\d{2} — (INT|EXT)\. .+ - [A-Z]+$/gm)?.length).toBe(summary.scenes);
    expect(script).toMatch(/^\*\*Cast:\*\* .+$/m);
    expect(script).toMatch(/^> [A-Z][A-Z .'-]+: .+$/m);
    const metrics = JSON.parse(fs.readFileSync(path.join(dir, 'episode_metrics.json'), 'utf8'));
    expect(metrics.tension_curve.length).toBe(summary.scenes);
    expect(metrics.acts.length).toBeGreaterThanOrEqual(3);
    for (const a of metrics.acts) for (const k of ['tension', 'pacing', 'volatility']) expect(a[k]).toBeGreaterThanOrEqual(0);
    const ch = JSON.parse(fs.readFileSync(path.join(dir, 'cliffhanger_constraints.json'), 'utf8'));
    expect(ch.episode_id).toBe('s01e01');
    expect(ch.must_start_immediately).toBe(ch.kind === 'physical_danger');
    const recap = fs.readFileSync(path.join(dir, 'recap.md'), 'utf8');
    expect(recap).toContain('Previously on');
    for (const label of ['Unrest', 'Grain', 'courts']) expect(recap).toContain(label);
    expect(recap).toContain('## Threads');
  });

  it('leaves a valid world behind', async () => {
    const v = await cli(['validate'], root);
    expect(v.stderr).toBe('');
    expect(v.code).toBe(0);
  });

  it('refuses uncommitted world changes with exit 8 and touches nothing', async () => {
    const w = copyRepo(root, 'dirty');
    const head = git(w, 'rev-parse', 'HEAD');
    fs.appendFileSync(path.join(w, 'world/world.json'), '\n');
    const r = await cli(['episode', 'run'], w);
    expect(r.code).toBe(8);
    expect(r.stderr).toContain('AUR6001');
    expect(r.stderr).toContain('world/world.json');
    expect(git(w, 'rev-parse', 'HEAD')).toBe(head);
    expect(fs.existsSync(path.join(w, '.aureus/lock'))).toBe(false);
  });

  it('refuses with exit 9 while a live process holds the lock', async () => {
    const w = copyRepo(root, 'locked');
    const sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      fs.writeFileSync(path.join(w, '.aureus/lock'), JSON.stringify({ pid: sleeper.pid, host: os.hostname(), since: new Date().toISOString(), command: 'episode run' }));
      const r = await cli(['episode', 'run'], w);
      expect(r.code).toBe(9);
      expect(r.stderr).toContain('AUR6002');
      expect(r.stderr).toContain(String(sleeper.pid));
      expect(fs.existsSync(path.join(w, '.aureus/lock'))).toBe(true); // not ours to remove
    } finally {
      sleeper.kill();
    }
  });

  it('refuses an episode that is already committed, or out of order, with a usage error', async () => {
    const again = await cli(['episode', 'run', '--episode', '1'], root);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('AUR6009');
    const skip = await cli(['episode', 'run', '--episode', '3'], root);
    expect(skip.code).toBe(2);
    expect(skip.stderr).toContain('AUR6015');
    const bad = await cli(['episode', 'run', '--episode', '../1'], root);
    expect(bad.code).toBe(2);
  });

  it('with --no-commit stages everything in the run folder; a plain re-run resumes and commits the same tree', async () => {
    const w = copyRepo(pristine, 'nocommit');
    const head = git(w, 'rev-parse', 'HEAD');
    const r = await cli(['episode', 'run', '--no-commit', '--json'], w);
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s.status).toBe('staged');
    expect(s.commit).toBeNull();
    expect(git(w, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(w, 'status', '--porcelain')).toBe('');
    expect(fs.existsSync(path.join(w, s.script))).toBe(true);
    const again = await cli(['episode', 'run', '--json'], w);
    expect(again.code).toBe(0);
    const s2 = JSON.parse(again.stdout);
    expect(s2.resumed.planning).toBe(true);
    expect(s2.seed).toBe(summary.seed);
    expect(git(w, 'rev-parse', 'HEAD^{tree}')).toBe(git(root, 'rev-parse', 'HEAD^{tree}'));
  });

  it('exhausted repair budget: exit 5, nothing committed, the report kept; the run resumes', async () => {
    const w = copyRepo(pristine, 'budget');
    const cfg = path.join(w, 'aureus.config.yaml');
    fs.writeFileSync(cfg, fs.readFileSync(cfg, 'utf8').replace(/per_episode: \d+/, 'per_episode: 1'));
    git(w, 'commit', '-q', '-am', 'tight budget');
    const head = git(w, 'rev-parse', 'HEAD');
    const r = await cli(['episode', 'run', '--chaos', '1'], w);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('AUR6007');
    expect(git(w, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(w, 'status', '--porcelain')).toBe('');
    const [run] = fs.readdirSync(path.join(w, '.aureus/runs'));
    const report = JSON.parse(fs.readFileSync(path.join(w, '.aureus/runs', run, 'verifier_report.json'), 'utf8'));
    expect(report.verdict).toBe('FAIL');
    expect(report.budget.used).toBe(1);
    // Without the defects, the same run (same folder, planning from its checkpoint) goes through.
    const again = await cli(['episode', 'run', '--json'], w);
    expect(again.code, again.stderr).toBe(0);
    const s2 = JSON.parse(again.stdout);
    expect(s2.run_dir).toBe(`.aureus/runs/${run}`);
    expect(s2.resumed.planning).toBe(true);
    expect(s2.status).toBe('committed');
  }, 300_000);
});
