import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stableStringify } from '../../src/core/json.js';
import { jsonLayoutOf, layoutText, worldFileText } from '../../src/core/json-layout.js';
import { WORLD_FILES } from '../../src/domain/world.js';
import { loadWorld } from '../../src/store/load.js';
import { writeWorld } from '../../src/store/write.js';
import { jsonLayout } from '../../src/store/text-form.js';
import { scaffoldWorld } from '../../src/store/scaffold.js';
import { loadValidatedWorld } from '../../src/store/validate.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** A copy of the starter kit's world files in a fresh folder. */
function starter(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'aureus-layout-'));
  dirs.push(d);
  for (const part of ['world', 'operators', 'seasons']) fs.cpSync(path.join(REPO, part), path.join(d, part), { recursive: true });
  return d;
}

const rewrite = (root: string, rel: string, fn: (v: unknown) => string) => fs.writeFileSync(path.join(root, rel), fn(JSON.parse(fs.readFileSync(path.join(root, rel), 'utf8'))));
/** Each character's keys with "id" and "name" first: the order a person writes them in. */
const idFirst = (v: unknown) => {
  const f = v as { characters: Record<string, unknown>[] };
  return { ...f, characters: f.characters.map(({ id, name, ...rest }) => ({ id, name, ...rest })) };
};

describe('a world file\'s layout (store/text-form.ts jsonLayout)', () => {
  const layoutOf = (text: string) => jsonLayout(Buffer.from(text), JSON.parse(text));
  it('is its first indented line\'s indent, one line\'s none, with or without a final line break', () => {
    expect(layoutOf('{\n    "a": 1\n}\n')).toMatchObject({ indent: '    ', finalNewline: true });
    expect(layoutOf('{\n\t"a": [\n\t\t1\n\t]\n}')).toMatchObject({ indent: '\t', finalNewline: false });
    expect(layoutOf('{"a":1}\n')).toMatchObject({ indent: '', finalNewline: true });
    // Mixed, none at all, or wider than JSON.stringify writes: 2 spaces (and the layout warning says so).
    expect(layoutOf('{\n \t"a": 1\n}\n').indent).toBe('  ');
    expect(layoutOf('{\n"a": 1\n}\n').indent).toBe('  ');
    expect(layoutOf(`{\n${' '.repeat(12)}"a": 1\n}\n`).indent).toBe('  ');
  });
});

