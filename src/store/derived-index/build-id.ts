import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../paths.js';

/**
 * Which code a derived index entry was made by (docs/world-index-proposal.md). A verdict ("this world
 * is valid, with these warnings") and the world's hashes are facts about the files *and* the checks
 * and hash definitions that produced them, so an entry is trusted only by the very code that wrote
 * it. The package version alone would not do: a checkout between releases changes checks without
 * changing it.
 *
 * The digest covers what decides those facts: every file under src/ and schemas/, package.json and
 * package-lock.json (the validator's version words its messages). `npm run build` writes it to
 * dist/build-id.txt (scripts/build-id.mjs), and the built CLI reads that file; run from its sources
 * (the tests, in process) the digest is taken from the sources themselves, once per process.
 */
export const BUILD_ID_FILE = 'dist/build-id.txt';

/** The digest of the sources under `root` (the package root), as scripts/build-id.mjs writes it. */
export function sourceDigest(root: string): string {
  const h = createHash('sha256');
  const files = [...listFiles(root, 'src'), ...listFiles(root, 'schemas'), 'package.json', 'package-lock.json'];
  for (const rel of files) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(path.join(root, rel));
    } catch {
      continue; // no lock file in a copy without one: the rest still names the code
    }
    h.update(`${rel}\0${bytes.length}\0`).update(bytes);
  }
  return h.digest('hex');
}

/** Files under root/dir, relative to root with forward slashes, in code-point order (the digest's order on every system). */
function listFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const e of readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = `${rel}/${e.name}`;
      if (e.isDirectory()) walk(child);
      else if (e.isFile()) out.push(child);
    }
  };
  try {
    walk(dir);
  } catch {
    return [];
  }
  return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

let memo: string | null | undefined;

/**
 * This process's build id, or null when it cannot be known (a dist/ built without the build step
 * that writes it): then no index entry is read or written, and every run checks in full.
 */
export function buildId(): string | null {
  if (memo !== undefined) return memo;
  const root = packageRoot();
  if (import.meta.url.endsWith('.ts')) return (memo = `src:${sourceDigest(root)}`);
  try {
    const id = readFileSync(path.join(root, BUILD_ID_FILE), 'utf8').trim();
    memo = /^[0-9a-f]{64}$/.test(id) ? id : null;
  } catch {
    memo = null;
  }
  return memo;
}
