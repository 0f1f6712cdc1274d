import { beforeAll, describe, expect, it } from 'vitest';
import type { World } from '../../../src/domain/world.js';
import { edgeOf, indexWorld, memoList } from '../../../src/core/world-index.js';
import { noteChanges, noteCopy } from '../../../src/core/finished-lists.js';
import { secretParties } from '../../../src/stages/d-packets/secret-parties.js';
import { forbiddenScope, goneOf } from '../../../src/stages/d-packets/forbidden.js';
import { projectPlan } from '../../../src/stages/c-director/checks.js';
import { retrieve, secretsAround, snapshotEdges, WEIGHTS, type CharacterEntries, type SceneFocus } from '../../../src/stages/d-packets/retrieve.js';
import { applyDeltas } from '../../../src/core/deltas/apply.js';
import { round } from '../../../src/core/json.js';
import { planScenario, scenario } from './helpers.js';

/**
 * The accounts a scene retrieves, by their definition: the cast's and those its required deltas move
 * (a transfer's two ends, the account an add or subtract on `assets.cash_ledger.<id>` changes), in ledger order.
 */
function expectedAccounts(w: World, focus: SceneFocus) {
  const one = (path: string) => (/^assets\.cash_ledger\.([^.]+)$/.exec(path)?.[1]);
  const parties = new Set(focus.apps.flatMap((a) => a.required_deltas.flatMap((d) => (d.op === 'transfer' ? [d.from!, d.to!] : one(d.path) ? [one(d.path)!] : []))));
  return w.assets.cash_ledger.filter((a) => focus.cast.includes(a.owner) || parties.has(a.id)).map((a) => ({ id: a.id, owner: a.owner, denarii: a.denarii }));
}

/**
 * The edges a scene retrieves, by their definition (spec §2.2): every edge among walked characters,
 * met from its `from` end in walk order, kept when it concerns the cast, an open thread's
 * stakeholders or changed since the snapshot, sorted (stably) by relevance then key.
 */
function expectedEdges(w: World, snapshot: World, focus: SceneFocus, hop: Map<string, number>) {
  const index = indexWorld(w);
  const snap = indexWorld(snapshot);
  const threads = [...index.threads.values()].filter((t) => t.status === 'open' && (focus.advanced.has(t.id) || t.stakeholders.some((s) => focus.cast.includes(s))));
  const stakeholders = new Set(threads.flatMap((t) => t.stakeholders));
  const out = [];
  for (const id of hop.keys()) {
    for (const r of index.edgesFrom.get(id) ?? []) {
      if (!hop.has(r.to)) continue;
      const a = edgeOf(snap, r.from, r.to);
      const changed = !(a === r || (!!a && WEIGHTS.every((k) => (a.weights[k] ?? 0) === (r.weights[k] ?? 0)) && a.flags.join('|') === r.flags.join('|')));
      const inCast = Number(focus.cast.includes(r.from)) + Number(focus.cast.includes(r.to));
      const touches = stakeholders.has(r.from) || stakeholders.has(r.to);
      if (inCast === 0 && !touches && !changed) continue;
      const relevance = round(1.5 * inCast + (focus.bound.has(r.from) || focus.bound.has(r.to) ? 1 : 0) + (touches ? 1 : 0) + (changed ? 2 : 0)
        - 0.5 * Math.max(hop.get(r.from)!, hop.get(r.to)!) + 0.5 * Math.max(...WEIGHTS.map((k) => r.weights[k] ?? 0)));
      out.push({ from: r.from, to: r.to, weights: Object.fromEntries(WEIGHTS.map((k) => [k, round(r.weights[k] ?? 0)])), flags: [...r.flags], relevance });
    }
  }
  return out.sort((x, y) => y.relevance - x.relevance || `${x.from}>${x.to}`.localeCompare(`${y.from}>${y.to}`));
}

/** The base scenario's plan, each scene's state before it, and each scene's focus (as stage D builds it). */
async function plannedScenes() {
  const a = await planScenario(scenario('planning-base'));
  const before = projectPlan(a.plan, a.world, a.context).before;
  const focuses: SceneFocus[] = a.plan.scenes.map((s) => {
    const apps = a.plan.beats.filter((b) => b.scene === s.id).flatMap((b) => b.applications);
    return { cast: s.cast, apps, bound: new Set(apps.flatMap((x) => Object.values(x.bindings))), advanced: new Set(apps.flatMap((x) => x.threads_advanced)) };
  });
  return { a, before, focuses };
}

