import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../support/starter-world.js';
import { describe, expect, it } from 'vitest';
import { STAT_NAMES, WEIGHT_NAMES } from '../../src/domain/world.js';
import {
  accountIds, charIds, chars, DESIRE_KINDS, factionIds, goals, ID, locIds, ops, principals, REGISTERS, secretIds, SETTINGS, threadIds, TOKEN, world,
} from './starter-kit.js';

/**
 * Structural checks of the starter season kit (issue 2, "The starter season kit"), read straight
 * from the JSON files so they hold whatever the store and schemas do: its files, world, cast,
 * ledger, secrets, threads, constraints, season goals, ids and references. The operators are
 * checked in kit-operators.test.ts; prereqs.test.ts evaluates their prerequisites and the
 * constraints with the expression engine (src/core/expr).
 */

const ROOT = REPO_ROOT;

describe('starter kit: files', () => {
  it('every file carries format 1 and names its schema', () => {
    const files: [string, { $schema?: string; format: number }, string][] = [
      ['world/world.json', world.world, '../schemas/world.schema.json'],
      ['world/factions.json', world.factions, '../schemas/factions.schema.json'],
      ['world/characters.json', world.characters, '../schemas/characters.schema.json'],
      ['world/relationships.json', world.relationships, '../schemas/relationships.schema.json'],
      ['world/assets.json', world.assets, '../schemas/assets.schema.json'],
      ['world/secrets.json', world.secrets, '../schemas/secrets.schema.json'],
      ['world/threads.json', world.threads, '../schemas/threads.schema.json'],
      ['world/constraints.json', world.constraints, '../schemas/constraints.schema.json'],
      ['world/canon.json', world.canon, '../schemas/canon.schema.json'],
      ['operators/operators.json', world.operators, '../schemas/operators.schema.json'],
      ['seasons/season_01/season_goals.json', goals, '../../schemas/season_goals.schema.json'],
    ];
    for (const [rel, f, schema] of files) {
      expect(f.format, rel).toBe(1);
      expect(f.$schema, rel).toBe(schema);
      expect(fs.existsSync(path.resolve(path.dirname(path.join(ROOT, rel)), schema)), `${rel} -> ${schema}`).toBe(true);
    }
    expect(world.canon.facts).toEqual([]);
  });

  it('is written canonically: sorted keys, 2-space indentation, trailing newline', () => {
    const sortKeys = (v: unknown): unknown =>
      Array.isArray(v) ? v.map(sortKeys) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys((v as Record<string, unknown>)[k])])) : v;
    for (const rel of ['world/world.json', 'world/characters.json', 'world/relationships.json', 'world/assets.json', 'world/secrets.json', 'world/threads.json', 'world/constraints.json', 'world/factions.json', 'world/canon.json', 'operators/operators.json', 'seasons/season_01/season_goals.json']) {
      const text = fs.readFileSync(path.join(ROOT, rel), 'utf8');
      expect(text, rel).toBe(JSON.stringify(sortKeys(JSON.parse(text)), null, 2) + '\n');
    }
  });
});

