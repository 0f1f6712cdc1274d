import { round } from '../core/json.js';
import type { Rng } from '../core/rng.js';
import type { AssetsFile, Character, ClientNetwork, Contract, Faction, Good, LedgerAccount } from '../domain/world.js';
import type { SourcePerson } from './model.js';
import { denariiFor } from './invent.js';
import type { StarterKit } from './kit.js';

/**
 * Ledger: every character and faction holds an account; the kit's institutions (treasury, grain
 * office) are kept so operators that pay into them still resolve. Goods, contracts and client
 * networks are invented around the wealthy, the equites and the magistrates.
 */
export function assetsOf(characters: Character[], factions: Faction[], kit: StarterKit, ids: Set<string>, byId: Map<string, SourcePerson>, rng: Rng): AssetsFile {
  return { $schema: kit.schemaRefs['world/assets.json'], format: 1, cash_ledger: ledgerOf(characters, factions, kit, ids, rng.fork('ledger')), ...holdingsOf(characters, byId, rng.fork('assets')) };
}

function ledgerOf(characters: Character[], factions: Faction[], kit: StarterKit, ids: Set<string>, lRng: Rng): LedgerAccount[] {
  const memberCount = new Map<string, number>();
  for (const c of characters) memberCount.set(c.faction, (memberCount.get(c.faction) ?? 0) + 1);
  const cash: LedgerAccount[] = characters.map((c) => ({ id: c.id, owner: c.id, owner_kind: 'character', denarii: denariiFor(c.stats.wealth, lRng.fork(c.id)) }));
  for (const f of factions) {
    const members = memberCount.get(f.id) ?? 0;
    cash.push({ id: f.id, owner: f.id, owner_kind: 'faction', denarii: Math.round(50_000 * Math.sqrt(Math.max(1, members))) });
  }
  const institutions = (kit.assets.cash_ledger ?? []).filter((a) => a.owner_kind === 'institution' && !ids.has(a.id));
  for (const a of institutions) if (!cash.some((c) => c.id === a.id)) cash.push({ ...a });
  if (!cash.some((c) => c.owner_kind === 'institution')) cash.push({ id: 'aerarium', owner: 'aerarium', owner_kind: 'institution', denarii: 10_000_000 });

  return cash;
}

function holdingsOf(characters: Character[], byId: Map<string, SourcePerson>, aRng: Rng): { goods: Good[]; contracts: Contract[]; networks: ClientNetwork[] } {
  const goods: Good[] = [];
  const contracts: Contract[] = [];
  const networks: ClientNetwork[] = [];
  const wealthy = characters.filter((c) => c.status === 'alive').sort((a, b) => b.stats.wealth - a.stats.wealth || (a.id < b.id ? -1 : 1));
  for (const c of wealthy.slice(0, Math.max(3, Math.ceil(wealthy.length / 10)))) {
    goods.push({ id: `good_grain_${c.id}`, name: 'Sicilian grain in store at Ostia', owner: c.id, quantity: 1000 * (5 + aRng.fork(c.id).int(50)), unit: 'modii' });
  }
  const equites = characters.filter((c) => c.faction === 'equites' && c.status === 'alive');
  const principalsAlive = characters.filter((c) => c.principal);
  const contractCount = Math.min(20, Math.max(2, Math.ceil(principalsAlive.length / 20)));
  const farms = ['the tithes of Asia', 'the Sicilian grain tithe', 'the harbour dues of Ostia', 'the road repairs on the Via Appia', 'the pasture tax of Apulia'];
  for (let i = 0; i < contractCount && principalsAlive.length > 0; i++) {
    const r = aRng.fork(`contract/${i}`);
    const a = r.pick(equites.length ? equites : principalsAlive).id;
    const b = r.pick(principalsAlive).id;
    contracts.push({ id: `contract_${String(i + 1).padStart(3, '0')}`, name: `Contract for ${farms[i % farms.length]}`, parties: [...new Set([a, b])].sort(), value_denarii: 100_000 * (2 + r.int(40)), status: 'active' });
  }
  const supportingByFaction = new Map<string, Character[]>();
  for (const c of characters) {
    if (c.principal || c.status !== 'alive') continue;
    const l = supportingByFaction.get(c.faction) ?? [];
    if (l.length < 50) l.push(c);
    supportingByFaction.set(c.faction, l);
  }
  for (const p of principalsAlive) {
    const sp = byId.get(p.id)!;
    if (!['dictator', 'censor', 'consul', 'praetor'].includes(sp.tier)) continue;
    const clients = (supportingByFaction.get(p.faction) ?? [])
      .filter((c) => c.stats.dignitas < p.stats.dignitas)
      .slice(0, 5)
      .map((c) => c.id);
    if (clients.length) networks.push({ id: `net_${p.id}`, patron: p.id, clients, strength: round(0.3 + aRng.fork(`net/${p.id}`).next() * 0.6, 2) });
  }
  return { goods, contracts, networks };
}
