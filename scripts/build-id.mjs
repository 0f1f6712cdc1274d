// Build step (after tsc): dist/build-id.txt, the digest of the sources this dist/ was built from
// (src/, schemas/, package.json, package-lock.json). The derived world index under .aureus/index/
// trusts an entry only when it was written by the same build (src/store/derived-index/build-id.ts
// says why); the digest is the function the CLI uses when it runs from its sources.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { sourceDigest, BUILD_ID_FILE } = await import(pathToFileURL(path.join(root, 'dist/store/derived-index/build-id.js')).href);
writeFileSync(path.join(root, BUILD_ID_FILE), `${sourceDigest(root)}\n`);
