import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageCopy, REPO, tempDirsPerTest } from './helpers.js';

/**
 * `episode run` verifies its scenes in a worker thread (stages/verify-pool.ts, issue 18), from the
 * start-up bundle (dist/bundle/verify-worker.js) and from the tsc output alike, and commits the same
 * tree, message and tag as with the workers turned off (AUREUS_WORKERS=0). Where the verification
 * ran is read from Node's own CPU profiles (one file per thread): no test hook in the product.
 */
const bundled = fs.existsSync(path.join(REPO, 'dist/bundle/main.js'));
const { temp, keep } = tempDirsPerTest();

/** A copy of the built package without its bundle: the CLI runs dist/ unbundled. */
function unbundledPackage(): string {
  const root = keep(packageCopy('vw-pkg'));
  fs.rmSync(path.join(root, 'dist/bundle'), { recursive: true });
  return root;
}

const env = { ...process.env, NO_COLOR: '1', ANTHROPIC_API_KEY: '', GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z' };

/** The functions each thread's CPU profile saw (CPU.<date>.<time>.<pid>.<thread id>.<n>.cpuprofile), the main thread's (id 0) first. */
function profiledThreads(dir: string): { thread: number; functions: Set<string> }[] {
  return fs
    .readdirSync(dir)
    .map((f) => {
      const p = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as { nodes: { callFrame: { functionName: string; url: string } }[] };
      return { thread: Number(f.split('.')[4]), functions: new Set(p.nodes.map((n) => `${n.callFrame.functionName}@${n.callFrame.url}`)) };
    })
    .sort((a, b) => a.thread - b.thread);
}

function episodeRun(pkg: string, workers: string | undefined) {
  const world = path.join(temp('vw-world'), 'w');
  const git = (...a: string[]) => spawnSync('git', ['-C', world, ...a], { encoding: 'utf8' }).stdout.trim();
  const run = (args: string[], extra: NodeJS.ProcessEnv = {}, node: string[] = []) =>
    spawnSync(process.execPath, [...node, path.join(pkg, 'bin/aureus.js'), ...args], { encoding: 'utf8', env: { ...env, ...extra } });
  expect(run(['init', world]).status).toBe(0);
  const prof = temp('vw-prof');
  const r = run(['-C', world, 'episode', 'run', '--provider', 'offline', '--json'], workers === undefined ? {} : { AUREUS_WORKERS: workers }, ['--cpu-prof', `--cpu-prof-dir=${prof}`, '--cpu-prof-interval', '1000']);
  expect(r.status, r.stderr).toBe(0);
  return {
    stdout: r.stdout.replaceAll(world, '<world>'),
    tree: git('rev-parse', 'HEAD^{tree}'),
    message: git('log', '-1', '--format=%B'),
    tags: git('tag', '--list'),
    threads: profiledThreads(prof),
  };
}

const verifiedIn = (t: { functions: Set<string> }) => [...t.functions].some((f) => f.startsWith('verifySceneOutput@'));

describe.skipIf(!bundled)('episode run with verification workers', () => {
  it('verifies in a worker, bundled and unbundled, and commits what a run without workers commits', () => {
    const off = episodeRun(REPO, '0');
    // The default (one worker per core past the first two) where it starts one; else one worker asked for.
    const on = episodeRun(REPO, os.availableParallelism() > 2 ? undefined : '1');
    const unbundled = episodeRun(unbundledPackage(), '1');
    expect(off.threads).toHaveLength(1);
    expect(verifiedIn(off.threads[0]!)).toBe(true);
    for (const run of [on, unbundled]) {
      expect(run.stdout).toBe(off.stdout);
      expect({ tree: run.tree, message: run.message, tags: run.tags }).toEqual({ tree: off.tree, message: off.message, tags: off.tags });
      // The main thread (id 0) never ran the verifier; a worker did.
      expect(run.threads.length).toBeGreaterThanOrEqual(2);
      expect(run.threads[0]!.thread).toBe(0);
      expect(verifiedIn(run.threads[0]!)).toBe(false);
      expect(run.threads.slice(1).some(verifiedIn)).toBe(true);
    }
    // The bundled CLI starts the bundle's worker (its verifier in a chunk; the chunks' bodies run with the
    // code cache, dist/bundle/cjs/, as in the main thread), the unbundled one dist/'s.
    const verifiers = (run: typeof on) => run.threads.slice(1).flatMap((t) => [...t.functions].filter((f) => f.startsWith('verifySceneOutput@')));
    expect(verifiers(on).length).toBeGreaterThan(0);
    expect(verifiers(on).every((f) => f.includes('/dist/bundle/cjs/chunk-'))).toBe(true);
    expect(verifiers(unbundled)).toEqual([expect.stringMatching(/\/dist\/stages\/f-verifier\/verify\.js$/)]);
    // Three profiled episode runs: ~25 s on a quiet machine, over 60 s beside other test files.
  }, 180_000);

  it('warns about an AUREUS_WORKERS that is not a count (AUR7007) and verifies in the main thread', () => {
    const run = episodeRun(REPO, 'two');
    expect(JSON.parse(run.stdout).warnings).toContainEqual({ code: 'AUR7007', message: 'the environment variable AUREUS_WORKERS="two" is not a whole number from 0 to 8: verifying in the main thread (no workers)' });
    expect(run.threads).toHaveLength(1);
    expect(verifiedIn(run.threads[0]!)).toBe(true);
  });

  it('starts no worker for a run its checks refuse (a world with uncommitted changes)', () => {
    const world = path.join(temp('vw-refused'), 'w');
    const prof = temp('vw-refused-prof');
    expect(spawnSync(process.execPath, [path.join(REPO, 'bin/aureus.js'), 'init', world], { encoding: 'utf8', env }).status).toBe(0);
    fs.writeFileSync(path.join(world, 'world', 'notes.txt'), 'an edit not committed\n');
    const args = ['--cpu-prof', `--cpu-prof-dir=${prof}`, path.join(REPO, 'bin/aureus.js'), '-C', world, 'episode', 'run', '--provider', 'offline'];
    const r = spawnSync(process.execPath, args, { encoding: 'utf8', env: { ...env, AUREUS_WORKERS: '1' } });
    expect(r.status).toBe(8);
    expect(r.stderr).toContain('AUR6001');
    expect(profiledThreads(prof).map((t) => t.thread)).toEqual([0]);
  });
});