const accountsOf = (w: World, focus: SceneFocus) => retrieve(w, indexWorld(w), focus, 2, snapshotEdges(indexWorld(w))).subgraph.accounts;

// Both groups below read the same plan: made once for the file.
let a: Awaited<ReturnType<typeof planScenario>>;
let before: World[];
let focuses: SceneFocus[];
beforeAll(async () => {
  ({ a, before, focuses } = await plannedScenes());
});

describe('the accounts a scene retrieves (d-packets/retrieve.ts)', () => {

  it('are the cast\'s and the transfers\' accounts in ledger order, in every scene', () => {
    let found = 0;
    focuses.forEach((f, i) => {
      const got = accountsOf(before[i]!, f);
      expect(got).toEqual(expectedAccounts(before[i]!, f));
      found += got.length;
    });
    expect(found).toBeGreaterThan(0);
  });

  it('follow a ledger replaced by a new list, and a list edited in place', () => {
    const w = before[0]!;
    const f = focuses[0]!;
    const owner = f.cast[0]!;
    expect(accountsOf(w, f)).toEqual(expectedAccounts(w, f));
    // A later state: a new ledger list where the cast member's account changed (a new object) and one more was opened.
    const ledger = w.assets.cash_ledger.map((x) => (x.owner === owner ? { ...x, denarii: x.denarii + 7 } : x));
    ledger.unshift({ ...w.assets.cash_ledger[0]!, id: 'acct_new', owner, denarii: 3 });
    const w2: World = { ...w, assets: { ...w.assets, cash_ledger: ledger } };
    const got = accountsOf(w2, f);
    expect(got).toEqual(expectedAccounts(w2, f));
    expect(got[0]).toEqual({ id: 'acct_new', owner, denarii: 3 });
    // The same list edited in place (as a test fixture may): read as it is now.
    ledger.push({ ...ledger[0]!, id: 'acct_pushed', owner, denarii: 1 });
    expect(accountsOf(w2, f).map((x) => x.id)).toContain('acct_pushed');
    expect(accountsOf(w2, f)).toEqual(expectedAccounts(w2, f));
  });

  it('follow copy-on-write copies of the ledger: a transfer (sums only), an account given to the cast, a duplicate id', () => {
    const w = before[0]!;
    const f = focuses[0]!;
    const owner = f.cast[0]!;
    const base = w.assets.cash_ledger;
    const other = base.findIndex((x) => !f.cast.includes(x.owner));
    expect(other).toBeGreaterThanOrEqual(0);
    const withLedger = (ledger: World['assets']['cash_ledger'], from: readonly unknown[] = base): World => {
      noteCopy(ledger, from as object[]);
      noteChanges(ledger, ledger.flatMap((x, i) => (x !== from[i] ? [i] : [])));
      return { ...w, assets: { ...w.assets, cash_ledger: ledger } };
    };
    expect(accountsOf(w, f)).toEqual(expectedAccounts(w, f));
    // Sums moved: the same positions.
    const moved = base.map((x, i) => (i === other || x.owner === owner ? { ...x, denarii: x.denarii + 5 } : x));
    const w2 = withLedger(moved);
    expect(accountsOf(w2, f)).toEqual(expectedAccounts(w2, f));
    // An account changes hands (a new object with the cast member as owner): it is retrieved now.
    const given = moved.map((x, i) => (i === other ? { ...x, owner } : x));
    const w3 = withLedger(given, moved);
    expect(accountsOf(w3, f)).toEqual(expectedAccounts(w3, f));
    expect(accountsOf(w3, f).map((x) => x.id)).toContain(base[other]!.id);
    // A transfer naming an id two accounts share lists both, in ledger order.
    const twin = [...given, { ...given[other]!, owner: 'nobody', denarii: 1 }];
    const w4 = withLedger(twin, given);
    const transfer = { ...f, apps: [{ ...f.apps[0]!, required_deltas: [{ path: 'assets.cash_ledger', op: 'transfer' as const, from: base[other]!.id, to: base[other]!.id, amount: 1 }] }] };
    expect(accountsOf(w4, transfer)).toEqual(expectedAccounts(w4, transfer));
    expect(accountsOf(w4, transfer).filter((x) => x.id === base[other]!.id)).toHaveLength(2);
  });
});

