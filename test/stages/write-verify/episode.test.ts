import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stableStringify } from '../../../src/core/json.js';
import { writeEpisodeScenes } from '../../../src/stages/scenes.js';
import { validators } from '../../../src/stages/f-verifier/schemas.js';
import { verifySceneOutput } from '../../../src/stages/f-verifier/verify.js';
import { worldVerifyContext } from '../../../src/stages/f-verifier/world-context.js';
import { offlineLlm, starterEpisode } from './starter.js';

const dirs: string[] = [];
async function tmp(): Promise<string> {
  const d = await mkdtemp(path.join(os.tmpdir(), 'aureus-ev-'));
  dirs.push(d);
  return d;
}
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function run(seed: string, chaos: number, concurrency: number, draftDir?: string) {
  const ep = await starterEpisode(seed);
  const res = await writeEpisodeScenes({
    llm: offlineLlm(seed, chaos, concurrency),
    ...ep,
    budgets: { per_scene: 2, per_episode: 12 },
    concurrency,
    seed,
    draftDir,
  });
  return { ep, res };
}

async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const abs = path.join(e.parentPath, e.name);
    out[path.relative(dir, abs)] = await readFile(abs, 'utf8');
  }
  return out;
}

describe('stages E-G on the starter world', () => {
  it.each(['7', 'ides'])('a clean offline episode (seed %s) has no finding at all', async (seed) => {
    const { ep, res } = await run(seed, 0, 4);
    expect(res.ok).toBe(true);
    expect(res.scenes).toHaveLength(ep.packets.length);
    expect(res.report.budget.used).toBe(0);
    const findings = [...res.report.episode_findings, ...res.report.scenes.flatMap((s) => s.attempts.flatMap((a) => a.findings))];
    expect(findings).toEqual([]);
    for (const s of res.report.scenes) {
      expect(s.attempts).toHaveLength(1);
      expect(s.attempts[0].critic).toEqual({ verdict: 'PASS', notes: [] });
    }
    expect(validators().report(res.report)).toBe(true);
  });

  it('writes prose that differs scene to scene and follows the screenplay format', async () => {
    const { ep, res } = await run('7', 0, 4);
    const texts = res.scenes.map((s) => s.text);
    expect(new Set(texts.map((t) => t.split('\n').slice(4).join('\n'))).size).toBe(texts.length);
    res.scenes.forEach((s, i) => {
      const pk = ep.packets[i];
      expect(s.text.split('\n')[0]).toMatch(new RegExp(`^## ${pk.scene_id} — (INT|EXT)\\. [^a-z]+ - (DAWN|MORNING|DAY|AFTERNOON|DUSK|NIGHT)$`));
      expect(s.text).toContain(`**Cast:** ${pk.cast.map((c) => c.name).join(', ')}`);
      // Every required delta is in the events, aligned to its application.
      for (const d of pk.constraints.required_deltas) {
        expect(s.events.some((e) => e.application_id === d.application_id && e.deltas.some((x) => x.path === d.path && x.op === d.op))).toBe(true);
      }
    });
  });

  it('--chaos 0.3 runs end to end: defects caught, repairs visible, within budget, final scenes clean', async () => {
    const dir = await tmp();
    const { ep, res } = await run('7', 0.3, 4, dir);
    expect(res.ok).toBe(true);
    const repaired = res.report.scenes.filter((s) => s.attempts.length > 1);
    expect(repaired.length).toBeGreaterThanOrEqual(3);
    expect(res.report.budget.used).toBe(res.report.scenes.reduce((n, s) => n + s.attempts.length - 1, 0));
    expect(res.report.budget.used).toBeLessThanOrEqual(12);
    const codes = new Set(repaired.flatMap((s) => s.attempts[0].findings.map((f) => f.code)));
    expect(codes.size).toBeGreaterThanOrEqual(3);
    for (const s of repaired) {
      expect(s.attempts[0].verdict).toBe('FAIL');
      expect(s.attempts.at(-1)!.verdict).toBe('PASS');
      expect(s.attempts[1].mode).toMatch(/regenerate|punch_up/);
    }
    // Every attempt's raw output is kept, and the final one re-verifies clean from disk.
    const ctx = worldVerifyContext(ep.world, ep.style.lexicon);
    for (const s of res.report.scenes) {
      for (const a of s.attempts) expect((await readFile(path.join(dir, a.raw_file), 'utf8')).length).toBeGreaterThan(100);
      const raw = await readFile(path.join(dir, s.attempts.at(-1)!.raw_file), 'utf8');
      const pk = ep.packets.find((p) => p.scene_id === s.scene)!;
      expect(verifySceneOutput(raw, { ...ctx, packet: pk }).findings.filter((f) => f.severity === 'hard')).toEqual([]);
    }
    const onDisk = JSON.parse(await readFile(path.join(dir, 'verifier_report.json'), 'utf8'));
    expect(onDisk).toEqual(JSON.parse(JSON.stringify(res.report)));
  });

  it('gives byte-identical output at concurrency 1 and 8', async () => {
    const [d1, d8] = [await tmp(), await tmp()];
    const a = await run('7', 0.3, 1, d1);
    const b = await run('7', 0.3, 8, d8);
    expect(stableStringify(b.res.report)).toBe(stableStringify(a.res.report));
    expect(stableStringify(b.res.scenes)).toBe(stableStringify(a.res.scenes));
    const [t1, t8] = [await tree(d1), await tree(d8)];
    expect(Object.keys(t1).length).toBeGreaterThan(24);
    expect(t8).toEqual(t1);
  });
});
