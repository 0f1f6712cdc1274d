import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { crc32 } from 'node:zlib';

/**
 * The start-up bundle run with V8's code cache (issue 18, eleventh pass). Node 20 has no compile
 * cache for ES modules, so every run compiled the bundle's chunks (~150–200 ms), then each function
 * again on its first call. scripts/bundle-cache.mjs writes each chunk of dist/bundle/ a second time,
 * as the body of a CommonJS-style function (dist/bundle/cjs/), runs a representative workload with
 * them and saves each chunk's compiled code (`createCachedData`, functions compiled lazily included)
 * next to it. Here a chunk is compiled as a `vm.Script` with that cache, so V8 deserialises its code
 * instead of parsing and compiling it.
 *
 * A cache V8 rejects (another Node or V8 version, other V8 flags, another source) or one that fails
 * its checksum, is older than its chunk or missing is a normal compile: slower, never an error.
 * The chunks keep the ES module bundle's paths: `import.meta.url` is the URL the chunk has in
 * dist/bundle/, so every path resolved from it (the package root, the verify worker's entry,
 * createRequire of ajv and of the precompiled schemas) is the same as with the ES module bundle.
 */

/**
 * A chunk's compiled body: CommonJS's `exports`, `require` and `module` (the chunk declares its own
 * `__filename`, from its URL, as the ES module chunk does), its ES module URL and a dynamic import.
 */
type ChunkBody = (
  exports: object,
  require: (spec: string) => unknown,
  module: { exports: object },
  metaUrl: string,
  dynamicImport: (spec: string) => Promise<unknown>,
) => void;

/** The parameters of a chunk's function: scripts/bundle-cache.mjs writes bodies that use these names. */
export const CHUNK_PARAMS = ['exports', 'require', 'module', '__aureusMetaUrl', '__aureusImport'] as const;

/** How each chunk loaded so far was compiled. */
export interface CacheReport {
  accepted: string[];
  rejected: string[];
  missing: string[];
}

export interface LoadedBundle {
  /** The entry's exports (`main` for dist/bundle/cjs/main.js). */
  exports: Record<string, unknown>;
  report(): CacheReport;
  /** Writes each loaded chunk's code cache (the build's recording run). */
  saveCaches(): void;
}

/** The cache file of a chunk: 4 bytes of CRC-32 of V8's data, then that data. */
export const cacheFile = (chunk: string): string => `${chunk}.cache`;

export function encodeCache(data: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32LE(crc32(data) >>> 0);
  return Buffer.concat([head, data]);
}

/** V8's data from a chunk's cache file, or undefined when it is missing, stale or corrupt. */
function readCache(chunk: string, chunkMtime: number): Buffer | undefined {
  try {
    const file = cacheFile(chunk);
    if (statSync(file).mtimeMs < chunkMtime) return undefined;
    const bytes = readFileSync(file);
    const data = bytes.subarray(4);
    return bytes.length > 4 && bytes.readUInt32LE(0) === crc32(data) >>> 0 ? data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Loads `entry` (a file of dist/bundle/cjs/) and the chunks it requires, each compiled with its code
 * cache unless `record` (the recording run compiles without, so that the saved code is all its own).
 * `esmDir` is dist/bundle/, whose URLs the chunks take as theirs.
 */
export function loadBundle(dir: string, esmDir: string, entry: string, record = false): LoadedBundle {
  const loaded = new Map<string, { module: { exports: object }; script: vm.Script; file: string }>();
  const report: CacheReport = { accepted: [], rejected: [], missing: [] };
  const dynamicImport = (spec: string): Promise<unknown> => (spec.startsWith('./') ? Promise.resolve().then(() => load(spec)) : import(spec));

  function load(spec: string): object {
    const name = path.basename(spec);
    const hit = loaded.get(name);
    if (hit) return hit.module.exports;
    const file = path.join(dir, name);
    const esmFile = path.join(esmDir, name);
    const cachedData = record ? undefined : readCache(file, statSync(file).mtimeMs);
    const source = `(function (${CHUNK_PARAMS.join(', ')}) {'use strict';${readFileSync(file, 'utf8')}\n})`;
    const script = new vm.Script(source, { filename: file, cachedData });
    if (!cachedData) report.missing.push(name);
    else report[script.cachedDataRejected ? 'rejected' : 'accepted'].push(name);
    const module = { exports: {} };
    loaded.set(name, { module, script, file });
    const nodeRequire = createRequire(esmFile);
    const require = (s: string): unknown => (s.startsWith('./') ? load(s) : nodeRequire(s));
    const body = script.runInThisContext() as ChunkBody;
    // An ES module's top level runs with `this` undefined.
    body.call(undefined, module.exports, require, module, pathToFileURL(esmFile).href, dynamicImport);
    return module.exports;
  }

  const exports = load(entry) as Record<string, unknown>;
  return {
    exports,
    report: () => ({ accepted: [...report.accepted], rejected: [...report.rejected], missing: [...report.missing] }),
    saveCaches() {
      for (const { script, file } of loaded.values()) writeFileSync(cacheFile(file), encodeCache(script.createCachedData()));
    },
  };
}
