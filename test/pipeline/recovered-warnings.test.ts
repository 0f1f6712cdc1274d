import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli, cleanup, cli, copyRepo, git, makeWorld, spawnCli } from './world.js';
import { startFakeAnthropic, type FakeAnthropicServer } from '../support/fake-anthropic-server.js';
import { realStyleModel } from '../reliability/real-style-model.js';

/**
 * A commit rolled forward from its journal (the run killed once the journal was written; the next
 * command finishes it) reports the warnings its run kept in its checkpoints, as the commit would
 * have had it not been cut: here planning's AUR3004, a previous cliffhanger at a location gone.
 */
afterAll(cleanup);

/** A world whose first episode is committed, its cliffhanger edited by hand to open at a location no world file has. */
async function worldWithLostCliffhanger(): Promise<string> {
  const root = await makeWorld('recovered-warnings');
  expect((await cli(['episode', 'run'], root)).code).toBe(0);
  const rel = 'seasons/season_01/episode_01/cliffhanger_constraints.json';
  const cliff = JSON.parse(fs.readFileSync(path.join(root, rel), 'utf8')) as Record<string, unknown>;
  fs.writeFileSync(path.join(root, rel), JSON.stringify({ ...cliff, must_start_immediately: true, location: 'lost_villa' }, null, 2) + '\n');
  git(root, 'commit', '-qam', 'the cliffhanger opens at a lost villa');
  return root;
}

const LOST = 'the previous cliffhanger names location "lost_villa", which no longer exists or cannot act; it is left out of the opening';

describe.skipIf(!builtCli())('a commit rolled forward from its journal', () => {
  it('lists its run\'s planning warnings in --json, as the run would have (AUR3004), after AUR6004', async () => {
    const root = await worldWithLostCliffhanger();
    const killed = await spawnCli(['episode', 'run'], root, { AUREUS_TEST_KILL_AT: 'commit-staged' });
    expect(killed.signal, killed.stderr.slice(-400)).toBe('SIGKILL');
    // A run says its planning warnings at its end, which the kill cut off: the recovery is the only place left to say them.
    expect(killed.stderr).not.toContain('AUR3004');
    const r = await cli(['episode', 'run', '--json'], root);
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout) as { status: string; tag: string; warnings: { code: string; message: string }[] };
    expect([s.status, s.tag]).toEqual(['recovered', 's01e02']);
    // The killed run's lock taken over (AUR6003), its commit finished (AUR6004), then what its planning warned.
    expect(s.warnings.map((w) => w.code)).toEqual(['AUR6003', 'AUR6004', 'AUR3004']);
    expect(s.warnings[2]!.message).toBe(LOST);
  }, 120_000);

  it('says them on stderr without --json', async () => {
    const root = await worldWithLostCliffhanger();
    const killed = await spawnCli(['episode', 'run'], root, { AUREUS_TEST_KILL_AT: 'commit-staged' });
    expect(killed.signal, killed.stderr.slice(-400)).toBe('SIGKILL');
    const r = await cli(['episode', 'run'], root);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('✓ recovered S01E02');
    expect(r.stderr).toMatch(/AUR6004 finished the interrupted commit of s01e02[^\n]*\n[\s\S]*warning AUR3004 the previous cliffhanger names location "lost_villa"/);
  }, 120_000);
});

type Warned = { code: string; message: string }[];

const COMMITTED_REPORT = 'seasons/season_01/episode_01/verifier_report.json';

/** The report an AUR5097 names (`… (<path>)`), checked to be on disk under `root` when it is read. */
function namedReport(root: string, message: string): string {
  const rel = /\(([^()]*verifier_report\.json)\)$/.exec(message)?.[1] ?? '';
  expect(rel, message).not.toBe('');
  expect(fs.existsSync(path.join(root, rel)), `${rel} named by: ${message}`).toBe(true);
  return rel;
}

/**
 * AUR5097 (scenes accepted for manual review) is said from the E–G checkpoint the run folder keeps
 * (its `scenes`, kept up to date by scene rewrites and edits), as a resumed run says it. The run is
 * made with a local Messages API server whose critic never passes SC03: the offline provider has no
 * setting that leaves a scene for review on purpose. The report it names is one the reader can
 * open: the committed episode's once committed (the commit deletes the run folder), the run
 * folder's while the episode is not committed (--no-commit, a run stopped at its commit).
 */
