import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { stableStringify } from '../../src/core/json.js';
import type { ScenePacket } from '../../src/domain/packet.js';
import { planPrereqs, writeEpisodeScenes } from '../../src/stages/scenes.js';
import { verifySceneOutput } from '../../src/stages/f-verifier/verify.js';
import { verifyBase, verifySource, type VerifyBaseSpec } from '../../src/stages/f-verifier/world-context.js';
import { startVerifyPool, thisHost, verifyWorkers, type VerifyHost, type VerifyPool } from '../../src/stages/verify-pool.js';
import { REPO } from '../cli/helpers.js';
import { offlineLlm, starterEpisode } from './write-verify/starter.js';

/**
 * Stage F's verification in worker threads (stages/verify-pool.ts, issue 18). The workers run the
 * built verifier (dist/stages/verify-worker.js, as `episode run` does); these tests compare it with
 * the verifier run here, in this thread, on real drafts of the starter episode.
 */
const WORKER = pathToFileURL(path.join(REPO, 'dist/stages/verify-worker.js'));
const built = fs.existsSync(WORKER);

const dirs: string[] = [];
const pools: VerifyPool[] = [];
async function tmp(): Promise<string> {
  const d = await mkdtemp(path.join(os.tmpdir(), 'aureus-vp-'));
  dirs.push(d);
  return d;
}
function pool(o: Parameters<typeof startVerifyPool>[0]): VerifyPool {
  const p = startVerifyPool(o);
  pools.push(p);
  return p;
}
afterAll(async () => {
  for (const p of pools) p.close();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

/** A worker module of our own (a temp .mjs file): one that fails to load, or one that crashes on its first scene. */
async function workerFile(body: string): Promise<URL> {
  const file = path.join(await tmp(), 'worker.mjs');
  fs.writeFileSync(file, body);
  return pathToFileURL(file);
}

async function episode(seed: string, chaos: number, verifyPool?: VerifyPool) {
  const ep = await starterEpisode(seed);
  const draftDir = await tmp();
  const res = await writeEpisodeScenes({ llm: offlineLlm(seed, chaos, 4), ...ep, budgets: { per_scene: 2, per_episode: 12 }, concurrency: 4, seed, draftDir, ...(verifyPool ? { verifyPool } : {}) });
  const files: Record<string, string> = {};
  for (const f of await readdir(path.join(draftDir, 'drafts'))) files[f] = await readFile(path.join(draftDir, 'drafts', f), 'utf8');
  files['verifier_report.json'] = await readFile(path.join(draftDir, 'verifier_report.json'), 'utf8');
  return { ep, res, files };
}

const draftMemo = new Map<string, ReturnType<typeof draftsOf>>();
function drafts(seed: string): ReturnType<typeof draftsOf> {
  if (!draftMemo.has(seed)) draftMemo.set(seed, draftsOf(seed));
  return draftMemo.get(seed)!;
}

/** Every draft of a real episode (with chaos: broken forms, repairs, format fixes) with its packet. */
async function draftsOf(seed: string) {
  const { ep, files } = await episode(seed, 0.3);
  const spec: VerifyBaseSpec = { world: verifySource(ep.world), lexicon: ep.style.lexicon, prereqs: planPrereqs(ep.plan) };
  const packets = new Map<string, ScenePacket>(ep.packets.map((p) => [p.scene_id, p]));
  const list = Object.entries(files)
    .filter(([f]) => f.endsWith('.txt'))
    .map(([f, raw]) => ({ file: f, raw, packet: packets.get(f.split('.')[0]!)! }));
  return { spec, list };
}

describe.skipIf(!built)('the verification pool', () => {
  it('returns what the verifier returns in this thread, for every draft of a real episode', async () => {
    const { spec, list } = await drafts('7');
    expect(list.length).toBeGreaterThan(20);
    const p = pool({ size: 2, entry: WORKER });
    expect(p.live).toBe(2);
    const verify = p.verifier(spec);
    const base = verifyBase(spec);
    const pooled = await Promise.all(list.map((d) => verify(d.raw, d.packet)));
    list.forEach((d, i) => expect(pooled[i], d.file).toStrictEqual(verifySceneOutput(d.raw, { ...base, packet: d.packet })));
    expect(p.verified).toEqual({ worker: list.length, fallback: 0 });
    // The chaos drafts are judged, not all clean: the comparison covers findings and broken forms.
    expect(pooled.some((v) => v.hard)).toBe(true);
    expect(pooled.some((v) => v.form_errors.length > 0 || v.normalisations.length > 0)).toBe(true);
  });

  it('writes the same episode, drafts and report through the pool as without it', async () => {
    const inThread = await episode('ides', 0.3);
    const p = pool({ size: 1, entry: WORKER });
    const pooled = await episode('ides', 0.3, p);
    expect(p.verified.worker).toBeGreaterThan(20);
    expect(p.verified.fallback).toBe(0);
    expect(stableStringify(pooled.res)).toBe(stableStringify(inThread.res));
    expect(pooled.files).toEqual(inThread.files);
  });

  it('verifies in this thread when the worker cannot start, is not built, or crashes', async () => {
    const { spec, list } = await drafts('7');
    const some = list.slice(0, 4);
    const base = verifyBase(spec);
    const expected = some.map((d) => verifySceneOutput(d.raw, { ...base, packet: d.packet }));
    const entries = [
      await workerFile("throw new Error('this worker does not load');\n"),
      await workerFile("import { parentPort } from 'node:worker_threads';\nparentPort.on('message', (m) => { if (m.kind === 'verify') process.exit(3); });\n"),
      await workerFile("import { parentPort } from 'node:worker_threads';\nparentPort.on('message', (m) => { if (m.kind === 'verify') parentPort.postMessage({ id: m.id, error: 'no reader here' }); });\n"),
      pathToFileURL(path.join(await tmp(), 'missing-worker.js')),
    ];
    for (const entry of entries) {
      const p = pool({ size: 1, entry });
      const got = await Promise.all(some.map((d) => p.verifier(spec)(d.raw, d.packet)));
      expect(got, entry.href).toStrictEqual(expected);
      expect(p.verified, entry.href).toEqual({ worker: 0, fallback: some.length });
    }
  });

  it('rejects pending verifications with the abort reason and stops its workers on abort', async () => {
    const { spec, list } = await drafts('7');
    const silent = await workerFile("import { parentPort } from 'node:worker_threads';\nparentPort.on('message', () => {});\n");
    const ac = new AbortController();
    const p = pool({ size: 1, entry: silent, signal: ac.signal });
    expect(p.live).toBe(1);
    const pending = p.verifier(spec)(list[0]!.raw, list[0]!.packet);
    const reason = new Error('interrupted');
    ac.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(p.live).toBe(0);
    await expect(p.verifier(spec)(list[0]!.raw, list[0]!.packet)).rejects.toBe(reason);
    // Aborted before it starts: no worker at all.
    expect(pool({ size: 2, entry: WORKER, signal: ac.signal }).live).toBe(0);
  });

  it('never keeps the process alive, and keeps it alive while a verification is pending', async () => {
    const { spec, list } = await drafts('7');
    const dir = await tmp();
    const d = list[0]!;
    fs.writeFileSync(path.join(dir, 'input.json'), JSON.stringify({ spec, raw: d.raw, packet: d.packet }));
    const poolUrl = pathToFileURL(path.join(REPO, 'dist/stages/verify-pool.js')).href;
    const script = [
      `import { readFileSync } from 'node:fs';`,
      `import { startVerifyPool } from ${JSON.stringify(poolUrl)};`,
      `const { spec, raw, packet } = JSON.parse(readFileSync(${JSON.stringify(path.join(dir, 'input.json'))}, 'utf8'));`,
      `const pool = startVerifyPool({ size: 1 });`,
      `if (process.argv[2] === 'verify') pool.verifier(spec)(raw, packet).then((v) => process.stdout.write(JSON.stringify({ live: pool.live, findings: v.findings.length })));`,
      `else process.stdout.write(JSON.stringify({ live: pool.live }));`,
    ].join('\n');
    fs.writeFileSync(path.join(dir, 'run.mjs'), script);
    const idle = spawnSync(process.execPath, [path.join(dir, 'run.mjs')], { encoding: 'utf8', timeout: 30_000 });
    expect(idle.status, idle.stderr).toBe(0);
    expect(JSON.parse(idle.stdout)).toEqual({ live: 1 });
    const busy = spawnSync(process.execPath, [path.join(dir, 'run.mjs'), 'verify'], { encoding: 'utf8', timeout: 30_000 });
    expect(busy.status, busy.stderr).toBe(0);
    expect(JSON.parse(busy.stdout)).toEqual({ live: 1, findings: verifySceneOutput(d.raw, { ...verifyBase(spec), packet: d.packet }).findings.length });
  });
});

describe('how many workers an episode run starts', () => {
  const quiet2: VerifyHost = { cores: 2, load: 0.4 };
  it('reads AUREUS_WORKERS (0: none) whatever the machine', () => {
    for (const host of [quiet2, { cores: 2, load: 6 }, { cores: 8, load: 0 }, { cores: 1 }]) {
      expect(verifyWorkers({ AUREUS_WORKERS: '0' }, host)).toEqual({ count: 0 });
      expect(verifyWorkers({ AUREUS_WORKERS: ' 3 ' }, host)).toEqual({ count: 3 });
      expect(verifyWorkers({ AUREUS_WORKERS: '8' }, host)).toEqual({ count: 8 });
    }
  });

  it('else starts one per core past the first two, at most two, whatever the load', () => {
    for (const load of [0, 3, 12, undefined]) {
      expect(verifyWorkers({}, { cores: 3, load })).toEqual({ count: 1 });
      expect(verifyWorkers({}, { cores: 4, load })).toEqual({ count: 2 });
      expect(verifyWorkers({ AUREUS_WORKERS: '' }, { cores: 16, load })).toEqual({ count: 2 });
      expect(verifyWorkers({}, { cores: 1, load })).toEqual({ count: 0 });
    }
  });

  it('on two cores starts one while the load average is below the core count, none from there or without one', () => {
    expect(verifyWorkers({}, quiet2)).toEqual({ count: 1 });
    expect(verifyWorkers({ AUREUS_WORKERS: ' ' }, { cores: 2, load: 0 })).toEqual({ count: 1 });
    expect(verifyWorkers({}, { cores: 2, load: 1.99 })).toEqual({ count: 1 });
    expect(verifyWorkers({}, { cores: 2, load: 2 })).toEqual({ count: 0 });
    expect(verifyWorkers({}, { cores: 2, load: 4.8 })).toEqual({ count: 0 });
    expect(verifyWorkers({}, { cores: 2 })).toEqual({ count: 0 });
  });

  it('reads this machine: its cores, and its 1-minute load average where the platform has one', () => {
    const host = thisHost();
    expect(host.cores).toBe(os.availableParallelism());
    if (process.platform === 'win32') expect(host.load).toBeUndefined();
    else expect(host.load).toBeGreaterThanOrEqual(0);
  });

  it('warns (AUR7007) about a value that is not a count, and about one over the cap', () => {
    for (const bad of ['many', '-1', '1.5', '0x2']) {
      const { count, warning } = verifyWorkers({ AUREUS_WORKERS: bad }, quiet2);
      expect(count).toBe(0);
      expect(warning?.code).toBe('AUR7007');
      expect(warning?.severity).toBe('warning');
      expect(warning?.message).toBe(`the environment variable AUREUS_WORKERS=${JSON.stringify(bad)} is not a whole number from 0 to 8: verifying in the main thread (no workers)`);
    }
    const big = verifyWorkers({ AUREUS_WORKERS: '64' }, quiet2);
    expect(big.count).toBe(8);
    expect(big.warning?.message).toMatch(/AUREUS_WORKERS="64" is not a whole number from 0 to 8: using 8 workers$/);
  });
});
