import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppliedDelta } from '../../src/domain/delta.js';
import type { World } from '../../src/domain/world.js';
import { WORLD_FILES } from '../../src/domain/world.js';
import { builtCli, cleanup, makeWorld, spawnCli, tempDir } from '../pipeline/world.js';

const DPRR = path.resolve(__dirname, '../../data/dprr');

/**
 * Conservation and provenance over a 20-episode season (offline, each episode committed and
 * tagged): between consecutive commits the ledger's total changes by exactly the explicit mint
 * and burn deltas of that episode (transfers conserve it), and every canonical change to the
 * world — every stat, status, location, belief, intention, edge weight and flag, secret field,
 * thread field, metric, balance and the date — is covered by an applied delta with provenance in that
 * episode's episode_deltas.json; anything else (factions, operators, constraints, descriptions)
 * does not change at all. New canon facts carry their episode and scene.
 */
const EPISODES = 20;
/**
 * Seasons stop when the Director finds no feasible plan (exit 6: the kit's threads run dry after
 * five or six episodes), so the 20 episodes are gathered over several worlds: the starter kit,
 * then DPRR imports and synthetic worlds with different seeds, until there are 20.
 */
const WORLDS: string[][] = [
  [],
  ['import', 'dprr', '{dir}', '--from', '-100', '--to', '-44', '--limit', '40', '--principals', '10', '--seed', 'c1', '--data', DPRR],
  ['import', 'synthetic', '{dir}', '--principals', '12', '--seed', 'b'],
  ['import', 'dprr', '{dir}', '--from', '-90', '--to', '-50', '--limit', '40', '--principals', '10', '--seed', 'c2', '--data', DPRR],
  ['import', 'synthetic', '{dir}', '--principals', '12', '--seed', 'd'],
  ['import', 'dprr', '{dir}', '--from', '-80', '--to', '-60', '--limit', '40', '--principals', '10', '--seed', 'c3', '--data', DPRR],
  ['import', 'synthetic', '{dir}', '--principals', '15', '--seed', 'e'],
];
const runs: { dir: string; episodes: number }[] = [];
beforeAll(async () => {
  if (!builtCli()) return;
  let count = 0;
  for (const make of WORLDS) {
    if (count >= EPISODES) break;
    let dir: string;
    if (make.length === 0) dir = await makeWorld('rel-conservation');
    else {
      const parent = tempDir('rel-conservation');
      dir = path.join(parent, 'w');
      const r = await spawnCli(make.map((a) => (a === '{dir}' ? dir : a)), parent);
      if (r.code !== 0) throw new Error(`${make.join(' ')} failed: ${r.stderr.slice(-600)}`);
    }
    // The built CLI in a child process, as a user runs it (npm test builds first).
    const r = await spawnCli(['season', 'run', '--count', String(EPISODES - count), '--provider', 'offline'], dir);
    if (r.code !== 0 && r.code !== 6) throw new Error(`season run failed (${r.code ?? r.signal}): ${r.stderr.slice(-1000)}`);
    const episodes = execFileSync('git', ['tag', '--list', 's01e*'], { cwd: dir, encoding: 'utf8' }).split('\n').filter(Boolean).length;
    runs.push({ dir, episodes });
    count += episodes;
  }
}, 900_000);
afterAll(cleanup);

