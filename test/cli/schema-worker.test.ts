import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_WORKER_MIN_BYTES } from '../../src/store/schema-check.js';
import { hashTree, REPO, tempDir } from './helpers.js';

/**
 * `episode plan` can validate a large world's files against their schemas in a worker thread
 * (store/schema-check.ts, issue 18) while the main thread loads the planner: by default on more
 * than two cores, here asked for with AUREUS_WORKERS=1 (0 turns it off). The worker changes
 * where ajv runs and nothing else: a valid world plans to the same files and summary as with
 * workers off (AUREUS_WORKERS=0), and a world the schema rejects gives the same diagnostics and
 * exit code 3 and writes nothing. Where validation ran is read from Node's own CPU profiles (one
 * file per thread), as test/cli/verify-workers.test.ts does: no test hook in the product.
 */
const bundled = fs.existsSync(path.join(REPO, 'dist/bundle/main.js'));
const env = { ...process.env, NO_COLOR: '1', ANTHROPIC_API_KEY: '' };
let tmp = '';
let world = '';

beforeAll(() => {
  tmp = tempDir('schema-worker');
  world = path.join(tmp, 'w');
  // 250 principals: ~1.4 MB of world files, over the size where the worker starts.
  if (bundled) expect(spawnSync(process.execPath, [path.join(REPO, 'bin/aureus.js'), 'import', 'synthetic', world, '--principals', '250'], { encoding: 'utf8', env }).status).toBe(0);
}, 60_000);
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** The functions each thread's profile saw (CPU.<date>.<time>.<pid>.<thread id>.<n>.cpuprofile). */
function profiledThreads(dir: string): { thread: number; functions: Set<string> }[] {
  return fs
    .readdirSync(dir)
    .map((f) => {
      const p = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as { nodes: { callFrame: { functionName: string; url: string } }[] };
      return { thread: Number(f.split('.')[4]), functions: new Set(p.nodes.map((n) => `${n.callFrame.functionName}@${n.callFrame.url}`)) };
    })
    .sort((a, b) => a.thread - b.thread);
}

/** `episode plan --json` on a copy of `src`, the worker on (1) or off (0); its output, the copy's tree hash before and after, and its threads. */
function plan(src: string, workers: '1' | '0' | undefined) {
  const w = path.join(tempDir('schema-worker-run'), 'w');
  fs.cpSync(src, w, { recursive: true });
  const prof = tempDir('schema-worker-prof');
  const before = hashTree(w);
  const args = ['--cpu-prof', `--cpu-prof-dir=${prof}`, '--cpu-prof-interval', '500', path.join(REPO, 'bin/aureus.js'), '-C', w, 'episode', 'plan', '--provider', 'offline', '--json'];
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', env: { ...env, AUREUS_WORKERS: workers ?? '' } });
  const out = { status: r.status, stdout: r.stdout.replaceAll(w, '<world>'), stderr: r.stderr.replaceAll(w, '<world>'), unchanged: hashTree(w) === before, files: r.status === 0 ? runFiles(w) : null, threads: profiledThreads(prof) };
  fs.rmSync(path.dirname(w), { recursive: true, force: true });
  fs.rmSync(prof, { recursive: true, force: true });
  return out;
}

/** Every file of the plan's run folder (.aureus/runs/<run>/), by path. */
function runFiles(w: string): Record<string, string> {
  const runs = path.join(w, '.aureus/runs');
  const out: Record<string, string> = {};
  for (const f of fs.readdirSync(runs, { recursive: true, encoding: 'utf8' })) {
    const abs = path.join(runs, f);
    if (fs.statSync(abs).isFile()) out[f] = fs.readFileSync(abs, 'utf8');
  }
  return out;
}

const validatedIn = (t: { functions: Set<string> }) => [...t.functions].some((f) => f.startsWith('schemaVerdictOf@'));
/** Whether a thread ran the precompiled validator of characters.json (dist/schemas-compiled/). */
const ranCharactersSchema = (t: { functions: Set<string> }) => [...t.functions].some((f) => f.includes('store__characters.schema.json'));

describe.skipIf(!bundled)('episode plan with the schema worker', () => {
  it('is used on a world over its size and plans exactly what the main thread alone plans', () => {
    const size = ['world', 'operators'].flatMap((d) => fs.readdirSync(path.join(world, d)).map((f) => fs.statSync(path.join(world, d, f)).size)).reduce((a, b) => a + b, 0);
    expect(size).toBeGreaterThan(SCHEMA_WORKER_MIN_BYTES);
    const on = plan(world, '1');
    const off = plan(world, '0');
    expect(on.status, on.stderr).toBe(0);
    expect({ stdout: on.stdout, stderr: on.stderr, files: on.files }).toEqual({ stdout: off.stdout, stderr: off.stderr, files: off.files });
    expect(off.threads.map((t) => t.thread)).toEqual([0]);
    expect(ranCharactersSchema(off.threads[0]!)).toBe(true);
    // Unset, the worker starts only with more than two cores (on two it cost CPU and gained no wall time).
    const unset = plan(world, undefined);
    expect(unset.stdout).toBe(off.stdout);
    expect(unset.threads.length > 1).toBe(os.availableParallelism() > 2);
    // The worker validated characters.json, and the main thread took its verdict instead of validating again.
    expect(on.threads.slice(1).some(validatedIn)).toBe(true);
    expect(on.threads.slice(1).some(ranCharactersSchema)).toBe(true);
    expect(ranCharactersSchema(on.threads[0]!)).toBe(false);
  }, 180_000);

  it('gives the same diagnostics and exit code 3 for a world its schemas reject, and writes nothing', () => {
    const bad = path.join(tmp, 'bad');
    fs.cpSync(world, bad, { recursive: true });
    const chars = path.join(bad, 'world/characters.json');
    const c = JSON.parse(fs.readFileSync(chars, 'utf8')) as { characters: Record<string, unknown>[] };
    c.characters[3]!.status = 'zombie';
    c.characters[7]!.cue = 17;
    fs.writeFileSync(chars, JSON.stringify(c, null, 2) + '\n');
    const rels = path.join(bad, 'world/relationships.json');
    const r = JSON.parse(fs.readFileSync(rels, 'utf8')) as { relationships: Record<string, unknown>[] };
    r.relationships[5]!.unknown_field = true;
    fs.writeFileSync(rels, JSON.stringify(r, null, 2) + '\n');
    const on = plan(bad, '1');
    const off = plan(bad, '0');
    expect(off.status).toBe(3);
    expect(off.unchanged).toBe(true);
    for (const code of ['AUR1014', 'AUR1011', 'AUR1010']) expect(off.stderr).toContain(code);
    expect({ status: on.status, stdout: on.stdout, stderr: on.stderr, unchanged: on.unchanged }).toEqual({ status: off.status, stdout: off.stdout, stderr: off.stderr, unchanged: off.unchanged });
    expect(on.threads.slice(1).some(ranCharactersSchema)).toBe(true);
    expect(ranCharactersSchema(on.threads[0]!)).toBe(false);
  }, 180_000);
});
