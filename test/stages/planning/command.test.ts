import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { episodeRef } from '../../../src/domain/context.js';
import { planEpisode } from '../../../src/stages/planning.js';
import { copyScenario, hasStarter, loadScenario, readTree, runCli, scenario, STARTER } from './helpers.js';
import { runRelDir } from '../../../src/paths.js';
import { acquireLock } from '../../../src/pipeline/lock.js';
import { builtCli, spawnCli } from '../../pipeline/world.js';

const base = scenario('planning-base');
const runDir = (root: string, id: string, seed: string) => path.join(root, runRelDir(episodeRef(Number(id.slice(1, 3)), Number(id.slice(4, 6))), seed));

describe('aureus episode plan', () => {
  it('writes the artifacts and prints a beat sheet with acts, scenes, operators and threads', async () => {
    const root = copyScenario(base);
    const r = await runCli(['-C', root, 'episode', 'plan'], root);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^s01e01 — /);
    for (const act of [1, 2, 3, 4]) expect(r.stdout).toContain(`ACT ${act}`);
    expect(r.stdout).toMatch(/SC01 day 0 /);
    expect(r.stdout).toMatch(/a01 op_[a-z_]+ \((thriller|soap)\) by [a-z]+/);
    expect(r.stdout).toMatch(/\[CLIFFHANGER\]/);
    expect(r.stdout).toMatch(/threads advanced: thr_/);
    expect(r.stdout).toMatch(/acceptance: 15\/15 checks pass/);
    // The default seed is episode run's (derived from the world), so find the one run folder.
    const runs = fs.readdirSync(path.join(root, '.aureus/runs'));
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatch(/^s01e01-[0-9a-f]{12}-[0-9a-f]{8}$/);
    const files = readTree(path.join(root, '.aureus/runs', runs[0]));
    for (const f of ['episode_context.json', 'agent_proposals.json', 'episode_plan.json', 'packets/SC01.json', 'packets/SC18.json']) expect(files.has(f), f).toBe(true);
    const plan = JSON.parse(files.get('episode_plan.json')!);
    expect([...files.keys()].filter((f) => f.startsWith('packets/'))).toHaveLength(plan.scenes.length);
    // Canonical JSON: sorted keys, 2 spaces, trailing newline.
    expect(files.get('episode_plan.json')!.endsWith('}\n')).toBe(true);
    expect(files.get('episode_plan.json')!.split('\n')[1]).toBe('  "acceptance_checks": [');
    // Nothing outside the run folder changed.
    expect(fs.existsSync(path.join(root, 'seasons/season_01/episode_01'))).toBe(false);
  });

  it('is byte-identical for the same seed and world; different seeds give different plans', async () => {
    const r1 = copyScenario(base);
    const r2 = copyScenario(base);
    expect((await runCli(['-C', r1, 'episode', 'plan', '--seed', 'alpha'], r1)).code).toBe(0);
    expect((await runCli(['-C', r2, 'episode', 'plan', '--seed', 'alpha'], r2)).code).toBe(0);
    const t1 = readTree(runDir(r1, 's01e01', 'alpha'));
    const t2 = readTree(runDir(r2, 's01e01', 'alpha'));
    expect([...t1.keys()].sort()).toEqual([...t2.keys()].sort());
    for (const [f, text] of t1) expect(t2.get(f), f).toBe(text);

    expect((await runCli(['-C', r1, 'episode', 'plan', '--seed', 'beta'], r1)).code).toBe(0);
    const p1 = JSON.parse(t1.get('episode_plan.json')!);
    const p2 = JSON.parse(readTree(runDir(r1, 's01e01', 'beta')).get('episode_plan.json')!);
    const shape = (p: { beats: { applications: { operator_id: string; bindings: object }[] }[] }) => JSON.stringify(p.beats.map((b) => b.applications.map((a) => [a.operator_id, a.bindings])));
    expect(shape(p2)).not.toBe(shape(p1));
  });

  it('--json prints a summary object', async () => {
    const root = copyScenario(base);
    const r = await runCli(['-C', root, 'episode', 'plan', '--json', '--seed', 's1'], root);
    expect(r.code).toBe(0);
    const o = JSON.parse(r.stdout);
    expect(o.episode_id).toBe('s01e01');
    expect(o.seed).toBe('s1');
    expect(o.dir).toMatch(/^\.aureus\/runs\/s01e01-s1-[0-9a-f]{8}$/);
    expect(o.scenes).toBeGreaterThanOrEqual(18);
    expect(o.applications.thriller).toBeGreaterThanOrEqual(10);
    expect(Object.keys(o.mandatory).sort()).toEqual(['cliffhanger', 'confrontation', 'reveal', 'reversal']);
    expect(Object.values(o.acceptance).every(Boolean)).toBe(true);
    expect(o.director).toEqual({ source: 'symbolic', attempts: 1, fallback_reason: null });
  });

  it('defaults to the episode after the last committed one, with episode run\'s derived seed', async () => {
    const root = copyScenario(base);
    const ep1 = path.join(root, 'seasons/season_01/episode_01');
    fs.mkdirSync(ep1, { recursive: true });
    fs.writeFileSync(path.join(ep1, 'episode_plan.json'), '{}\n');
    const r = await runCli(['-C', root, 'episode', 'plan', '--json'], root);
    expect(r.code).toBe(0);
    const o = JSON.parse(r.stdout);
    expect(o.episode_id).toBe('s01e02');
    expect(o.seed).toMatch(/^[0-9a-f]{12}$/);
    // Planning a committed episode again is refused.
    const again = await runCli(['-C', root, 'episode', 'plan', '--episode', '1'], root);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/AUR3007/);
  });

  it('plans episode 2 of the dead-principal world from its cliffhanger file', async () => {
    const s = scenario('planning-dead-principal', 2);
    const root = copyScenario(s);
    const r = await runCli(['-C', root, 'episode', 'plan', '--episode', '2', '--json'], root);
    expect(r.code).toBe(0);
    const o = JSON.parse(r.stdout);
    const ctx = JSON.parse(fs.readFileSync(path.join(root, o.dir, 'episode_context.json'), 'utf8'));
    expect(ctx.must_start_immediately).toBe(true);
    expect(ctx.opening.location).toBe('ostia');
  });

  it('an impossible world exits 6 with the diagnostic naming the rule, and writes nothing', async () => {
    const root = copyScenario(scenario('planning-impossible'));
    const r = await runCli(['-C', root, 'episode', 'plan'], root);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/AUR3001 no feasible plan: rule "prereqs_hold" could not be met/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const runs = path.join(root, '.aureus/runs');
    const plans = fs.existsSync(runs) ? fs.readdirSync(runs).filter((d) => fs.existsSync(path.join(runs, d, 'episode_plan.json'))) : [];
    expect(plans).toEqual([]);
  });

  // A plan writes into the run folder `episode run` uses for the same episode and seed, which the
  // run removes after its commit: a plan made while a run held the lock had its files deleted under
  // it, or made the run's removal fail after the commit (ENOTEMPTY, a season ended in exit 1).
  it.skipIf(!builtCli())('is refused (exit 9, AUR6002) while a run holds the lock, and writes nothing; plans once it is released', async () => {
    const root = copyScenario(base);
    // The lock as a running `episode run` holds it: a live process (this one) on this host.
    const lock = acquireLock(root, 'episode run');
    let released = false;
    try {
      const r = await spawnCli(['episode', 'plan'], root);
      expect(r.code, r.stderr).toBe(9);
      expect(r.stderr).toMatch(new RegExp(`AUR6002 another aureus run holds the lock \\(pid ${process.pid} on `));
      expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
      expect(fs.existsSync(path.join(root, '.aureus/runs'))).toBe(false);
      // The run's lock is still its own.
      expect(JSON.parse(fs.readFileSync(path.join(root, '.aureus/lock.json'), 'utf8')).command).toBe('episode run');
      lock.release();
      released = true;
      const ok = await spawnCli(['episode', 'plan'], root);
      expect(ok.code, ok.stderr).toBe(0);
      expect(fs.readdirSync(path.join(root, '.aureus/runs'))).toHaveLength(1);
      expect(fs.existsSync(path.join(root, '.aureus/lock'))).toBe(false);
    } finally {
      if (!released) lock.release();
    }
  }, 60_000);

  it('rejects bad options with a usage error', async () => {
    const root = copyScenario(base);
    const r = await runCli(['-C', root, 'episode', 'plan', '--episode', 'two'], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/AUR7010/);
    const k = await runCli(['-C', root, 'episode', 'plan', '--k', '3'], root);
    expect(k.code).toBe(2);
  });

  it('--help shows an example', async () => {
    const r = await runCli(['episode', 'plan', '--help'], process.cwd());
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\$ aureus episode plan/);
  });
});
