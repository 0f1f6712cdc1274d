import fs from 'node:fs';
import path from 'node:path';
import { readRepoJson, readStarterWorld, REPO_ROOT } from '../support/starter-world.js';
import { describe, expect, it } from 'vitest';
import { STAT_NAMES, WEIGHT_NAMES } from '../../src/domain/world.js';
import type { Effect, Operator, World } from '../../src/domain/world.js';

/**
 * Structural checks of the starter season kit (issue 2, "The starter season kit"), read straight
 * from the JSON files so they hold whatever the store and schemas do. The last block evaluates
 * the operators' prerequisites and the constraints with the expression engine (src/core/expr).
 */

const ROOT = REPO_ROOT;
const read = readRepoJson;

const world: World = readStarterWorld();
const goals = read<{ $schema: string; format: number; season: number; episodes_planned: number; goals: { id: string; threads: string[] }[]; finale_threads: string[] }>(
  'seasons/season_01/season_goals.json',
);

const chars = world.characters.characters;
const principals = chars.filter((c) => c.principal);
const charIds = new Set(chars.map((c) => c.id));
const locIds = new Set(world.world.locations.map((l) => l.id));
const secretIds = new Set(world.secrets.secrets.map((s) => s.id));
const threadIds = new Set(world.threads.threads.map((t) => t.id));
const factionIds = new Set(world.factions.factions.map((f) => f.id));
const accountIds = new Set(world.assets.cash_ledger.map((a) => a.id));
const ops = world.operators.operators;

const DESIRE_KINDS = ['power', 'wealth', 'reputation', 'revenge', 'love', 'security', 'justice', 'secrecy', 'loyalty', 'knowledge'];
const REGISTERS = ['patrician', 'orator', 'soldier', 'street', 'merchant', 'matron', 'priestly', 'servile'];
const SETTINGS = ['court', 'villa', 'street', 'port', 'temple', 'camp', 'senate'];
const BEATS = ['reveal', 'reversal', 'confrontation', 'cliffhanger', 'complication', 'establishment', 'escalation', 'pivot', 'resolution'];
const ID = /^[a-z0-9_]+$/;
const TOKEN = /^[A-Z][A-Z0-9_]*$/;

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

/** Role names of an operator plus the segments a role-relative path may start with. */
function rolesOf(op: Operator): string[] {
  return Object.keys(op.roles);
}

