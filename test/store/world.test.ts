import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORLD_FILES, type World } from '../../src/domain/world.js';
import { AureusError } from '../../src/errors.js';
import { seasonGoalsRel } from '../../src/paths.js';
import { loadWorld, loadWorldOrThrow, type LoadedSeasonGoals } from '../../src/store/load.js';
import { checkWorldReferences } from '../../src/store/references.js';
import { checkFormat, compiledSchema, SCHEMA_FILES, validateSchema } from '../../src/store/schema.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const MINIMAL = path.join(REPO, 'test/fixtures/worlds/minimal');

let base: { world: World; seasonGoals: LoadedSeasonGoals[] };
beforeAll(async () => {
  const r = await loadWorld(MINIMAL);
  expect(r.diagnostics).toEqual([]);
  base = { world: r.world!, seasonGoals: r.seasonGoals };
});
const fresh = () => structuredClone(base);

describe('loadWorld', () => {
  it('loads the minimal world: every part, season 1 goals, no diagnostics', async () => {
    const r = await loadWorld(MINIMAL);
    expect(Object.keys(r.world!).sort()).toEqual(Object.keys(WORLD_FILES).sort());
    expect(r.world!.characters.characters.map((c) => c.id)).toEqual(['marcus', 'livia', 'titus']);
    expect(r.seasonGoals).toMatchObject([{ season: 1, file: 'seasons/season_01/season_goals.json' }]);
    expect(r.parsed).toEqual(r.world);
  });

  it('keeps the schema-valid world in `parsed` when only references fail', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aureus-load-'));
    try {
      fs.cpSync(MINIMAL, dir, { recursive: true });
      const p = path.join(dir, WORLD_FILES.secrets);
      fs.writeFileSync(p, fs.readFileSync(p, 'utf8').replace('"subject": "marcus"', '"subject": "nobody"'));
      const r = await loadWorld(dir);
      expect(r.world).toBeNull();
      expect(r.parsed?.secrets.secrets[0]!.subject).toBe('nobody');
      expect(r.diagnostics).toMatchObject([{ code: 'AUR1022', file: 'world/secrets.json', pointer: '/secrets/0/subject' }]);
      await expect(loadWorldOrThrow(dir)).rejects.toSatisfy((e: unknown) => e instanceof AureusError && e.exitCode === 3 && e.diagnostics.length === 1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('validates every season folder and reports season 1 goals missing', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aureus-load-'));
    try {
      fs.cpSync(MINIMAL, dir, { recursive: true });
      fs.rmSync(path.join(dir, seasonGoalsRel(1)));
      fs.mkdirSync(path.join(dir, 'seasons/season_02'));
      const r = await loadWorld(dir);
      expect(r.diagnostics.map((d) => [d.code, d.file])).toEqual([
        ['AUR1001', 'seasons/season_01/season_goals.json'],
        ['AUR1001', 'seasons/season_02/season_goals.json'],
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('schemas', () => {
  it('every schema compiles (ajv strict mode) and is draft 2020-12 with additionalProperties false at the top', () => {
    for (const file of Object.values(SCHEMA_FILES)) {
      expect(() => compiledSchema(file), file).not.toThrow();
      const s = JSON.parse(fs.readFileSync(path.join(REPO, 'schemas', file), 'utf8'));
      expect(s.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(s.additionalProperties).toBe(false);
      expect(s.properties.format).toMatchObject({ const: 1 });
      expect(s.properties.$schema).toMatchObject({ type: 'string' });
    }
  });

  it('every file of the starter kit names its schema by a relative path that exists', () => {
    if (!fs.existsSync(path.join(REPO, 'world/world.json'))) return;
    const files: [string, string][] = [...Object.entries(WORLD_FILES), ['season_goals', seasonGoalsRel(1)]];
    for (const [kind, rel] of files) {
      const data = JSON.parse(fs.readFileSync(path.join(REPO, rel), 'utf8'));
      const target = path.resolve(path.dirname(path.join(REPO, rel)), data.$schema);
      expect(target, rel).toBe(path.join(REPO, 'schemas', SCHEMA_FILES[kind as keyof typeof SCHEMA_FILES]));
    }
  });

  const characters = () => structuredClone(base.world.characters) as unknown as Record<string, any>;
  const F = 'world/characters.json';

  it('wrong type: expected vs got', () => {
    const c = characters();
    c.characters[0].principal = 'yes';
    expect(validateSchema('characters', c, F)).toMatchObject([
      { code: 'AUR1011', pointer: '/characters/0/principal', message: 'wrong type: expected a boolean, got string "yes"' },
    ]);
  });

  it('a number beyond a double (1e400 in the text, Infinity once parsed) is named as such, not shown as null', () => {
    const c = characters();
    c.characters[0].stats.wealth = JSON.parse('1e400');
    const [d] = validateSchema('characters', c, F);
    expect(d).toMatchObject({ code: 'AUR1011', pointer: '/characters/0/stats/wealth' });
    expect(d!.message).toMatch(/^wrong type: expected a finite (integer|number), got a number too large to represent \(it reads as Infinity\)$/);
    expect(d!.message).not.toContain('null');
  });

  it('unknown key: named, with a suggestion and the allowed keys', () => {
    const c = characters();
    c.characters[0].stats.wealht = 3;
    const [d] = validateSchema('characters', c, F);
    expect(d).toMatchObject({ code: 'AUR1010', pointer: '/characters/0/stats/wealht', message: 'unknown key "wealht"' });
    expect(d!.hint).toContain('did you mean "wealth"?');
    expect(d!.hint).toContain('allowed keys here: wealth, dignitas');
  });

  it('missing key, out of range, enum with suggestion, all reported at once', () => {
    const c = characters();
    delete c.characters[0].cue;
    c.characters[1].stats.courage = 140;
    c.characters[2].status = 'exild';
    const ds = validateSchema('characters', c, F);
    expect(ds.map((d) => [d.code, d.pointer])).toEqual([
      ['AUR1012', '/characters/0'],
      ['AUR1013', '/characters/1/stats/courage'],
      ['AUR1014', '/characters/2/status'],
    ]);
    expect(ds[0]!.message).toBe('missing required key "cue"');
    expect(ds[1]!.message).toBe('value 140 is out of range: must be <= 100');
    expect(ds[2]!.hint).toContain('did you mean "exiled"?');
  });

  it('an unsafe id gets its own message, also as a role name', () => {
    const c = characters();
    c.characters[0].faction = 'Optimates/../x';
    const [d] = validateSchema('characters', c, F);
    expect(d).toMatchObject({ code: 'AUR1021', pointer: '/characters/0/faction', message: 'id "Optimates/../x" is not path-safe: ids may contain only a-z, 0-9 and _' });
    const ops = structuredClone(base.world.operators) as unknown as Record<string, any>;
    ops.operators[0].roles['bad role'] = { kind: 'character' };
    expect(validateSchema('operators', ops, 'operators/operators.json')).toMatchObject([{ code: 'AUR1021', pointer: '/operators/0/roles/bad role' }]);
  });

  it('a union (effect value) is one diagnostic naming the allowed forms', () => {
    const ops = structuredClone(base.world.operators) as unknown as Record<string, any>;
    ops.operators[0].effects[0].value = [1, 2];
    expect(validateSchema('operators', ops, 'operators/operators.json')).toMatchObject([
      { code: 'AUR1011', pointer: '/operators/0/effects/0/value', message: 'wrong type: expected number, string, boolean or {"expr": "…"}, got array [1,2]' },
    ]);
  });

  it('a negative ledger balance is the ledger diagnostic even at the schema stage', () => {
    const assets = structuredClone(base.world.assets) as unknown as Record<string, any>;
    assets.cash_ledger[1].denarii = -1;
    expect(validateSchema('assets', assets, 'world/assets.json')).toMatchObject([
      { code: 'AUR1023', pointer: '/cash_ledger/1/denarii', message: 'ledger account "livia" has a negative balance (-1 denarii)' },
    ]);
  });

  it('an incompatible format is one clear diagnostic', () => {
    expect(checkFormat({ format: '2.0' }, 'world/world.json')).toMatchObject({
      code: 'AUR1007',
      message: 'incompatible format: the file has format "2.0", this aureus supports format 1',
    });
    expect(checkFormat({ format: 1 }, 'w')).toBeNull();
    expect(checkFormat([], 'w')).toBeNull();
  });
});

describe('checkWorldReferences', () => {
  type Case = [string, (w: World, s: LoadedSeasonGoals[]) => void, string, string, string];
  const cases: Case[] = [
    ['character location', (w) => (w.characters.characters[0]!.location = 'carthage'), 'AUR1022', 'world/characters.json', '/characters/0/location'],
    ['character faction', (w) => (w.characters.characters[1]!.faction = 'ghosts'), 'AUR1022', 'world/characters.json', '/characters/1/faction'],
    ['relationship source', (w) => (w.relationships.relationships[1]!.from = 'ghost'), 'AUR1022', 'world/relationships.json', '/relationships/1/from'],
    ['desire target', (w) => (w.characters.characters[1]!.bdi.desires[0]!.target = 'ghost'), 'AUR1022', 'world/characters.json', '/characters/1/bdi/desires/0/target'],
    ['relationship endpoint', (w) => (w.relationships.relationships[0]!.to = 'ghost'), 'AUR1022', 'world/relationships.json', '/relationships/0/to'],
    ['relationship to itself', (w) => (w.relationships.relationships[0]!.to = 'marcus'), 'AUR1030', 'world/relationships.json', '/relationships/0'],
    ['duplicate relationship', (w) => w.relationships.relationships.push(structuredClone(w.relationships.relationships[0]!)), 'AUR1020', 'world/relationships.json', '/relationships/2'],
    ['secret holder', (w) => w.secrets.secrets[0]!.holders.push('ghost'), 'AUR1022', 'world/secrets.json', '/secrets/0/holders/1'],
    ['thread stakeholder', (w) => (w.threads.threads[0]!.stakeholders[1] = 'ghost'), 'AUR1022', 'world/threads.json', '/threads/0/stakeholders/1'],
    ['ledger owner', (w) => (w.assets.cash_ledger[0]!.owner = 'ghost'), 'AUR1028', 'world/assets.json', '/cash_ledger/0/owner'],
    ['ledger account not named after its owner', (w) => (w.assets.cash_ledger[0]!.id = 'acct_marcus'), 'AUR1032', 'world/assets.json', '/cash_ledger/0/id'],
    ['goods owner', (w) => (w.assets.goods[0]!.owner = 'ghost'), 'AUR1022', 'world/assets.json', '/goods/0/owner'],
    ['contract party', (w) => (w.assets.contracts[0]!.parties[1] = 'ghost'), 'AUR1022', 'world/assets.json', '/contracts/0/parties/1'],
    ['network client', (w) => (w.assets.networks[0]!.clients[0] = 'ghost'), 'AUR1022', 'world/assets.json', '/networks/0/clients/0'],
    ['travel location', (w) => (w.world.travel[1]!.to = 'carthage'), 'AUR1022', 'world/world.json', '/travel/1/to'],
    ['travel loop', (w) => (w.world.travel[1]!.to = 'forum'), 'AUR1029', 'world/world.json', '/travel/1'],
    ['travel edge twice (reversed)', (w) => w.world.travel.push({ from: 'ostia', to: 'forum', days: 1 }), 'AUR1020', 'world/world.json', '/travel/2'],
    ['metric outside its range', (w) => (w.world.global.unrest!.value = 11), 'AUR1025', 'world/world.json', '/global/unrest/value'],
    ['metric min above max', (w) => (w.world.global.unrest!.min = 20), 'AUR1026', 'world/world.json', '/global/unrest'],
    ['dead with intentions', (w) => (w.characters.characters[0]!.status = 'dead'), 'AUR1024', 'world/characters.json', '/characters/0/bdi/intentions'],
    ['duplicate operator id', (w) => w.operators.operators.push(structuredClone(w.operators.operators[0]!)), 'AUR1020', 'operators/operators.json', '/operators/1/id'],
    ['actor not a character', (w) => (w.operators.operators[0]!.roles.actor = { kind: 'faction' }), 'AUR1027', 'operators/operators.json', '/operators/0/roles/actor/kind'],
    ['transfer to an unknown account', (w) => (w.operators.operators[0]!.effects[1]!.to = 'nobody'), 'AUR1027', 'operators/operators.json', '/operators/0/effects/1/to'],
    ['transfer without amount', (w) => delete w.operators.operators[0]!.effects[1]!.amount, 'AUR1027', 'operators/operators.json', '/operators/0/effects/1'],
    ['effect without value', (w) => delete w.operators.operators[0]!.effects[0]!.value, 'AUR1027', 'operators/operators.json', '/operators/0/effects/0'],
    ['literal character in a path', (w) => (w.operators.operators[0]!.effects[0]!.path = 'characters.ghost.bdi.intentions'), 'AUR1022', 'operators/operators.json', '/operators/0/effects/0/path'],
    ['literal account in a path', (w) => w.operators.operators[0]!.effects.push({ path: 'assets.cash_ledger.nobody', op: 'add', value: 5 }), 'AUR1022', 'operators/operators.json', '/operators/0/effects/2/path'],
    ['season goal thread', (_w, s) => (s[0]!.goals.goals[0]!.threads[0] = 'thr_ghost'), 'AUR1022', 'seasons/season_01/season_goals.json', '/goals/0/threads/0'],
    ['finale thread', (_w, s) => s[0]!.goals.finale_threads.push('thr_ghost'), 'AUR1022', 'seasons/season_01/season_goals.json', '/finale_threads/1'],
    ['season number', (_w, s) => (s[0]!.goals.season = 2), 'AUR1031', 'seasons/season_01/season_goals.json', '/season'],
    ['canon subject', (w) => w.canon.facts.push({ id: 'f1', kind: 'fact', text: 't', subject: 'ghost', episode: 's01e01', scene: 'SC01' }), 'AUR1022', 'world/canon.json', '/facts/0/subject'],
  ];

  it('finds nothing on the minimal world', () => {
    expect(checkWorldReferences(base.world, base.seasonGoals)).toEqual([]);
  });

  for (const [name, mutate, code, file, pointer] of cases) {
    it(`${name} → ${code} at ${file} ${pointer}`, () => {
      const { world, seasonGoals } = fresh();
      mutate(world, seasonGoals);
      const ds = checkWorldReferences(world, seasonGoals);
      expect(ds.map((d) => [d.code, d.file, d.pointer])).toEqual([[code, file, pointer]]);
      expect(ds[0]!.hint).toBeTruthy();
    });
  }

  it('names the first of a duplicated relationship and every bad endpoint, in file order', () => {
    const { world } = fresh();
    const rels = world.relationships.relationships;
    rels.push({ ...structuredClone(rels[1]!) }, { ...structuredClone(rels[0]!), to: 'ghost' }, structuredClone(rels[0]!));
    const ds = checkWorldReferences(world);
    expect(ds.map((d) => [d.code, d.pointer, d.message])).toEqual([
      ['AUR1020', '/relationships/2', `duplicate relationship id "${rels[1]!.from}→${rels[1]!.to}" (first at /relationships/1)`],
      ['AUR1022', '/relationships/3/to', 'character "ghost" does not exist'],
      ['AUR1020', '/relationships/4', `duplicate relationship id "${rels[0]!.from}→${rels[0]!.to}" (first at /relationships/0)`],
    ]);
  });

  it('suggests the nearest id for a typo', () => {
    const { world } = fresh();
    world.characters.characters[0]!.faction = 'optimate';
    const [d] = checkWorldReferences(world);
    expect(d!.message).toBe('faction "optimate" does not exist');
    expect(d!.hint).toBe('did you mean "optimates"? known faction ids: optimates, populares');
  });
});
