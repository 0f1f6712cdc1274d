import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hashValue } from '../../src/core/hash.js';
import { StateHasher, stateHash } from '../../src/core/state-hash.js';
import type { World } from '../../src/domain/world.js';
import { AureusError } from '../../src/errors.js';
import { BUILD_ID_FILE, sourceDigest } from '../../src/store/derived-index/build-id.js';
import { INDEX_DIR } from '../../src/store/derived-index/entry.js';
import { loadWorld } from '../../src/store/load.js';
import { scaffoldWorld } from '../../src/store/scaffold.js';
import { loadValidatedWorld as loadChecked, validateWorldRepository } from '../../src/store/validate.js';

/**
 * The derived world index, first step (docs/world-index-proposal.md): a load for a command that
 * compiles keeps the verdict and the hashes of one exact set of world files under .aureus/index/,
 * and the next load of the same bytes uses them. Everything here is on real folders made by the
 * starter kit, through the real loader.
 */
const REPO = path.resolve(import.meta.dirname, '../..');
let tmp: string;
let kitWorld: string;
beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'aureus-dindex-'));
  kitWorld = path.join(tmp, 'kit');
  await scaffoldWorld(kitWorld);
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
afterEach(() => {
  delete process.env.AUREUS_INDEX;
});

/** A compiling command's load that goes ahead: checked, then its verdict kept (remember). */
async function loadValidatedWorld(root: string) {
  const r = await loadChecked(root);
  r.remember();
  return r;
}

let n = 0;
/** A fresh copy of the starter world (no .aureus/). */
function world(): string {
  const dir = path.join(tmp, `w${++n}`);
  fs.cpSync(kitWorld, dir, { recursive: true });
  fs.rmSync(path.join(dir, '.aureus'), { recursive: true, force: true });
  return dir;
}
const entries = (root: string) => (fs.existsSync(path.join(root, INDEX_DIR)) ? fs.readdirSync(path.join(root, INDEX_DIR)).sort() : []);
const edit = (root: string, rel: string, from: string, to: string) => {
  const p = path.join(root, rel);
  const text = fs.readFileSync(p, 'utf8');
  expect(text).toContain(from);
  fs.writeFileSync(p, text.replace(from, to));
};
/** The world as a full load gives it, with the index off. */
async function fullLoad(root: string) {
  process.env.AUREUS_INDEX = 'off';
  try {
    return await loadValidatedWorld(root);
  } finally {
    delete process.env.AUREUS_INDEX;
  }
}