const gitIn = (dir: string) => (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
function worldAt(dir: string, rev: string): World {
  const out = {} as Record<string, unknown>;
  for (const [k, file] of Object.entries(WORLD_FILES)) out[k] = JSON.parse(gitIn(dir)('show', `${rev}:${file}`));
  return out as unknown as World;
}
/** Every committed episode of every world. */
function episodes(): { dir: string; tag: string; ep: string }[] {
  return runs.flatMap((r) => Array.from({ length: r.episodes }, (_, i) => ({ dir: r.dir, tag: `s01e${String(i + 1).padStart(2, '0')}`, ep: String(i + 1).padStart(2, '0') })));
}
const total = (w: World) => w.assets.cash_ledger.reduce((s, a) => s + a.denarii, 0);
const J = (v: unknown) => JSON.stringify(v);

/** The world as canonical leaves named like delta paths (docs/paths.md); everything else in one "fixed" leaf per entity. */
function leaves(w: World): Map<string, string> {
  const m = new Map<string, string>();
  for (const [k, metric] of Object.entries(w.world.global)) {
    m.set(`world.global.${k}`, J(metric.value));
    m.set(`fixed.world.global.${k}`, J({ ...metric, value: undefined }));
  }
  // The calendar too: stage H moves it with world.date.<field> deltas (docs/paths.md), no exemption.
  for (const [k, v] of Object.entries(w.world.date)) m.set(`world.date.${k}`, J(v));
  m.set('fixed.world', J({ ...w.world, global: undefined, date: undefined }));
  for (const c of w.characters.characters) {
    const p = `characters.${c.id}`;
    for (const [s, v] of Object.entries(c.stats)) m.set(`${p}.stats.${s}`, J(v));
    m.set(`${p}.status`, J(c.status));
    m.set(`${p}.location`, J(c.location));
    m.set(`${p}.bdi.beliefs`, J([...c.bdi.beliefs].sort()));
    m.set(`${p}.bdi.intentions`, J([...c.bdi.intentions].sort()));
    m.set(`fixed.${p}`, J({ ...c, stats: undefined, status: undefined, location: undefined, bdi: { ...c.bdi, beliefs: undefined, intentions: undefined } }));
  }
  for (const r of w.relationships.relationships) {
    const p = `relationships.${r.from}.${r.to}`;
    for (const [k, v] of Object.entries(r.weights)) m.set(`${p}.${k}`, J(v));
    m.set(`${p}.flags`, J([...r.flags].sort()));
  }
  for (const s of w.secrets.secrets) {
    const p = `secrets.${s.id}`;
    // told_in (the episode that first told it) is a delta path of its own (docs/paths.md).
    for (const k of ['status', 'legal_value', 'public_damage', 'told_in'] as const) m.set(`${p}.${k}`, J(s[k]));
    m.set(`${p}.holders`, J([...s.holders].sort()));
    m.set(`fixed.${p}`, J({ ...s, status: undefined, legal_value: undefined, public_damage: undefined, holders: undefined, told_in: undefined }));
  }
  for (const t of w.threads.threads) {
    const p = `threads.${t.id}`;
    for (const k of ['progress', 'status', 'last_progress_episode'] as const) m.set(`${p}.${k}`, J(t[k]));
    m.set(`fixed.${p}`, J({ ...t, progress: undefined, status: undefined, last_progress_episode: undefined }));
  }
  for (const a of w.assets.cash_ledger) {
    m.set(`assets.cash_ledger.${a.id}`, J(a.denarii));
    m.set(`fixed.assets.cash_ledger.${a.id}`, J({ ...a, denarii: undefined }));
  }
  m.set('fixed.assets', J({ ...w.assets, cash_ledger: undefined }));
  m.set('fixed.factions', J(w.factions));
  m.set('fixed.constraints', J(w.constraints));
  m.set('fixed.operators', J(w.operators));
  return m;
}
/** A missing relationship edge reads as zero weights and no flags (docs/paths.md: created on first write). */
const absent = (k: string) => (/^relationships\./.test(k) ? (k.endsWith('.flags') ? '[]' : '0') : undefined);

describe.runIf(builtCli())('conservation and provenance over 20 episodes', () => {
  it(`commits at least ${EPISODES} tagged episodes`, () => {
    expect(episodes().length).toBeGreaterThanOrEqual(EPISODES);
  });

  it('the ledger total changes only by explicit mint and burn deltas; transfers conserve it', () => {
    let transfers = 0;
    for (const { dir, tag, ep } of episodes()) {
      const before = worldAt(dir, `${tag}~1`);
      const after = worldAt(dir, tag);
      const deltas = (JSON.parse(gitIn(dir)('show', `${tag}:seasons/season_01/episode_${ep}/episode_deltas.json`)) as { deltas: AppliedDelta[] }).deltas;
      let minted = 0;
      for (const d of deltas) {
        if (d.path.startsWith('assets.cash_ledger.') && d.op === 'add') minted += Number(d.value);
        if (d.path.startsWith('assets.cash_ledger.') && d.op === 'subtract') minted -= Number(d.value);
        if (d.op === 'transfer') {
          transfers++;
          const b = d.before as Record<string, number>;
          const a = d.after as Record<string, number>;
          expect(a[d.from!] + a[d.to!], `${tag} transfer ${d.from}→${d.to}`).toBe(b[d.from!] + b[d.to!]);
          expect(a[d.from!]).toBeGreaterThanOrEqual(0);
        }
      }
      expect(total(after) - total(before), `${tag}: ledger total`).toBe(minted);
      for (const acc of after.assets.cash_ledger) expect(acc.denarii, `${tag} ${acc.id}`).toBeGreaterThanOrEqual(0);
    }
    expect(transfers).toBeGreaterThan(EPISODES);
  }, 600_000); // replays a whole season's history: minutes on a loaded 2-core machine

  it('every canonical change between consecutive episodes is covered by a delta with provenance', () => {
    let checked = 0;
    for (const { dir, tag, ep } of episodes()) {
      const before = leaves(worldAt(dir, `${tag}~1`));
      const after = leaves(worldAt(dir, tag));
      const deltas = (JSON.parse(gitIn(dir)('show', `${tag}:seasons/season_01/episode_${ep}/episode_deltas.json`)) as { deltas: AppliedDelta[] }).deltas;
      for (const d of deltas) {
        expect(d.provenance.episode, J(d)).toBe(tag);
        expect(d.provenance.scene, J(d)).toMatch(/^SC\d+$/);
        expect(d.provenance.event, J(d)).not.toBe('');
      }
      const covers = (leaf: string) =>
        deltas.some((d) => leaf === d.path || leaf.startsWith(d.path + '.') || (d.op === 'transfer' && (leaf === `assets.cash_ledger.${d.from}` || leaf === `assets.cash_ledger.${d.to}`)));
      const uncovered: string[] = [];
      for (const k of new Set([...before.keys(), ...after.keys()])) {
        const a = before.get(k) ?? absent(k);
        const b = after.get(k) ?? absent(k);
        if (a === b) continue;
        checked++;
        if (!covers(k)) uncovered.push(`${k}: ${a} → ${b}`);
      }
      expect(uncovered, `${tag}: changes without provenance`).toEqual([]);
      // Canon grows only, and each new fact names this episode and a scene.
      const canonBefore = worldAt(dir, `${tag}~1`).canon.facts;
      const canonAfter = worldAt(dir, tag).canon.facts;
      expect(canonAfter.slice(0, canonBefore.length)).toEqual(canonBefore);
      for (const f of canonAfter.slice(canonBefore.length)) {
        expect(f.episode).toBe(tag);
        expect(f.scene).toMatch(/^SC\d+$/);
      }
    }
    expect(checked).toBeGreaterThan(EPISODES * 10);
  }, 600_000); // replays a whole season's history: minutes on a loaded 2-core machine
});