describe.skipIf(!builtCli())('a commit rolled forward from its journal, with a scene accepted for manual review', () => {
  let server: FakeAnthropicServer;
  let pristine = '';
  beforeAll(async () => {
    server = await startFakeAnthropic({ handler: realStyleModel({ criticFails: new Set(['SC03']) }).handler });
    pristine = await makeWorld('recovered-review');
  }, 120_000);
  afterAll(async () => server?.close());
  const env = () => ({ ANTHROPIC_API_KEY: 'sk-ant-test-review', ANTHROPIC_BASE_URL: server.url });

  it('reports AUR5097 after AUR6004, worded as the uninterrupted run words it, on stderr as well as in --json', async () => {
    const whole = copyRepo(pristine, 'review-whole');
    const ran = await cli(['episode', 'run', '--provider', 'anthropic', '--json'], whole, env());
    expect(ran.code, ran.stderr.slice(-1500)).toBe(0);
    const said = (JSON.parse(ran.stdout) as { warnings: Warned }).warnings.filter((w) => w.code === 'AUR5097');
    expect(said).toHaveLength(1);
    expect(said[0]!.message).toBe(`1 scene(s) accepted for manual review: SC03 (${COMMITTED_REPORT})`);
    expect(namedReport(whole, said[0]!.message)).toBe(COMMITTED_REPORT);
    expect(ran.stderr).toContain(`warning AUR5097 ${said[0]!.message}`);

    const root = copyRepo(pristine, 'review-killed');
    const killed = await spawnCli(['episode', 'run', '--provider', 'anthropic'], root, { ...env(), AUREUS_TEST_KILL_AT: 'commit-staged' });
    expect(killed.signal, killed.stderr.slice(-400)).toBe('SIGKILL');
    expect(killed.stderr).not.toContain('AUR5097');
    const r = await cli(['episode', 'run', '--json'], root, env());
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout) as { status: string; tag: string; manual_review: number; warnings: Warned };
    expect([s.status, s.tag, s.manual_review]).toEqual(['recovered', 's01e01', 1]);
    const codes = s.warnings.map((w) => w.code);
    expect(codes.filter((c) => c === 'AUR5097')).toHaveLength(1);
    expect(codes.indexOf('AUR5097')).toBeGreaterThan(codes.indexOf('AUR6004'));
    expect(codes.indexOf('AUR6004')).toBeGreaterThanOrEqual(0);
    const review = s.warnings.find((w) => w.code === 'AUR5097')!;
    expect(review.message).toBe(said[0]!.message);
    expect(r.stderr).toContain(`warning AUR5097 ${review.message}`);
    expect(namedReport(root, review.message)).toBe(COMMITTED_REPORT);
    expect((JSON.parse(git(root, 'show', 'HEAD:seasons/season_01/episode_01/verifier_report.json')) as { manual_review: string[] }).manual_review).toEqual(['SC03']);
  }, 300_000);

  it('names the committed episode\'s report after a season run', async () => {
    const root = copyRepo(pristine, 'review-season');
    const r = await cli(['season', 'run', '--count', '1', '--provider', 'anthropic', '--json'], root, env());
    expect(r.code, r.stderr.slice(-1500)).toBe(0);
    const said = (JSON.parse(r.stdout) as { warnings: Warned }).warnings.filter((w) => w.code === 'AUR5097');
    expect(said).toHaveLength(1);
    expect(namedReport(root, said[0]!.message)).toBe(COMMITTED_REPORT);
    expect(r.stderr).toContain(`warning AUR5097 ${said[0]!.message}`);
  }, 300_000);

  it('names the run folder\'s report, left on disk, when the episode is not committed: --no-commit, a commit git refused', async () => {
    const staged = copyRepo(pristine, 'review-staged');
    const r = await cli(['episode', 'run', '--no-commit', '--provider', 'anthropic', '--json'], staged, env());
    expect(r.code, r.stderr.slice(-1500)).toBe(0);
    const s = JSON.parse(r.stdout) as { status: string; run_dir: string; warnings: Warned };
    expect(s.status).toBe('staged');
    const said = s.warnings.filter((w) => w.code === 'AUR5097');
    expect(said).toHaveLength(1);
    expect(namedReport(staged, said[0]!.message)).toBe(`${s.run_dir}/verifier_report.json`);
    expect(fs.existsSync(path.join(staged, COMMITTED_REPORT))).toBe(false);

    // A stale index lock: git refuses the commit, which is rolled back (exit 10); the run folder stays.
    const stopped = copyRepo(pristine, 'review-stopped');
    fs.writeFileSync(path.join(stopped, '.git/index.lock'), '');
    const failed = await cli(['episode', 'run', '--provider', 'anthropic'], stopped, env());
    expect(failed.code, failed.stderr.slice(-1500)).toBe(10);
    const warned = /warning AUR5097 (.*)/.exec(failed.stderr)?.[1] ?? '';
    expect(namedReport(stopped, warned)).toMatch(/^\.aureus\/runs\/s01e01-[^/]*\/verifier_report\.json$/);
    expect(fs.existsSync(path.join(stopped, COMMITTED_REPORT))).toBe(false);
  }, 300_000);
});