describe('the derived world index', () => {
  it('a compiling load writes one entry; the next load of the same files is vouched for and gives the same world and warnings', async () => {
    const root = world();
    const first = await loadValidatedWorld(root);
    expect(entries(root)).toHaveLength(1);
    expect(entries(root)[0]).toMatch(/^[0-9a-f]{64}\.json$/);
    const again = await loadWorld(root, { index: true });
    expect(again.index?.entry).not.toBeNull();
    expect(again.world).toEqual(first.world);
    const second = await loadValidatedWorld(root);
    expect(second.world).toEqual(first.world);
    expect(second.diagnostics).toEqual(first.diagnostics);
    expect(second.world).toEqual((await fullLoad(root)).world);
    expect(entries(root)).toHaveLength(1);
  });

  it('the hashes it keeps are the definitions: flat hash, state hash and the seed basis match a world that never met the index', async () => {
    const root = world();
    await loadValidatedWorld(root);
    const { world: w } = await loadValidatedWorld(root); // vouched: hashes noted from the entry
    const plain = structuredClone(w) as World; // a copy: nothing noted for it
    expect(new StateHasher().flatHash(w)).toBe(hashValue(plain));
    expect(new StateHasher().hash(w)).toBe(stateHash(plain));
    // A state hash of a copy-on-write state sharing the loaded lists (stage A, stage D) is unchanged too.
    const next = { ...w, characters: { ...w.characters, characters: [...w.characters.characters, { ...w.characters.characters[0]!, id: 'novus' }] } };
    expect(new StateHasher().hash(next)).toBe(stateHash(structuredClone(next)));
  });

  it('a list edited in place after the load is hashed as it is, not as the index knew it', async () => {
    const root = world();
    await loadValidatedWorld(root);
    const { world: w } = await loadValidatedWorld(root);
    w.characters.characters.push({ ...w.characters.characters[0]!, id: 'intrusus' });
    expect(new StateHasher().flatHash(w)).toBe(hashValue(structuredClone(w)));
    expect(new StateHasher().hash(w)).toBe(stateHash(structuredClone(w)));
  });

  it('a hand edit changes the key: the edited world is loaded in full, and a new entry is written beside the old', async () => {
    const root = world();
    await loadValidatedWorld(root);
    const before = entries(root);
    const name = (await loadValidatedWorld(root)).world.characters.characters[0]!.name;
    edit(root, 'world/characters.json', `"name": "${name}"`, '"name": "Gaius Novus"');
    const after = await loadValidatedWorld(root);
    expect(after.world.characters.characters[0]!.name).toBe('Gaius Novus');
    expect(entries(root)).toHaveLength(2);
    expect(entries(root)).toEqual(expect.arrayContaining(before));
  });

  it('an edit that breaks the world is reported in full, as with the index off, and leaves no entry for it', async () => {
    const root = world();
    await loadValidatedWorld(root);
    const first = (await loadValidatedWorld(root)).world.secrets.secrets[0]!;
    edit(root, 'world/secrets.json', `"subject": "${first.subject}"`, '"subject": "nemo"');
    const err = await loadValidatedWorld(root).catch((e: unknown) => e);
    process.env.AUREUS_INDEX = 'off';
    const off = await loadValidatedWorld(root).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AureusError);
    expect((err as AureusError).exitCode).toBe(3);
    expect((err as AureusError).diagnostics).toEqual((off as AureusError).diagnostics);
    expect((err as AureusError).diagnostics.some((d) => d.code === 'AUR1022' && d.line !== undefined)).toBe(true);
    expect(entries(root)).toHaveLength(1);
  });

  it('a truncated, foreign or forged entry is a miss: the world is checked in full and the entry written again', async () => {
    const root = world();
    await loadValidatedWorld(root);
    const [name] = entries(root);
    const file = path.join(root, INDEX_DIR, name!);
    const good = fs.readFileSync(file, 'utf8');
    const forged = JSON.stringify({ ...JSON.parse(good), build: 'f'.repeat(64) });
    for (const bad of [good.slice(0, good.length / 2), '', '[]', forged, good.replace('"format":"aureus-world-index/1"', '"format":"aureus-world-index/0"')]) {
      fs.writeFileSync(file, bad);
      expect((await loadWorld(root, { index: true })).index?.entry).toBeNull();
      const r = await loadValidatedWorld(root);
      expect(r.world).toEqual((await fullLoad(root)).world);
      expect(fs.readFileSync(file, 'utf8')).toBe(good);
    }
  });

  it('the key names the bytes: the entry of the world before an edit cannot vouch for the edited files', async () => {
    const root = world();
    await loadValidatedWorld(root);
    edit(root, 'world/characters.json', '"status": "alive"', '"status": "undead"');
    await expect(loadValidatedWorld(root)).rejects.toSatisfy((e: unknown) => e instanceof AureusError && e.diagnostics.some((d) => d.file === 'world/characters.json'));
  });

  it('warnings are kept with the verdict: a CRLF world file warns (AUR1040) on the vouched load as on the full one', async () => {
    const root = world();
    const p = path.join(root, 'world/threads.json');
    fs.writeFileSync(p, fs.readFileSync(p, 'utf8').replace(/\n/g, '\r\n'));
    const first = await loadValidatedWorld(root);
    expect(first.diagnostics.map((d) => d.code)).toContain('AUR1040');
    expect((await loadWorld(root, { index: true })).index?.entry).not.toBeNull();
    const second = await loadValidatedWorld(root);
    expect(second.diagnostics).toEqual(first.diagnostics);
    expect(second.world).toEqual(first.world);
  });

  it('AUREUS_INDEX=off reads and writes nothing; `validate` neither reads nor writes the index', async () => {
    const root = world();
    process.env.AUREUS_INDEX = 'off';
    await loadValidatedWorld(root);
    expect(fs.existsSync(path.join(root, INDEX_DIR))).toBe(false);
    delete process.env.AUREUS_INDEX;
    expect((await validateWorldRepository(root)).valid).toBe(true);
    expect(fs.existsSync(path.join(root, INDEX_DIR))).toBe(false);
    // A forged entry claiming a broken world valid does not reach validate.
    await loadValidatedWorld(root);
    edit(root, 'world/characters.json', '"status": "alive"', '"status": "undead"');
    expect((await validateWorldRepository(root)).valid).toBe(false);
  });

  it('never writes through a link: a .aureus/index that is a symbolic link is left alone', async () => {
    const root = world();
    const elsewhere = path.join(tmp, `elsewhere${n}`);
    fs.mkdirSync(elsewhere);
    fs.mkdirSync(path.join(root, '.aureus'));
    fs.symlinkSync(elsewhere, path.join(root, INDEX_DIR));
    const r = await loadValidatedWorld(root);
    expect(r.world.characters.characters.length).toBeGreaterThan(0);
    expect(fs.readdirSync(elsewhere)).toEqual([]);
  });

  it('a world whose notes are broken gets no entry (its checks did not all run)', async () => {
    const root = world();
    fs.writeFileSync(path.join(root, 'seasons/season_01/notes.json'), '{"format": ');
    await expect(loadValidatedWorld(root)).rejects.toBeInstanceOf(AureusError);
    expect(entries(root)).toEqual([]);
  });

  it('removes the temp file a killed write left, once it is old; a recent one may be a write in progress', async () => {
    const root = world();
    fs.mkdirSync(path.join(root, INDEX_DIR), { recursive: true });
    const old = path.join(root, INDEX_DIR, `${'a'.repeat(64)}.json.4242.tmp`);
    const recent = path.join(root, INDEX_DIR, `${'b'.repeat(64)}.json.4243.tmp`);
    fs.writeFileSync(old, '{"format":');
    fs.writeFileSync(recent, '{"format":');
    const past = new Date(Date.now() - 3600_000);
    fs.utimesSync(old, past, past);
    await loadValidatedWorld(root);
    expect(fs.existsSync(old)).toBe(false);
    expect(fs.existsSync(recent)).toBe(true);
    expect(entries(root).filter((e) => e.endsWith('.json'))).toHaveLength(1);
  });

  it('keeps the eight newest entries', async () => {
    const root = world();
    const p = path.join(root, 'world/world.json');
    const text = fs.readFileSync(p, 'utf8');
    for (let i = 0; i < 10; i++) {
      fs.writeFileSync(p, text + ' '.repeat(i)); // trailing spaces: the same world, other bytes
      await loadValidatedWorld(root);
    }
    expect(entries(root)).toHaveLength(8);
  });

  it('the build step writes the digest of the sources it built (dist/build-id.txt)', () => {
    expect(fs.readFileSync(path.join(REPO, BUILD_ID_FILE), 'utf8').trim()).toBe(sourceDigest(REPO));
  });
});