describe('the accounts an add or subtract moves (d-packets/retrieve.ts)', () => {
  it('are retrieved though no cast member owns them and no transfer names them', () => {
    const w = before[0]!;
    const f = focuses[0]!;
    const strangers = w.assets.cash_ledger.filter((x) => !f.cast.includes(x.owner)).slice(0, 2);
    expect(strangers).toHaveLength(2);
    const [burnt, minted] = strangers as [typeof strangers[0], typeof strangers[0]];
    const deltas = [
      { path: `assets.cash_ledger.${burnt.id}`, op: 'subtract' as const, value: 1 },
      { path: `assets.cash_ledger.${minted.id}`, op: 'add' as const, value: 1 },
      // Not an account's path: a global metric, and a path under an account.
      { path: 'world.global.unrest', op: 'add' as const, value: 1 },
      { path: `assets.cash_ledger.${burnt.id}.denarii`, op: 'add' as const, value: 1 },
    ];
    const focus = { ...f, apps: [{ ...f.apps[0]!, required_deltas: deltas }] };
    const got = accountsOf(w, focus);
    expect(got).toEqual(expectedAccounts(w, focus));
    expect(got.map((x) => x.id)).toEqual(expect.arrayContaining([burnt.id, minted.id]));
    expect(got.find((x) => x.id === burnt.id)).toEqual({ id: burnt.id, owner: burnt.owner, denarii: burnt.denarii });
    // Without the deltas, neither is the scene's.
    expect(accountsOf(w, { ...f, apps: [] }).map((x) => x.id)).not.toEqual(expect.arrayContaining([burnt.id]));
  });
});

