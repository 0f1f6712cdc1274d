import { mkdtemp, readFile, rm, writeFile, mkdir, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDprrWorld, importDprrFiles, type DprrImportOptions } from '../../src/import/dprr/index.js';
import { loadDprrTables, type DprrTables } from '../../src/import/dprr/tables.js';
import { cleanNamePart } from '../../src/import/dprr/names.js';
import { loadStarterKit, type StarterKit } from '../../src/import/kit.js';
import { writeWorldRepo } from '../../src/import/write.js';
import { validateWorldRepository } from '../../src/store/validate.js';
import { ID_PATTERN, type World } from '../../src/domain/world.js';
import { isAureusError } from '../../src/errors.js';

const DATA = path.resolve(__dirname, '../../data/dprr');
const KIT = path.resolve(__dirname, 'fixtures/kit');
const window: DprrImportOptions = { from: -100, to: -44, data: DATA };

let tables: DprrTables;
let kit: StarterKit;
let tmp: string;
let full: ReturnType<typeof buildDprrWorld>;
beforeAll(async () => {
  tables = await loadDprrTables(DATA);
  kit = await loadStarterKit(KIT);
  full = buildDprrWorld(tables, kit, window);
  tmp = await mkdtemp(path.join(os.tmpdir(), 'aureus-import-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** Our own structural check: every reference in the world resolves (independent of the store's validator). */
function dangling(w: World): string[] {
  const chars = new Set(w.characters.characters.map((c) => c.id));
  const facs = new Set(w.factions.factions.map((f) => f.id));
  const locs = new Set(w.world.locations.map((l) => l.id));
  const accounts = new Set(w.assets.cash_ledger.map((a) => a.id));
  const out: string[] = [];
  for (const c of w.characters.characters) {
    if (!facs.has(c.faction)) out.push(`faction ${c.faction}`);
    if (!locs.has(c.location)) out.push(`location ${c.location}`);
    if (!accounts.has(c.id)) out.push(`account ${c.id}`);
    for (const d of c.bdi.desires) if (d.target && !chars.has(d.target)) out.push(`desire target ${d.target}`);
  }
  for (const r of w.relationships.relationships) if (!chars.has(r.from) || !chars.has(r.to)) out.push(`edge ${r.from}->${r.to}`);
  for (const s of w.secrets.secrets) for (const h of [s.subject, ...s.holders]) if (!chars.has(h)) out.push(`secret ${s.id} ${h}`);
  for (const t of w.threads.threads) for (const h of t.stakeholders) if (!chars.has(h)) out.push(`thread ${t.id} ${h}`);
  return out;
}

describe('DPRR import, 100–44 BC', () => {
  it('maps every person active in the window to a character with path-safe unique ids and cues', () => {
    const a = full;
    const cs = a.world.characters.characters;
    expect(a.active).toBe(cs.length);
    expect(cs.length).toBeGreaterThan(3000);
    expect(new Set(cs.map((c) => c.id)).size).toBe(cs.length);
    expect(new Set(cs.map((c) => c.cue)).size).toBe(cs.length);
    for (const c of cs) expect(c.id).toMatch(ID_PATTERN);
    const cicero = cs.find((c) => c.id === 'm_tullius_cicero_2072')!;
    expect(cicero.name).toBe('M. Tullius Cicero');
    expect(cicero.cue).toBe('CICERO');
    expect(cicero.status).toBe('alive');
    // The kit's Cicero is mapped onto DPRR's and promoted to principal; 10 principals remain.
    expect(a.castMapping.cicero).toBe('m_tullius_cicero_2072');
    expect(cicero.principal).toBe(true);
    expect(cs.filter((c) => c.principal).length).toBe(10);
    expect(dangling(a.world)).toEqual([]);
    // DPRR's sex column gives every character a gender (pronouns, Husband/Wife).
    expect(cicero.gender).toBe('male');
    expect(cs.every((c) => c.gender === 'male' || c.gender === 'female')).toBe(true);
    const women = cs.filter((c) => c.gender === 'female');
    expect(women.length).toBeGreaterThan(50);
    expect(women.every((c) => !/^(M|C|L|Q|P|Cn|T)\./.test(c.name))).toBe(true);
  });

  it('marks as dead those whose DPRR era ends before the world year, and the dead hold no intentions', () => {
    const a = full;
    const pompey = a.world.characters.characters.find((c) => c.name.startsWith('Cn. Pompeius Magnus'))!;
    expect(pompey.status).toBe('dead'); // died 48 BC
    const dead = a.world.characters.characters.filter((c) => c.status === 'dead');
    expect(dead.length).toBeGreaterThan(500);
    for (const c of dead) {
      expect(c.bdi.intentions).toEqual([]);
      expect(c.principal).toBe(false);
    }
    expect(a.world.world.date).toEqual({ year_bc: 44, month: 1, day: 1 });
  });

  it('derives dignitas and standing from offices: a consular outranks a quaestorian', () => {
    const a = full;
    const byId = new Map(a.world.characters.characters.map((c) => [c.id, c]));
    const cicero = byId.get('m_tullius_cicero_2072')!; // cos. 63
    const quintus = [...byId.values()].find((c) => c.name === 'Q. Tullius Cicero')!; // pr. 62
    expect(cicero.stats.dignitas).toBeGreaterThan(quintus.stats.dignitas);
    expect(cicero.description).toMatch(/consular/);
    expect(cicero.description).toMatch(/DPRR TULL2072/);
    for (const c of byId.values()) for (const v of Object.values(c.stats)) expect(v >= 0 && v <= 100 && Number.isInteger(v)).toBe(true);
  });

  it('turns family and marriage into weighted edges both ways, and gentes into factions', () => {
    const a = full;
    const rel = a.world.relationships.relationships;
    const m = 'm_tullius_cicero_2072';
    const q = a.world.characters.characters.find((c) => c.name === 'Q. Tullius Cicero')!.id;
    const mq = rel.find((r) => r.from === m && r.to === q)!;
    const qm = rel.find((r) => r.from === q && r.to === m)!;
    expect(mq.flags).toContain('sibling');
    expect(qm.flags).toContain('sibling');
    expect(mq.weights.affection).toBeGreaterThan(0.3);
    const married = rel.filter((r) => r.flags.includes('married'));
    expect(married.length).toBeGreaterThan(100);
    for (const r of rel) for (const v of Object.values(r.weights)) expect(v >= 0 && v <= 1).toBe(true);
    const keys = rel.map((r) => `${r.from}>${r.to}`);
    expect(new Set(keys).size).toBe(keys.length);
    const factions = a.world.factions.factions.map((f) => f.id);
    expect(factions).toEqual(expect.arrayContaining(['optimates', 'populares', 'equites', 'gens_cornelia', 'gens_tullia']));
    expect(a.world.characters.characters.find((c) => c.id === m)!.faction).toBe('gens_tullia');
  });

  it('invents ledgers and secrets deterministically, records that they are invented, and keeps the DPRR attribution', async () => {
    const one = await importDprrFiles({ ...window, limit: 200 }, kit);
    const two = await importDprrFiles({ ...window, limit: 200 }, kit);
    expect([...one.files.keys()]).toEqual([...two.files.keys()]);
    for (const [k, v] of one.files) expect(two.files.get(k)!.toString()).toBe(v.toString());
    const other = await importDprrFiles({ ...window, limit: 200, seed: 'another' }, kit);
    expect(other.files.get('world/secrets.json')).not.toEqual(one.files.get('world/secrets.json'));
    // Who is who is data, not invention: the seed never changes the cast.
    const ids = (f: Map<string, string | Buffer>) => (JSON.parse(f.get('world/characters.json')!.toString()) as World['characters']).characters.map((c) => c.id);
    expect(ids(other.files)).toEqual(ids(one.files));
    const w = one.assembled.world;
    expect(w.world.title).toMatch(/DPRR/);
    expect(w.world.title).toMatch(/CC BY-NC/);
    expect(w.world.title).toMatch(/invented/);
    const notice = one.files.get('NOTICE.md')!.toString();
    expect(notice).toMatch(/King's College London/);
    expect(notice).toMatch(/CC BY-NC 4\.0/);
    expect(notice).toMatch(/What is invented/);
    expect(w.secrets.secrets.length).toBeGreaterThanOrEqual(6);
    expect(w.assets.cash_ledger.every((acc) => Number.isInteger(acc.denarii) && acc.denarii >= 0)).toBe(true);
    expect(w.relationships.relationships.some((r) => r.flags.includes('invented'))).toBe(true);
    for (const c of w.characters.characters) expect(c.description).toMatch(/invented/);
  });

  it('--limit keeps the N highest-ranked living persons; threads and constraints follow the cast', () => {
    const a = buildDprrWorld(tables, kit, { ...window, limit: 10, principals: 10 });
    expect(a.world.characters.characters.length).toBe(10);
    expect(a.world.characters.characters.every((c) => c.principal && c.status === 'alive')).toBe(true);
    const ids = new Set(a.world.characters.characters.map((c) => c.id));
    expect(a.world.threads.threads[0].stakeholders.every((s) => ids.has(s))).toBe(true);
    expect(a.world.threads.threads[0].question).not.toMatch(/Varo/);
    expect(a.world.constraints.constraints[0].expr).toMatch(/char\('[a-z0-9_]+_\d+'\)/);
    expect(dangling(a.world)).toEqual([]);
  });

  it('cleans DPRR editorial marks from name parts', () => {
    expect(cleanNamePart('(Augurinus)')).toBe('Augurinus');
    expect(cleanNamePart('Viscellius (or Visellius)')).toBe('Viscellius');
    expect(cleanNamePart('Scantius or Scantinius')).toBe('Scantius');
    expect(cleanNamePart('Mallius (Manlius)')).toBe('Mallius');
    expect(cleanNamePart('-')).toBe('');
    expect(cleanNamePart('-onius')).toBe('');
    expect(cleanNamePart('missing')).toBe('');
    expect(cleanNamePart('Capito(linus)')).toBe('Capitolinus');
  });

  it('writes a repository that the store validates, with a first commit, atomically', async () => {
    const target = path.join(tmp, 'rome');
    const { files } = await importDprrFiles({ ...window, limit: 300, principals: 30 }, kit);
    await writeWorldRepo(target, files, 'Import test');
    const result = await validateWorldRepository(target);
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(result.valid).toBe(true);
    const entries = (await readdir(target)).sort();
    expect(entries).toEqual(expect.arrayContaining(['.git', '.gitignore', 'NOTICE.md', 'operators', 'seasons', 'style', 'world']));
    expect(await readFile(path.join(target, '.gitignore'), 'utf8')).toMatch(/\.aureus\//);
    // A second import into the now non-empty directory is refused and changes nothing.
    const before = await readFile(path.join(target, 'world/characters.json'), 'utf8');
    await expect(writeWorldRepo(target, files, 'again')).rejects.toSatisfy((e: unknown) => isAureusError(e) && e.exitCode === 2);
    expect(await readFile(path.join(target, 'world/characters.json'), 'utf8')).toBe(before);
    expect((await readdir(tmp)).filter((n) => n.includes('aureus-import'))).toEqual([]);
  });

  it('rejects bad options and unreadable or malformed tables with diagnostics', async () => {
    const code = async (o: DprrImportOptions) => {
      try {
        await importDprrFiles(o, kit);
        return 'ok';
      } catch (e) {
        if (!isAureusError(e)) throw e;
        return `${e.exitCode} ${e.diagnostics.map((d) => d.code).join(',')}`;
      }
    };
    expect(await code({ from: -44, to: -100, data: DATA })).toBe('2 AUR7903');
    expect(await code({ from: Number.NaN, to: -44, data: DATA })).toBe('2 AUR7903');
    expect(await code({ from: -100, to: 10, data: DATA })).toBe('2 AUR7903');
    expect(await code({ from: -100, to: -44, limit: 0, data: DATA })).toBe('2 AUR7903');
    expect(await code({ from: -100, to: -44, data: path.join(tmp, 'nowhere') })).toBe('2 AUR7908'); // the folder itself is missing: one clear error
    expect(await code({ from: -799, to: -780, data: DATA })).toBe('2 AUR7905');
    const bad = path.join(tmp, 'bad-tables');
    await mkdir(bad, { recursive: true });
    for (const f of ['dprr_persons.csv', 'dprr_post_assertions.csv', 'dprr_relationship_assertions.csv']) {
      await writeFile(path.join(bad, f), await readFile(path.join(DATA, f)));
    }
    await writeFile(path.join(bad, 'dprr_relationship_assertions.csv'), 'relationship_assertion_id,person_id\n1,"unterminated\n');
    expect(await code({ from: -100, to: -44, data: bad })).toBe('3 AUR7902');
    await writeFile(path.join(bad, 'dprr_relationship_assertions.csv'), 'person_id,relationship,related_person_id,is_uncertain\nX,son of,3,false\n');
    expect(await code({ from: -100, to: -44, data: bad })).toBe('3 AUR7907');
  });
});
