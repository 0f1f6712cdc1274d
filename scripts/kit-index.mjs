// Build step (after build-id.mjs): the starter kit's derived-index entry, dist/kit-index/<key>.json,
// which `aureus init` copies into every new world (src/store/derived-index/kit.ts says why). Made by
// the built code itself: a world as `aureus init` makes it, loaded as a compiling command loads it
// (validation, then the entry with the world's hashes). Needs git (init commits); without it, or on
// any failure, no entry is made and new worlds are checked in full on their first run, as before.
import { mkdtempSync, mkdirSync, readdirSync, copyFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = (rel) => import(pathToFileURL(path.join(root, 'dist', rel)).href);
const { KIT_INDEX_DIR } = await dist('store/derived-index/kit.js');
const { INDEX_DIR } = await dist('store/derived-index/entry.js');
const out = path.join(root, KIT_INDEX_DIR);
rmSync(out, { recursive: true, force: true });
const tmp = mkdtempSync(path.join(os.tmpdir(), 'aureus-kit-index-'));
try {
  const { scaffoldWorld } = await dist('store/scaffold.js');
  const { loadValidatedWorld } = await dist('store/validate.js');
  const world = path.join(tmp, 'w');
  await scaffoldWorld(world);
  // The copy init made of a previous build's entry is not this build's: only what this load writes counts.
  rmSync(path.join(world, INDEX_DIR), { recursive: true, force: true });
  (await loadValidatedWorld(world)).remember();
  mkdirSync(out, { recursive: true });
  for (const n of readdirSync(path.join(world, INDEX_DIR))) copyFileSync(path.join(world, INDEX_DIR, n), path.join(out, n));
} catch (e) {
  process.stderr.write(`kit-index: no entry for the starter kit (${e instanceof Error ? e.message.split('\n')[0] : String(e)}); new worlds are checked in full on their first run\n`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
