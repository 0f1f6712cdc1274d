import type { Relationship, World } from '../domain/world.js';
import { AureusError, ExitCode } from '../errors.js';
import { diag } from '../diagnostics/index.js';

/**
 * `aureus query`: structured questions answered from the world files and their git history
 * (seed 004's query mode; canon only, never a model). Every answer is plain data, printed as text
 * or JSON by the command.
 */
/** The character with this id, or a usage error naming the ones there are. */
function requireCharacter(world: World, id: string, option: string) {
  const c = world.characters.characters.find((x) => x.id === id);
  if (!c) throw new AureusError(`no character "${id}" in the world`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7101', { kind: 'character', id, option, file: 'world/characters.json', known: world.characters.characters.map((x) => x.id).join(', ') })] });
  return c;
}

export function characterState(world: World, id: string) {
  const c = requireCharacter(world, id, 'query character');
  return {
    id: c.id, name: c.name, status: c.status, location: c.location, faction: c.faction, stats: c.stats, intentions: c.bdi.intentions,
    relations: world.relationships.relationships.filter((r) => r.from === id || r.to === id).map((r) => ({ from: r.from, to: r.to, weights: r.weights, flags: r.flags })),
    knows: world.secrets.secrets.filter((s) => s.holders.includes(id)).map((s) => s.id),
  };
}

export function whoKnows(world: World, secretId: string) {
  const s = world.secrets.secrets.find((x) => x.id === secretId);
  if (!s) throw new AureusError(`no secret "${secretId}"`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7101', { kind: 'secret', id: secretId, option: 'query knows', file: 'world/secrets.json', known: world.secrets.secrets.map((x) => x.id).join(', ') })] });
  return { id: s.id, status: s.status, subject: s.subject, holders: s.holders };
}

/**
 * Debts: who owes whom, one row per debtor and creditor. An edge from→to is what `from` has toward
 * `to`: its `debt` weight, or a `debtor`/`owes` flag, says `from` owes `to` (op_call_in_debt reads
 * `rel(debtor, creditor).debt`); a `creditor` flag says the reverse, `to` owes `from`. The debt shown is
 * the weight on the debtor's edge; the flags are those of the debtor's edge but `creditor`, and the
 * creditor's `creditor` flag (the evidence for this debt, each flag on the row it speaks of).
 */
export function debts(world: World, id?: string) {
  // A mistyped id would otherwise read as "no debts" (an empty answer that looks like canon).
  if (id) requireCharacter(world, id, 'query debts');
  const edges = world.relationships.relationships;
  const edge = (from: string, to: string) => edges.find((r) => r.from === from && r.to === to);
  const creditorFlag = (f: string) => /creditor/.test(f);
  const pairs = new Map<string, [debtor: string, creditor: string]>();
  const claim = (debtor: string, creditor: string) => pairs.set(`${debtor}\u0000${creditor}`, [debtor, creditor]);
  for (const r of edges) {
    if ((r.weights.debt ?? 0) > 0 || r.flags.some((f) => /debtor|owes/.test(f))) claim(r.from, r.to);
    if (r.flags.some(creditorFlag)) claim(r.to, r.from);
  }
  const flagsOf = (owes: Relationship | undefined, lends: Relationship | undefined) => [...new Set([...(owes?.flags.filter((f) => !creditorFlag(f)) ?? []), ...(lends?.flags.filter(creditorFlag) ?? [])])];
  return [...pairs.values()]
    .filter(([debtor, creditor]) => !id || debtor === id || creditor === id)
    .map(([debtor, creditor]) => ({ debtor, creditor, debt: edge(debtor, creditor)?.weights.debt ?? 0, flags: flagsOf(edge(debtor, creditor), edge(creditor, debtor)) }));
}