describe('the derived world index and the other loaders', () => {
  it("loadWorldOrThrow (play) uses an entry a compiling load wrote, and gives the same world and warnings; it writes none itself", async () => {
    const { loadWorldOrThrow } = await import('../../src/store/load.js');
    const root = world();
    const p = path.join(root, 'world/threads.json');
    fs.writeFileSync(p, fs.readFileSync(p, 'utf8').replace(/\n/g, '\r\n'));
    const full = await loadWorldOrThrow(root);
    expect(entries(root)).toEqual([]);
    await loadValidatedWorld(root);
    expect(entries(root)).toHaveLength(1);
    const vouched = await loadWorldOrThrow(root);
    expect(vouched.world).toEqual(full.world);
    expect(vouched.diagnostics).toEqual(full.diagnostics);
    expect(vouched.diagnostics.map((d) => d.code)).toEqual(['AUR1040']);
  });

  it('a new season folder or an anchors file changes the key: the world is checked in full with them', async () => {
    const root = world();
    await loadValidatedWorld(root);
    // A second season without its goals file: the full load says so (the entry of season 1 alone cannot vouch).
    fs.mkdirSync(path.join(root, 'seasons/season_02'));
    await expect(loadValidatedWorld(root)).rejects.toSatisfy((e: unknown) => e instanceof AureusError && e.diagnostics.some((d) => d.file === 'seasons/season_02/season_goals.json'));
    fs.rmdirSync(path.join(root, 'seasons/season_02'));
    // An anchors file naming a character that does not exist: an error only the full load finds.
    fs.writeFileSync(path.join(root, 'world/anchors.json'), JSON.stringify({ format: 'aureus-anchors/1', anchors: [{ id: 'a1', character: 'nemo' }] }, null, 2));
    await expect(loadValidatedWorld(root)).rejects.toSatisfy((e: unknown) => e instanceof AureusError && e.diagnostics.some((d) => d.file === 'world/anchors.json'));
  });
});

describe('an entry forged for other bytes', () => {
  it('a file that does not parse under a forged entry is loaded in full and its error reported, not a crash', async () => {
    const root = world();
    await loadValidatedWorld(root);
    const [name] = entries(root);
    const good = JSON.parse(fs.readFileSync(path.join(root, INDEX_DIR, name!), 'utf8')) as { key: string };
    const p = path.join(root, 'world/characters.json');
    fs.writeFileSync(p, fs.readFileSync(p, 'utf8').slice(0, -10));
    const key = (await loadWorld(root, { index: true })).index!.key;
    expect(key).not.toBe(good.key);
    fs.writeFileSync(path.join(root, INDEX_DIR, `${key}.json`), JSON.stringify({ ...good, key }));
    const err = await loadValidatedWorld(root).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AureusError);
    expect((err as AureusError).diagnostics).toMatchObject([{ code: 'AUR1005', file: 'world/characters.json' }]);
  });
});

describe('a command that is refused writes no entry', () => {
  it('loadValidatedWorld alone writes nothing: the entry is written by remember(), when the command goes ahead', async () => {
    const root = world();
    const r = await loadChecked(root);
    expect(fs.existsSync(path.join(root, '.aureus'))).toBe(false);
    r.remember();
    r.remember();
    expect(entries(root)).toHaveLength(1);
  });
});