describe('starter kit: the world', () => {
  it('is Rome in 63 BC with declared, in-range global metrics', () => {
    const w = world.world;
    expect(w.date.year_bc).toBe(63);
    expect(w.date.month).toBeGreaterThanOrEqual(1);
    expect(w.date.month).toBeLessThanOrEqual(12);
    expect(w.days_per_episode).toBeGreaterThan(0);
    for (const m of ['unrest', 'grain_index', 'legal_exposure', 'scandal_temp', 'threat_level']) expect(Object.keys(w.global)).toContain(m);
    for (const [k, m] of Object.entries(w.global)) {
      expect(m.min, k).toBeLessThan(m.max);
      expect(m.value, k).toBeGreaterThanOrEqual(m.min);
      expect(m.value, k).toBeLessThanOrEqual(m.max);
      expect(m.label.length, k).toBeGreaterThan(0);
    }
  });

  it('has at least 8 locations including the Forum, the Curia, a villa, Ostia and the Subura, all connected', () => {
    const locs = world.world.locations;
    expect(locs.length).toBeGreaterThanOrEqual(8);
    for (const id of ['forum', 'curia', 'ostia', 'subura']) expect(locIds.has(id), id).toBe(true);
    expect(locs.find((l) => l.id === 'ostia')!.setting).toBe('port');
    expect(locs.find((l) => l.id === 'subura')!.setting).toBe('street');
    expect(locs.find((l) => l.id === 'curia')!.setting).toBe('senate');
    expect(locs.some((l) => l.setting === 'villa')).toBe(true);
    for (const l of locs) expect(SETTINGS).toContain(l.setting);
    for (const e of world.world.travel) {
      expect(locIds.has(e.from) && locIds.has(e.to), `${e.from}-${e.to}`).toBe(true);
      expect(Number.isInteger(e.days) && e.days >= 0).toBe(true);
    }
    // Shortest travel days between every pair (Floyd–Warshall over the symmetric edges).
    const ids = [...locIds];
    const d = new Map(ids.map((a) => [a, new Map(ids.map((b) => [b, a === b ? 0 : Infinity]))]));
    for (const e of world.world.travel) {
      d.get(e.from)!.set(e.to, Math.min(d.get(e.from)!.get(e.to)!, e.days));
      d.get(e.to)!.set(e.from, Math.min(d.get(e.to)!.get(e.from)!, e.days));
    }
    for (const k of ids) for (const i of ids) for (const j of ids) {
      const via = d.get(i)!.get(k)! + d.get(k)!.get(j)!;
      if (via < d.get(i)!.get(j)!) d.get(i)!.set(j, via);
    }
    for (const a of ids) for (const b of ids) expect(Number.isFinite(d.get(a)!.get(b)!), `${a} -> ${b}`).toBe(true);
    expect(d.get('forum')!.get('curia')).toBe(0);
    expect(d.get('forum')!.get('subura')).toBe(0);
    expect(d.get('forum')!.get('ostia')).toBe(1);
    const countryVilla = locs.filter((l) => l.setting === 'villa').map((l) => d.get('forum')!.get(l.id)!);
    expect(countryVilla.some((x) => x >= 1 && x <= 2)).toBe(true);
  });

  it('has factions with objectives, including optimates, populares, equites and Catilinarians', () => {
    for (const id of ['optimates', 'populares', 'equites', 'catilinarians']) expect(factionIds.has(id), id).toBe(true);
    for (const f of world.factions.factions) expect(f.objectives.length, f.id).toBeGreaterThan(0);
  });
});

describe('starter kit: the cast', () => {
  it('has exactly 10 principals, each with a full BDI, a voice and stats', () => {
    expect(principals).toHaveLength(10);
    for (const c of principals) {
      expect(c.status, c.id).toBe('alive');
      expect(c.cue, c.id).toMatch(/^[A-Z][A-Z ]*$/);
      expect(c.description.length, c.id).toBeGreaterThan(40);
      expect(Object.keys(c.stats).sort(), c.id).toEqual([...STAT_NAMES].sort());
      for (const s of STAT_NAMES) expect(c.stats[s] >= 0 && c.stats[s] <= 100, `${c.id}.${s}`).toBe(true);
      expect(c.bdi.beliefs.filter((b) => !/^[A-Z_]+:/.test(b)).length, `${c.id} prose beliefs`).toBeGreaterThanOrEqual(2);
      expect(c.bdi.desires.length, c.id).toBeGreaterThanOrEqual(2);
      expect(c.bdi.desires.length, c.id).toBeLessThanOrEqual(4);
      for (const d of c.bdi.desires) {
        expect(DESIRE_KINDS).toContain(d.kind);
        expect(d.weight > 0 && d.weight <= 1).toBe(true);
        expect(d.text.length).toBeGreaterThan(0);
      }
      expect(c.bdi.intentions.length, c.id).toBeGreaterThan(0);
      for (const i of c.bdi.intentions) expect(i).toMatch(TOKEN);
      expect(REGISTERS).toContain(c.voice.register);
      expect(c.voice.tags.length, c.id).toBeGreaterThan(0);
      expect(c.voice.sample_lines, c.id).toHaveLength(2);
    }
    expect(new Set(principals.map((c) => c.cue)).size).toBe(10);
  });

  it('has at least 25 relationships whose rivalries, debts and affections pull against each other', () => {
    const rels = world.relationships.relationships;
    expect(rels.length).toBeGreaterThanOrEqual(25);
    const seen = new Set<string>();
    for (const r of rels) {
      expect(Object.keys(r.weights).sort()).toEqual([...WEIGHT_NAMES].sort());
      for (const w of WEIGHT_NAMES) expect(r.weights[w] >= 0 && r.weights[w] <= 1, `${r.from}->${r.to}.${w}`).toBe(true);
      expect(r.from).not.toBe(r.to);
      expect(seen.has(`${r.from}>${r.to}`), `${r.from}->${r.to} duplicated`).toBe(false);
      seen.add(`${r.from}>${r.to}`);
    }
    expect(rels.filter((r) => r.weights.rivalry >= 0.5).length).toBeGreaterThanOrEqual(4);
    expect(rels.filter((r) => r.weights.debt >= 0.4).length).toBeGreaterThanOrEqual(4);
    expect(rels.filter((r) => r.weights.affection >= 0.5).length).toBeGreaterThanOrEqual(4);
    // Cross-pressure: owing someone you fear; loving someone you rival.
    expect(rels.some((r) => r.weights.debt >= 0.4 && r.weights.fear >= 0.3)).toBe(true);
    expect(rels.some((r) => r.weights.affection >= 0.3 && r.weights.rivalry >= 0.3)).toBe(true);
    // Several principals are torn: a strong attachment and a strong enmity at once.
    const torn = principals.filter((c) => {
      const out = rels.filter((r) => r.from === c.id);
      return out.some((r) => r.weights.affection >= 0.4 || r.weights.loyalty >= 0.5) && out.some((r) => r.weights.rivalry >= 0.4);
    });
    expect(torn.length).toBeGreaterThanOrEqual(4);
    // Every principal is in the web.
    for (const c of principals) expect(rels.some((r) => r.from === c.id || r.to === c.id), c.id).toBe(true);
  });
});

