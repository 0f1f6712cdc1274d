import type { AssetsFile } from '../domain/world.js';
import { formatAmount, formatDenarii, READER_DECIMALS, roundForReader } from '../core/readable.js';

/**
 * What changed of the goods, contracts and client networks between two worlds, in words (diff.ts). `aureus diff`
 * said "No change to the world" when only these had moved (a cargo that changed hands, a contract voided, a
 * network grown): an episode's operators move them as they move money.
 */
export function holdingChanges(a: AssetsFile, b: AssetsFile, name: (id: string) => string): { id: string; name: string; changes: string[] }[] {
  const out: { id: string; name: string; changes: string[] }[] = [];
  const push = (id: string, label: string, changes: string[]) => changes.length && out.push({ id, name: label, changes });
  const before = <T extends { id: string }>(list: readonly T[] | undefined) => new Map((list ?? []).map((x) => [x.id, x]));
  const gone = <T extends { id: string }>(pa: readonly T[] | undefined, pb: readonly T[] | undefined, label: (x: T) => string) => {
    const now = new Set((pb ?? []).map((x) => x.id));
    for (const x of pa ?? []) if (!now.has(x.id)) push(x.id, label(x), ['gone']);
  };

  const goods = before(a.goods);
  for (const g of b.goods ?? []) {
    const p = goods.get(g.id);
    if (!p) push(g.id, g.name, [`new: ${formatAmount(g.quantity)} ${g.unit}, held by ${name(g.owner)}`]);
    else push(g.id, g.name, [
      ...(p.owner !== g.owner ? [`changed hands ${name(p.owner)} → ${name(g.owner)}`] : []),
      ...(p.quantity !== g.quantity ? [`${formatAmount(p.quantity)} → ${formatAmount(g.quantity)} ${g.unit}`] : []),
    ]);
  }
  gone(a.goods, b.goods, (g) => g.name);

  const contracts = before(a.contracts);
  for (const c of b.contracts ?? []) {
    const p = contracts.get(c.id);
    if (!p) push(c.id, c.name, [`new: ${c.status}, ${formatDenarii(c.value_denarii)} between ${c.parties.map(name).join(', ')}`]);
    else push(c.id, c.name, [
      ...(p.status !== c.status ? [`${p.status} → ${c.status}`] : []),
      ...(p.value_denarii !== c.value_denarii ? [`worth ${formatDenarii(p.value_denarii)} → ${formatDenarii(c.value_denarii)}`] : []),
      ...c.parties.filter((x) => !p.parties.includes(x)).map((x) => `${name(x)} now a party`),
      ...p.parties.filter((x) => !c.parties.includes(x)).map((x) => `${name(x)} no longer a party`),
    ]);
  }
  gone(a.contracts, b.contracts, (c) => c.name);

  const networks = before(a.networks);
  const netName = (n: { patron: string }) => `${name(n.patron)}'s clients`;
  for (const n of b.networks ?? []) {
    const p = networks.get(n.id);
    const [from, to] = [roundForReader(p?.strength ?? 0, READER_DECIMALS.weight), roundForReader(n.strength, READER_DECIMALS.weight)];
    if (!p) push(n.id, netName(n), [`new: strength ${to}, ${n.clients.length} clients`]);
    else push(n.id, netName(n), [
      ...(from !== to ? [`strength ${from} → ${to}`] : []),
      ...n.clients.filter((x) => !p.clients.includes(x)).map((x) => `${name(x)} joined`),
      ...p.clients.filter((x) => !n.clients.includes(x)).map((x) => `${name(x)} left`),
    ]);
  }
  gone(a.networks, b.networks, netName);
  return out;
}
