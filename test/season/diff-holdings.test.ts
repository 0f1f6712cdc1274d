import { afterAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { diffWorlds, renderDiff } from '../../src/season/diff.js';
import type { World } from '../../src/domain/world.js';
import { readStarterWorld } from '../support/starter-world.js';
import { cleanup, cli, git, makeWorld } from '../pipeline/world.js';

/**
 * `aureus diff` said "No change to the world" when what moved was a character's side or office, a good's owner or
 * quantity, a contract's status or a network's strength, or when something left the world (audit, session 39).
 */
const copy = (w: World): World => structuredClone(w);
afterAll(cleanup);

describe('diff: what it used to miss', () => {
  it('a side, an office, goods, contracts, networks, and what is gone', () => {
    const a = readStarterWorld();
    const b = copy(a);
    const cicero = b.characters.characters.find((c) => c.id === 'cicero')!;
    cicero.faction = 'populares';
    cicero.office = 'proconsul';
    const grain = b.assets.goods.find((g) => g.id === 'grain_ostia')!;
    grain.owner = 'crassus';
    grain.quantity = 150000;
    b.assets.contracts.find((c) => c.id === 'ctr_asia_tax')!.status = 'void';
    const net = b.assets.networks.find((n) => n.id === 'net_crassus')!;
    net.strength = 0.6;
    net.clients = net.clients.filter((c) => c !== 'varo');
    b.assets.goods = b.assets.goods.filter((g) => g.id !== 'grain_public');
    const gone = b.relationships.relationships[0]!;
    b.relationships.relationships = b.relationships.relationships.slice(1);
    const leaving = b.characters.characters.find((c) => !c.principal && c.id !== 'varo' && c.id !== 'crassus')!;
    b.characters.characters = b.characters.characters.filter((c) => c !== leaving);

    const d = diffWorlds(a, b);
    const text = renderDiff(d, 'x', 'y');
    expect(text).not.toContain('No change to the world');
    expect(text).toContain('Marcus Tullius Cicero: changed sides optimates → populares; now proconsul (was consul)');
    expect(text).toContain("Grain in Varo's warehouses at Ostia: changed hands Quintus Aemilius Varo → Marcus Licinius Crassus; 180,000 → 150,000 modii");
    expect(text).toContain('Tax-farming contract for the province of Asia: active → void');
    expect(text).toContain("Marcus Licinius Crassus's clients: strength 0.8 → 0.6; Quintus Aemilius Varo left");
    expect(text).toContain('Grain in the public granaries: gone');
    expect(text).toContain(`${leaving.name}: leaves the story`);
    // The one edge taken away, by its ends' names, and no other.
    const named = (id: string) => a.characters.characters.find((c) => c.id === id)!.name;
    expect(d.relationships.filter((r) => r.gone)).toEqual([{ from: named(gone.from), to: named(gone.to), changes: [], flags_added: [], flags_removed: [], new_edge: false, gone: true }]);
    expect(text).toContain(`${named(gone.from)} → ${named(gone.to)}: no longer tied`);
  });

  it('the same world: no change', () => {
    const a = readStarterWorld();
    expect(renderDiff(diffWorlds(a, copy(a)), 'x', 'y')).toContain('No change to the world.');
  });

  it('through the CLI: a side changed by a hand commit is said, in text and --json', async () => {
    const w = await makeWorld('diff-holdings');
    const file = path.join(w, 'world/characters.json');
    const data = JSON.parse(fs.readFileSync(file, 'utf8'));
    data.characters.find((c: { id: string }) => c.id === 'cato').faction = 'populares';
    fs.writeFileSync(file, JSON.stringify(data, null, 2) + '\n');
    git(w, 'commit', '-qam', 'Cato changes sides');
    const r = await cli(['diff', 'HEAD~1', 'HEAD'], w);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Marcus Porcius Cato: changed sides optimates → populares');
    const j = await cli(['diff', 'HEAD~1', 'HEAD', '--json'], w);
    expect(JSON.parse(j.stdout).characters).toEqual([{ id: 'cato', name: 'Marcus Porcius Cato', changes: ['changed sides optimates → populares'] }]);
  }, 60_000);

  it('a committed value of the wrong kind is refused (exit 3, its line:column and pointer), not read as no change', async () => {
    const w = await makeWorld('diff-wrong-kind');
    const file = path.join(w, 'world/characters.json');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/"fama": \d+/, '"fama": "lots"'));
    git(w, 'commit', '-qam', 'a hand edit of the wrong kind');
    const r = await cli(['diff', 'HEAD~1', 'HEAD'], w);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/world\/characters\.json \(at [0-9a-f]{12}\)\n {2}\d+:\d+ \/characters\/\d+\/stats\/fama: error AUR1011 wrong type: expected a number, got string "lots"/);
  }, 60_000);
});