describe('starter kit: ledger, secrets, threads, constraints, season goals', () => {
  it('keeps a ledger in whole, non-negative denarii with an account for every principal and the aerarium', () => {
    const ledger = world.assets.cash_ledger;
    for (const a of ledger) {
      expect(Number.isInteger(a.denarii) && a.denarii >= 0, a.id).toBe(true);
      if (a.owner_kind === 'character') expect(charIds.has(a.owner) && a.id === a.owner, a.id).toBe(true);
      if (a.owner_kind === 'faction') expect(factionIds.has(a.owner) && a.id === a.owner, a.id).toBe(true);
    }
    for (const c of principals) expect(ledger.find((a) => a.id === c.id)?.owner_kind, c.id).toBe('character');
    expect(ledger.some((a) => a.id === 'aerarium' && a.owner_kind === 'institution')).toBe(true);
    expect(world.assets.goods.length).toBeGreaterThan(0);
    expect(world.assets.contracts.length).toBeGreaterThan(0);
    expect(world.assets.networks.length).toBeGreaterThan(0);
  });

  it('has at least 6 secrets whose holders know them, and KNOWS beliefs that match', () => {
    const secrets = world.secrets.secrets;
    expect(secrets.length).toBeGreaterThanOrEqual(6);
    for (const s of secrets) {
      expect(charIds.has(s.subject), s.id).toBe(true);
      expect(s.holders.length, s.id).toBeGreaterThan(0);
      expect(s.legal_value >= 0 && s.legal_value <= 1 && s.public_damage >= 0 && s.public_damage <= 1, s.id).toBe(true);
      expect(s.half_life_episodes, s.id).toBeGreaterThan(0);
      expect(['hidden', 'rumored', 'revealed', 'inert']).toContain(s.status);
      for (const h of s.holders) expect(chars.find((c) => c.id === h)?.bdi.beliefs, `${h} holds ${s.id}`).toContain(`KNOWS:${s.id}`);
    }
    for (const c of chars) {
      for (const b of c.bdi.beliefs.filter((x) => x.startsWith('KNOWS:'))) {
        const s = secrets.find((x) => x.id === b.slice(6));
        expect(s?.holders, `${c.id} believes ${b}`).toContain(c.id);
      }
    }
  });

  it('has 6-10 threads with cadence rules, covering a grain shortage, a court case, an election and a marriage alliance', () => {
    const threads = world.threads.threads;
    expect(threads.length).toBeGreaterThanOrEqual(6);
    expect(threads.length).toBeLessThanOrEqual(10);
    for (const theme of ['grain', 'court', 'election', 'marriage']) expect(threads.some((t) => t.tags.includes(theme)), theme).toBe(true);
    for (const t of threads) {
      expect(t.cadence >= 1 && Number.isInteger(t.cadence), t.id).toBe(true);
      expect(t.priority >= 1 && t.priority <= 5, t.id).toBe(true);
      expect(t.stakeholders.length, t.id).toBeGreaterThan(0);
      expect(t.tags.length, t.id).toBeGreaterThan(0);
      expect(t.status).toBe('open');
      expect(t.progress >= 0 && t.progress < 1, t.id).toBe(true);
    }
    expect(new Set(threads.map((t) => t.type))).toEqual(new Set(['thriller', 'soap']));
  });

  it('has hard and soft constraints', () => {
    const kinds = new Set(world.constraints.constraints.map((c) => c.kind));
    expect(kinds).toEqual(new Set(['hard', 'soft']));
  });

  it('has season goals over existing threads', () => {
    expect(goals.season).toBe(1);
    expect(goals.episodes_planned).toBeGreaterThan(0);
    expect(goals.goals.length).toBeGreaterThan(0);
    expect(goals.finale_threads.length).toBeGreaterThan(0);
  });
});
describe('starter kit: references and ids', () => {
  it('uses path-safe, unique ids', () => {
    const collections: [string, { id: string }[]][] = [
      ['characters', chars], ['locations', world.world.locations], ['factions', world.factions.factions],
      ['secrets', world.secrets.secrets], ['threads', world.threads.threads], ['constraints', world.constraints.constraints],
      ['operators', ops], ['ledger', world.assets.cash_ledger], ['goods', world.assets.goods],
      ['contracts', world.assets.contracts], ['networks', world.assets.networks], ['goals', goals.goals],
    ];
    for (const [name, items] of collections) {
      for (const x of items) expect(x.id, name).toMatch(ID);
      expect(new Set(items.map((x) => x.id)).size, name).toBe(items.length);
    }
  });

  it('references only ids that exist', () => {
    const owner = (id: string) => charIds.has(id) || accountIds.has(id) || factionIds.has(id);
    for (const c of chars) {
      expect(factionIds.has(c.faction), `${c.id}.faction`).toBe(true);
      expect(locIds.has(c.location), `${c.id}.location`).toBe(true);
      for (const d of c.bdi.desires) if (d.target) expect(charIds.has(d.target), `${c.id} desire target ${d.target}`).toBe(true);
    }
    for (const r of world.relationships.relationships) expect(charIds.has(r.from) && charIds.has(r.to), `${r.from}->${r.to}`).toBe(true);
    for (const s of world.secrets.secrets) for (const h of s.holders) expect(charIds.has(h), `${s.id} holder ${h}`).toBe(true);
    for (const t of world.threads.threads) for (const s of t.stakeholders) expect(charIds.has(s), `${t.id} stakeholder ${s}`).toBe(true);
    for (const g of world.assets.goods) expect(owner(g.owner), g.id).toBe(true);
    for (const c of world.assets.contracts) for (const p of c.parties) expect(owner(p), `${c.id} party ${p}`).toBe(true);
    for (const n of world.assets.networks) for (const p of [n.patron, ...n.clients]) expect(charIds.has(p), `${n.id} ${p}`).toBe(true);
    for (const g of goals.goals) for (const t of g.threads) expect(threadIds.has(t), `${g.id} ${t}`).toBe(true);
    for (const t of goals.finale_threads) expect(threadIds.has(t), t).toBe(true);
    const literalIds = (expr: string) => [...expr.matchAll(/(char|secret|thread|faction)\('([^']*)'\)/g)].map((m) => [m[1]!, m[2]!] as const);
    const exists = (kind: string, id: string) => ({ char: charIds, secret: secretIds, thread: threadIds, faction: factionIds })[kind]!.has(id);
    const exprs = [...world.constraints.constraints.map((c) => c.expr), ...ops.flatMap((o) => o.prereqs.map((p) => p.expr))];
    for (const e of exprs) {
      for (const [kind, id] of literalIds(e)) expect(exists(kind, id), `${kind}('${id}') in ${e}`).toBe(true);
      for (const m of e.matchAll(/thread\.id (?:==|in) (\[[^\]]*\]|'[^']*')/g)) {
        for (const id of m[1]!.match(/'([^']*)'/g)!.map((q) => q.slice(1, -1))) expect(threadIds.has(id), `${id} in ${e}`).toBe(true);
      }
      for (const m of e.matchAll(/balance\('([^']*)'\)/g)) expect(accountIds.has(m[1]!), `${m[1]} in ${e}`).toBe(true);
    }
  });
});