describe('the edges a scene retrieves (d-packets/retrieve.ts)', () => {

  const check = (w: World, f: SceneFocus, snapshot = snapshotEdges(indexWorld(a.world))) => {
    const got = retrieve(w, indexWorld(w), f, 2, snapshot);
    expect(got.subgraph.edges).toEqual(expectedEdges(w, a.world, f, got.hop));
    return got.subgraph.edges;
  };

  it('are the definition\'s in every scene of a plan', () => {
    const snapshot = snapshotEdges(indexWorld(a.world));
    let n = 0;
    focuses.forEach((f, i) => (n += check(before[i]!, f, snapshot).length));
    expect(n).toBeGreaterThan(0);
  });

  it('share one weights object per relationship between scenes, and weigh a changed relationship anew', () => {
    const snapshot = snapshotEdges(indexWorld(a.world));
    const seen = new Map<string, { r: object; weights: object }>();
    let shared = 0;
    focuses.forEach((f, i) => {
      const index = indexWorld(before[i]!);
      for (const e of check(before[i]!, f, snapshot)) {
        const key = `${e.from}>${e.to}`;
        const prev = seen.get(key);
        const r = edgeOf(index, e.from, e.to)!;
        // check() compared the edge with the definition; an unchanged relationship's is the very same object.
        if (prev?.r === r) (expect(e.weights).toBe(prev.weights), shared++);
        seen.set(key, { r, weights: e.weights });
      }
    });
    expect(shared).toBeGreaterThan(0);
    // A relationship changed by a delta is a new object: weighed again, with its new weight, through the same memo.
    const f = focuses[0]!;
    const e = check(before[0]!, f, snapshot)[0]!;
    const res = applyDeltas(before[0]!, [{ path: `relationships.${e.from}.${e.to}.trust`, op: 'set', value: 0.321 }], () => ({ episode: 'test', scene: 'SC01', event: 'test', operator: null }));
    expect(res.ok).toBe(true);
    const after = check(res.ok ? res.world : before[0]!, f, snapshot).find((x) => x.from === e.from && x.to === e.to)!;
    expect(after.weights.trust).toBe(0.321);
    expect(after.weights).not.toBe(e.weights);
  });

  it('keep an edge between two bystanders that changed, in a state derived by deltas or rebuilt whole', () => {
    // A walked edge away from the scene's cast and threads, in some scene: its change is all that can make it relevant.
    const found = focuses.flatMap((f, i) => {
      const w = before[i]!;
      const hop = retrieve(w, indexWorld(w), f, 2, snapshotEdges(indexWorld(a.world))).hop;
      const threads = a.world.threads.threads.filter((t) => t.status === 'open' && (f.advanced.has(t.id) || t.stakeholders.some((s) => f.cast.includes(s))));
      const bystander = (id: string) => !f.cast.includes(id) && !threads.some((t) => t.stakeholders.includes(id));
      const r = w.relationships.relationships.find((e) => hop.has(e.from) && hop.has(e.to) && bystander(e.from) && bystander(e.to));
      return r ? [{ f, w, r }] : [];
    })[0];
    expect(found).toBeDefined();
    const { f, w, r } = found!;
    const res = applyDeltas(w, [{ path: `relationships.${r.from}.${r.to}.trust`, op: 'set', value: 0.123 }], () => ({ episode: 'test', scene: 'SC01', event: 'test', operator: null }));
    expect(res.ok).toBe(true);
    const changed = res.ok ? res.world : w;
    const edges = check(changed, f);
    expect(edges.some((e) => e.from === r.from && e.to === r.to && e.weights.trust === 0.123)).toBe(true);
    // The same change in a list rebuilt whole (no delta engine, no derived index), and one with every edge a new object.
    const rebuilt: World = { ...changed, relationships: { ...changed.relationships, relationships: [...changed.relationships.relationships] } };
    expect(check(rebuilt, f)).toEqual(edges);
    const copied: World = { ...changed, relationships: { ...changed.relationships, relationships: changed.relationships.relationships.map((e) => ({ ...e })) } };
    expect(check(copied, f)).toEqual(edges);
  });

  it('share one entry per unchanged character between scenes, and build a new one for a changed character', () => {
    const entries: CharacterEntries = new Map();
    const snapshot = snapshotEdges(indexWorld(a.world));
    const got = focuses.map((f, i) => retrieve(before[i]!, indexWorld(before[i]!), f, 2, snapshot, entries).subgraph.characters);
    let shared = 0;
    let changed = 0;
    for (let i = 1; i < got.length; i++) {
      for (const entry of got[i]!) {
        const prev = got[i - 1]!.find((x) => x.id === entry.id);
        if (!prev) continue;
        const now = indexWorld(before[i]!).characters.get(entry.id)!;
        const then = indexWorld(before[i - 1]!).characters.get(entry.id)!;
        // The entry is the state's character as it is now, whether shared or new.
        expect(entry).toEqual({ faction: now.faction, id: now.id, intentions: now.bdi.intentions, location: now.location, name: now.name, stats: now.stats, status: now.status });
        if (now === then) (expect(entry).toBe(prev), shared++);
        else (expect(entry).not.toBe(prev), changed++);
      }
    }
    expect(shared).toBeGreaterThan(0);
    expect(changed).toBeGreaterThan(0);
  });

  it('find the secrets around the walked characters as a scan of every secret does, in the index\'s order', () => {
    const around = (w: World, ids: Set<string>) => {
      const index = indexWorld(w);
      expect(secretsAround(index, ids)).toEqual([...index.secrets.values()].filter((s) => ids.has(s.subject) || s.holders.some((h) => ids.has(h))));
      return secretsAround(index, ids).length;
    };
    const snapshot = snapshotEdges(indexWorld(a.world));
    let n = 0;
    focuses.forEach((f, i) => (n += around(before[i]!, retrieve(before[i]!, indexWorld(before[i]!), f, 2, snapshot).walked)));
    expect(n).toBeGreaterThan(0);
    // A later list: one secret changed (a new object), one with a repeated id (the index keeps the first), one appended.
    const w = before[0]!;
    const list = w.secrets.secrets;
    const ids = new Set(list.slice(0, 3).flatMap((s) => [s.subject, ...s.holders]));
    const changed = [{ ...list[1]!, holders: [...list[1]!.holders, list[0]!.subject] }, ...list.slice(0, 1), ...list.slice(2), { ...list[0]!, text: 'a repeat' }, { ...list[2]!, id: 'sec_new' }];
    expect(around({ ...w, secrets: { ...w.secrets, secrets: changed } }, ids)).toBeGreaterThan(0);
  });

  it('follow copy-on-write copies of the secrets: holders gained and lost, a subject changed, a repeated id; derived, not rebuilt', () => {
    const w = before[0]!;
    const base = w.secrets.secrets;
    expect(base.length).toBeGreaterThanOrEqual(3);
    const parties = new Set(base.flatMap((s) => [s.subject, ...s.holders]));
    const copyOf = (list: World['secrets']['secrets'], from: World['secrets']['secrets']): World => {
      noteCopy(list, from);
      noteChanges(list, list.flatMap((x, i) => (x !== from[i] ? [i] : [])));
      return { ...w, secrets: { ...w.secrets, secrets: list } };
    };
    const scan = (x: World, ids: Set<string>) => [...indexWorld(x).secrets.values()].filter((s) => ids.has(s.subject) || s.holders.some((h) => ids.has(h)));
    const check = (x: World) => {
      for (const id of parties) expect(secretsAround(indexWorld(x), [id])).toEqual(scan(x, new Set([id])));
      expect(secretsAround(indexWorld(x), parties)).toEqual(scan(x, parties));
    };
    check(w);
    const [s0, s1] = [base[0]!, base[1]!];
    // The second secret gains the first one's subject as a holder and loses its first holder.
    const gained = base.map((s, i) => (i === 1 ? { ...s, holders: [...s1.holders.slice(1), s0.subject] } : s));
    const w2 = copyOf(gained, base);
    check(w2);
    // The first secret changes subject to the second's (already a party of it) and is held by no one.
    const moved = gained.map((s, i) => (i === 0 ? { ...s, subject: s1.subject, holders: [] } : s));
    const w3 = copyOf(moved, gained);
    check(w3);
    // A later entry repeating the first id, then changed: the index keeps the first, so nothing moves.
    const repeated = [...moved.slice(0, -1), { ...s0, text: 'a repeat' }];
    const w4 = copyOf(repeated, moved);
    check(w4);
    const w5 = copyOf(repeated.map((s, i) => (i === repeated.length - 1 ? { ...s, holders: [s1.subject] } : s)), repeated);
    check(w5);
    // Derived from the first list's lookup: a party no change touched keeps its very list.
    const untouched = [...parties].find((id) => ![s0, s1].some((s) => s.subject === id || s.holders.includes(id)) && s1.subject !== id && s0.subject !== id);
    expect(untouched).toBeDefined();
    expect(memoList(w3.secrets.secrets, secretParties).by.get(untouched!)).toBe(memoList(base, secretParties).by.get(untouched!));
    expect(memoList(w3.secrets.secrets, secretParties).by).not.toBe(memoList(base, secretParties).by);
  });

  it('keep the gone characters of a copy where no one died, and find the newly dead', () => {
    const w = before[0]!;
    const base = w.characters.characters;
    const alive = base.findIndex((c) => c.status === 'alive');
    const withChars = (list: World['characters']['characters'], from: World['characters']['characters']): World => {
      noteCopy(list, from);
      noteChanges(list, list.flatMap((x, i) => (x !== from[i] ? [i] : [])));
      return { ...w, characters: { ...w.characters, characters: list } };
    };
    const gone0 = goneOf(base);
    expect(gone0).toEqual(base.filter((c) => c.status !== 'alive'));
    const richer = base.map((c, i) => (i === alive ? { ...c, stats: { ...c.stats, wealth: (c.stats.wealth ?? 0) + 1 } } : c));
    withChars(richer, base);
    expect(goneOf(richer)).toBe(gone0);
    const killed = richer.map((c, i) => (i === alive ? { ...c, status: 'dead' as const } : c));
    const w3 = withChars(killed, richer);
    expect(goneOf(killed)).toEqual(killed.filter((c) => c.status !== 'alive'));
    expect(goneOf(killed)).toContain(killed[alive]);
    expect(forbiddenScope(w3).allGone).toBe(goneOf(killed).length <= 64);
  });
});
