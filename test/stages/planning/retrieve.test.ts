import { beforeAll, describe, expect, it } from 'vitest';
import type { World } from '../../../src/domain/world.js';
import { indexWorld } from '../../../src/core/world-index.js';
import { projectPlan } from '../../../src/stages/c-director/checks.js';
import { retrieve, type SceneFocus } from '../../../src/stages/d-packets/retrieve.js';
import { planScenario, scenario } from './helpers.js';

/** The accounts a scene retrieves, by their definition: the cast's and those its transfers move, in ledger order. */
function expectedAccounts(w: World, focus: SceneFocus) {
  const parties = new Set(focus.apps.flatMap((a) => a.required_deltas.flatMap((d) => (d.op === 'transfer' ? [d.from!, d.to!] : []))));
  return w.assets.cash_ledger.filter((a) => focus.cast.includes(a.owner) || parties.has(a.id)).map((a) => ({ id: a.id, owner: a.owner, denarii: a.denarii }));
}

const accountsOf = (w: World, focus: SceneFocus) => retrieve(w, indexWorld(w), focus, 2, () => true).subgraph.accounts;

describe('the accounts a scene retrieves (d-packets/retrieve.ts)', () => {
  let a: Awaited<ReturnType<typeof planScenario>>;
  let focuses: SceneFocus[];
  let before: World[];
  beforeAll(async () => {
    a = await planScenario(scenario('planning-base'));
    before = projectPlan(a.plan, a.world, a.context).before;
    focuses = a.plan.scenes.map((s) => {
      const apps = a.plan.beats.filter((b) => b.scene === s.id).flatMap((b) => b.applications);
      return { cast: s.cast, apps, bound: new Set(apps.flatMap((x) => Object.values(x.bindings))), advanced: new Set(apps.flatMap((x) => x.threads_advanced)) };
    });
  });

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
});