describe('writing a loaded world file back (core/json-layout.ts)', () => {
  it('keeps a 4-space file\'s indent, a tab file\'s and an author\'s key order; a canonical file stays canonical', async () => {
    const root = starter();
    rewrite(root, WORLD_FILES.assets, (v) => JSON.stringify(v, null, 4) + '\n');
    rewrite(root, WORLD_FILES.relationships, (v) => JSON.stringify(v, null, '\t'));
    rewrite(root, WORLD_FILES.characters, (v) => JSON.stringify(idFirst(v), null, 2) + '\n');
    const loaded = await loadWorld(root);
    const world = loaded.world!;
    expect(loaded.diagnostics).toEqual([]);
    // Unchanged, every file is written back as it is: nothing to write.
    expect(await writeWorld(root, world)).toEqual([]);
    // A copy with one change (as the delta engine makes it: keys in the order they were) is written in the loaded file's layout.
    const before = Object.fromEntries(Object.values(WORLD_FILES).map((rel) => [rel, fs.readFileSync(path.join(root, rel), 'utf8')]));
    const changed = {
      ...world,
      assets: { ...world.assets, cash_ledger: world.assets.cash_ledger.map((a, i) => (i === 0 ? { ...a, denarii: a.denarii + 1 } : a)) },
      relationships: { ...world.relationships, relationships: world.relationships.relationships.map((r, i) => (i === 0 ? { ...r, flags: [...r.flags, 'oath'] } : r)) },
      characters: { ...world.characters, characters: world.characters.characters.map((c, i) => (i === 0 ? { ...c, stats: { ...c.stats, fama: c.stats.fama - 1 } } : c)) },
      threads: { ...world.threads, threads: world.threads.threads.map((t, i) => (i === 0 ? { ...t, progress: 0.5 } : t)) },
    };
    expect(await writeWorld(root, changed, world)).toEqual([WORLD_FILES.characters, WORLD_FILES.relationships, WORLD_FILES.assets, WORLD_FILES.threads]);
    const lines = (rel: string) => {
      const a = before[rel]!.split('\n');
      const b = fs.readFileSync(path.join(root, rel), 'utf8').split('\n');
      return { added: b.length - a.length, changed: a.filter((l, i) => l !== b[i]).length };
    };
    // A changed value is one line; an added flag one line more (and its list's last line a comma), in the file's own layout.
    expect(lines(WORLD_FILES.assets)).toEqual({ added: 0, changed: 1 });
    expect(lines(WORLD_FILES.characters)).toEqual({ added: 0, changed: 1 });
    expect(lines(WORLD_FILES.threads)).toEqual({ added: 0, changed: 1 });
    const rel = fs.readFileSync(path.join(root, WORLD_FILES.relationships), 'utf8');
    expect(rel).toContain('\n\t\t\t"flags": [');
    expect(rel.endsWith('}')).toBe(true);
    expect(fs.readFileSync(path.join(root, WORLD_FILES.characters), 'utf8')).toMatch(/^ {4}\{\n {6}"id": "[a-z_]+",\n {6}"name": /m);
    // The canonical file is what stableStringify writes, byte for byte.
    expect(fs.readFileSync(path.join(root, WORLD_FILES.threads), 'utf8')).toBe(stableStringify(changed.threads));
  });

  it('a value built in memory, or one whose layout was never noted, is written canonically', () => {
    const v = { b: 1, a: [1, 2] };
    expect(worldFileText(v, v)).toBe(stableStringify(v));
    expect(jsonLayoutOf({})).toEqual({ indent: '  ', sorted: true, finalNewline: true });
    expect(layoutText(v, { indent: '    ', sorted: false, finalNewline: true })).toBe('{\n    "b": 1,\n    "a": [\n        1,\n        2\n    ]\n}\n');
    expect(() => layoutText({ a: Infinity }, { indent: '\t', sorted: false, finalNewline: true })).toThrow(/non-finite/);
  });
});

describe('a layout the writer cannot give back (AUR1041)', () => {
  it('warns once per file, naming it, the first line that would change and how to fix it; a file it can keep gets none', async () => {
    const root = starter();
    // An inline array in a 4-space file.
    rewrite(root, WORLD_FILES.threads, (v) => (JSON.stringify(v, null, 4) + '\n').replace(/("stakeholders": )\[\n\s+"([a-z_]+)",\n\s+"([a-z_]+)"/, '$1["$2", "$3"'));
    // A number-like metric name in a tab file: JavaScript lists it first, whatever the file says.
    rewrite(root, WORLD_FILES.world, (v) => {
      const w = v as { global: Record<string, unknown> };
      const [first] = Object.keys(w.global);
      // Written last (a placeholder renamed in the text: an object literal would put "7" first itself).
      return (JSON.stringify({ ...w, global: { ...w.global, zz_seven: w.global[first!] } }, null, '\t') + '\n').replace('"zz_seven"', '"7"');
    });
    rewrite(root, WORLD_FILES.assets, (v) => JSON.stringify(v, null, 4) + '\n');
    const { diagnostics } = await loadWorld(root);
    const threads = fs.readFileSync(path.join(root, WORLD_FILES.threads), 'utf8').split('\n');
    const worldLines = fs.readFileSync(path.join(root, WORLD_FILES.world), 'utf8').split('\n');
    expect(diagnostics.map((d) => [d.code, d.severity, d.file, d.line])).toEqual([
      ['AUR1041', 'warning', WORLD_FILES.world, worldLines.findIndex((l) => l.includes('"global"')) + 2],
      ['AUR1041', 'warning', WORLD_FILES.threads, threads.findIndex((l) => l.includes('"stakeholders": ["')) + 1],
    ]);
    expect(diagnostics[0]!.hint).toContain('number-like key ("7")');
    expect(diagnostics[1]!.message).toMatch(/^world\/threads\.json cannot be written back as it is laid out: an episode commit that changes it rewrites line \d+ and lines like it$/);
    expect(diagnostics[1]!.hint).toContain('`jq --indent 4 . world/threads.json`');
  });
});

describe('a world the derived index vouches for (store/load.ts parseAllVouched)', () => {
  it('keeps the layout noted, and its AUR1041, as the full load does', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'aureus-layout-ix-'));
    dirs.push(root);
    await scaffoldWorld(path.join(root, 'w'));
    const w = path.join(root, 'w');
    rewrite(w, WORLD_FILES.characters, (v) => JSON.stringify(idFirst(v), null, 4) + '\n');
    rewrite(w, WORLD_FILES.threads, (v) => (JSON.stringify(v, null, 4) + '\n').replace(/("stakeholders": )\[\n\s+"([a-z_]+)",\n\s+"([a-z_]+)"/, '$1["$2", "$3"'));
    const full = await loadValidatedWorld(w);
    full.remember();
    const vouched = await loadWorld(w, { index: true });
    expect(vouched.index?.entry).not.toBeNull();
    expect(vouched.diagnostics.map((d) => [d.code, d.file])).toEqual([['AUR1041', WORLD_FILES.threads]]);
    const world = vouched.world!;
    const changed = { ...world, characters: { ...world.characters, characters: world.characters.characters.map((c, i) => (i === 0 ? { ...c, cue: 'TULLIUS' } : c)) } };
    const before = fs.readFileSync(path.join(w, WORLD_FILES.characters), 'utf8');
    expect(await writeWorld(w, changed, world)).toEqual([WORLD_FILES.characters]);
    const after = fs.readFileSync(path.join(w, WORLD_FILES.characters), 'utf8');
    expect(after.split('\n').length).toBe(before.split('\n').length);
    expect(after.split('\n').filter((l, i) => l !== before.split('\n')[i])).toEqual(['            "cue": "TULLIUS",']);
  });
});