describe('starter kit: operators', () => {
  it('has 25-40 operators, at least 12 thriller and 10 soap, covering the mandatory beats several times', () => {
    expect(ops.length).toBeGreaterThanOrEqual(25);
    expect(ops.length).toBeLessThanOrEqual(40);
    expect(ops.filter((o) => o.type === 'thriller').length).toBeGreaterThanOrEqual(12);
    expect(ops.filter((o) => o.type === 'soap').length).toBeGreaterThanOrEqual(10);
    for (const beat of ['reveal', 'reversal', 'confrontation', 'cliffhanger', 'complication']) {
      expect(ops.filter((o) => o.beats.includes(beat as never)).length, beat).toBeGreaterThanOrEqual(3);
    }
  });

  it('declares well-formed roles, guidance, settings, desires and thread tags', () => {
    const threadTags = new Set(world.threads.threads.flatMap((t) => t.tags));
    for (const op of ops) {
      expect(op.id).toMatch(/^op_[a-z0-9_]+$/);
      expect(op.roles.actor?.kind, op.id).toBe('character');
      for (const b of op.beats) expect(BEATS).toContain(b);
      for (const s of op.settings) expect(SETTINGS).toContain(s);
      expect(op.settings.length, op.id).toBeGreaterThan(0);
      expect(op.serves.length, op.id).toBeGreaterThan(0);
      for (const s of op.serves) expect(DESIRE_KINDS).toContain(s);
      expect(op.thread_tags.length, op.id).toBeGreaterThan(0);
      for (const t of op.thread_tags) expect(threadTags.has(t), `${op.id} tag ${t}`).toBe(true);
      expect(op.prereqs.length, op.id).toBeGreaterThan(0);
      expect(op.writer_guidance.success_beat.length, op.id).toBeGreaterThan(0);
      expect(op.writer_guidance.fail_beat.length, op.id).toBeGreaterThan(0);
      expect(op.writer_guidance.visual_cues.length, op.id).toBeGreaterThan(0);
      expect(op.side_effect_risks.length, op.id).toBeGreaterThan(0);
      for (const r of op.side_effect_risks) expect(r.prob > 0 && r.prob < 1, op.id).toBe(true);
      // Every location setting an operator may use exists in the world.
      for (const s of op.settings) expect(world.world.locations.some((l) => l.setting === s), `${op.id} setting ${s}`).toBe(true);
    }
    expect(ops.some((o) => o.side_effect_risks.some((r) => r.effects?.length))).toBe(true);
  });

  it('writes guidance with bare role names, which the packet stage replaces by the bound names', () => {
    // d-packets binds "actor", "target", … in success_beat/fail_beat to names; a role word that is
    // not a declared role would be left unbound, and a beat that names no role cannot be bound at all.
    const roleWords = /\b(actor|target|rival|secret|thread)\b/g;
    for (const op of ops) {
      const roles = rolesOf(op);
      for (const key of ['success_beat', 'fail_beat'] as const) {
        const text = op.writer_guidance[key];
        for (const m of text.matchAll(roleWords)) expect(roles, `${op.id}.${key}: "${m[1]}"`).toContain(m[1]);
      }
      expect(roles.some((r) => new RegExp(`\\b${r}\\b`).test(op.writer_guidance.success_beat)), `${op.id}.success_beat names a role`).toBe(true);
      for (const cue of op.writer_guidance.visual_cues) expect(cue, op.id).not.toMatch(/\b(actor|target|rival)\b/);
    }
  });

  it('writes effects only in the role-relative path forms, with moderate magnitudes', () => {
    const weight = new Set<string>(WEIGHT_NAMES);
    const stats = new Set<string>(STAT_NAMES);
    const metrics = new Set(Object.keys(world.world.global));
    const check = (op: Operator, e: Effect) => {
      const roles = rolesOf(op);
      const seg = e.path.split('.');
      const where = `${op.id}: ${e.path}`;
      const num = typeof e.value === 'number' ? Math.abs(e.value) : undefined;
      if (seg[0] === 'world') {
        expect(seg[1], where).toBe('global');
        expect(metrics.has(seg[2]!), where).toBe(true);
        if (num !== undefined) expect(num >= 0.5 && num <= 1, where).toBe(true);
      } else if (seg[0] === 'relationships') {
        expect(seg.length, where).toBe(4);
        for (const s of [seg[1]!, seg[2]!]) expect(roles.includes(s) || charIds.has(s), where).toBe(true);
        expect(weight.has(seg[3]!) || seg[3] === 'flags', where).toBe(true);
        if (num !== undefined) expect(num >= 0.1 && num <= 0.3, where).toBe(true);
      } else if (seg[0] === 'assets') {
        expect(e.path, where).toBe('assets.cash_ledger');
        expect(e.op, where).toBe('transfer');
        for (const s of [e.from!, e.to!]) expect(roles.includes(s) || accountIds.has(s), where).toBe(true);
        expect(typeof e.amount === 'number' && Number.isInteger(e.amount) && e.amount > 0, where).toBe(true);
        // Affordable: a prereq guarantees the payer's balance covers the amount.
        const payer = roles.includes(e.from!) ? e.from! : `'${e.from}'`;
        const guard = op.prereqs.some((p) => {
          const m = new RegExp(`balance\\(${payer.replace(/[()']/g, (c) => '\\' + c)}\\)\\s*>=\\s*(\\d+)`).exec(p.expr);
          return m !== null && Number(m[1]) >= (e.amount as number);
        });
        expect(guard, `${where} has no balance(${payer}) >= ${String(e.amount)} prereq`).toBe(true);
      } else {
        expect(roles.includes(seg[0]!), where).toBe(true);
        const kind = op.roles[seg[0]!]!.kind;
        const rest = seg.slice(1).join('.');
        if (kind === 'character') {
          expect(stats.has(rest) || ['status', 'location', 'bdi.beliefs', 'bdi.intentions'].includes(rest) || /^stats\.\w+$/.test(rest), where).toBe(true);
          if (stats.has(rest) && num !== undefined) expect(num >= 5 && num <= 15, where).toBe(true);
          if (rest === 'bdi.intentions') expect(String(e.value), where).toMatch(TOKEN);
        } else if (kind === 'secret') {
          expect(['status', 'legal_value', 'public_damage', 'holders'].includes(rest), where).toBe(true);
        } else if (kind === 'thread') {
          expect(['progress', 'status', 'last_progress_episode'].includes(rest), where).toBe(true);
          if (rest === 'progress' && e.op === 'add') expect(num! >= 0.1 && num! <= 0.25, where).toBe(true);
        }
      }
    };
    for (const op of ops) {
      expect(op.effects.length, op.id).toBeGreaterThan(0);
      for (const e of op.effects) check(op, e);
      for (const r of op.side_effect_risks) for (const e of r.effects ?? []) check(op, e);
    }
  });

  it('includes the move families the Director needs', () => {
    const has = (pred: (e: Effect, op: Operator) => boolean) => ops.filter((op) => op.effects.some((e) => pred(e, op))).map((o) => o.id);
    const reveals = has((e) => (/\.status$/.test(e.path) && ['revealed', 'rumored'].includes(String(e.value))) || /\.holders$/.test(e.path));
    const flips = has((e) => e.path === 'target.bdi.intentions' && e.op === 'add');
    const moves = has((e) => /\.location$/.test(e.path) && e.op === 'set');
    const advances = has((e, op) => e.path === 'thread.progress' && e.op === 'add' && op.roles.thread?.kind === 'thread');
    const transfers = has((e) => e.op === 'transfer');
    expect(reveals.length).toBeGreaterThanOrEqual(4);
    expect(flips).toContain('op_witness_flip');
    expect(flips.length).toBeGreaterThanOrEqual(3);
    expect(moves.length).toBeGreaterThanOrEqual(2);
    expect(advances.length).toBeGreaterThanOrEqual(6);
    expect(transfers.length).toBeGreaterThanOrEqual(4);
    // Every thread can be advanced by some operator's thread tags.
    for (const t of world.threads.threads) expect(ops.some((o) => o.thread_tags.some((x) => t.tags.includes(x))), t.id).toBe(true);
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
