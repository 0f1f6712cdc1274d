import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { REPO, packageCopy as copyPackage, tempDirsPerTest } from './helpers.js';

/**
 * bin/aureus.js runs the start-up bundle with V8's code cache (scripts/bundle-cache.mjs writes
 * dist/bundle/cjs/ and records the cache at build time; src/cli/bundle-loader.ts loads it). The
 * cache must be accepted by the Node that built it (else it only costs), and a cache that is
 * corrupt, made under other V8 flags or by another Node, made for another chunk, or older than its
 * chunk must be a normal compile with the same output, never an error.
 */
// Skipped only without a bundle (a bare tsc build): a build whose recording run failed leaves the bundle
// without its cache, and fails here.
const bundled = fs.existsSync(path.join(REPO, 'dist/bundle/main.js'));
const { temp, keep } = tempDirsPerTest();

/** A copy of the built package, its files' times kept, to change its cache without touching the repo's. */
function packageCopy(): string {
  return keep(copyPackage('cache-pkg', { preserveTimestamps: true }));
}

// Without NODE_OPTIONS: the claim is about Node's default V8 flags, which bin/aureus.js runs under.
const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ANTHROPIC_API_KEY: '', AUREUS_WORKERS: '0', NODE_OPTIONS: '' };
const aureus = (pkg: string, args: string[], extra: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, [path.join(pkg, 'bin/aureus.js'), ...args], { encoding: 'utf8', env: { ...env, ...extra } });

/** The loader run as bin/aureus.js runs it, with how each chunk was compiled printed after the output. */
const PROBE = `
const [pkg, ...argv] = process.argv.slice(1);
const { loadBundle } = await import(pkg + '/dist/cli/bundle-loader.js');
const bundle = loadBundle(pkg + '/dist/bundle/cjs', pkg + '/dist/bundle', 'main.js');
const code = await bundle.exports.main(argv);
process.stderr.write('\\nREPORT ' + JSON.stringify(bundle.report()) + '\\n', () => process.exit(code));
`;
function probe(pkg: string, args: string[]) {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', PROBE, pkg, ...args], { encoding: 'utf8', env });
  const line = r.stderr.split('\n').find((l) => l.startsWith('REPORT '));
  expect(line, r.stderr).toBeDefined();
  return { status: r.status, stdout: r.stdout, report: JSON.parse(line!.slice('REPORT '.length)) as { accepted: string[]; rejected: string[]; missing: string[] } };
}

function starterWorld(pkg: string): string {
  const world = path.join(temp('cache-world'), 'w');
  const init = aureus(pkg, ['init', world]);
  expect(init.status, init.stderr).toBe(0);
  return world;
}

const PLAN = ['episode', 'plan', '--provider', 'offline', '--json'];

/** A chunk's cache file rewritten: `edit` gets V8's data (after our 4-byte checksum), the checksum is made to match again. */
function rewriteCache(file: string, edit: (data: Buffer) => Buffer): void {
  const data = edit(Buffer.from(fs.readFileSync(file).subarray(4)));
  const head = Buffer.alloc(4);
  head.writeUInt32LE(crc32(data) >>> 0);
  fs.writeFileSync(file, Buffer.concat([head, data]));
}

describe.skipIf(!bundled)('start-up bundle code cache', () => {
  it('is accepted for every chunk an episode plan loads, and gives the output of the ES module bundle', () => {
    const world = starterWorld(REPO);
    const other = starterWorld(REPO);
    const run = probe(REPO, ['-C', world, ...PLAN]);
    expect(run.status).toBe(0);
    expect(run.report.rejected).toEqual([]);
    expect(run.report.missing).toEqual([]);
    expect(run.report.accepted).toContain('main.js');
    expect(run.report.accepted.some((c) => c.startsWith('pipeline-'))).toBe(true);
    const esm = aureus(REPO, ['-C', other, ...PLAN], { AUREUS_DEBUG: '1' }); // AUREUS_DEBUG=1 runs the ES module bundle
    expect(esm.status, esm.stderr).toBe(0);
    expect(run.stdout.replaceAll(world, '<world>')).toBe(esm.stdout.replaceAll(other, '<world>'));
  });

  it("is accepted in the verify worker's thread (cjs/verify-worker.mjs), which the cached bundle starts", () => {
    const chunks = fs.readdirSync(path.join(REPO, 'dist/bundle/cjs')).filter((f) => f.endsWith('.js'));
    expect(chunks.filter((f) => fs.readFileSync(path.join(REPO, 'dist/bundle/cjs', f), 'utf8').includes('new URL("./cjs/verify-worker.mjs", __aureusMetaUrl)'))).toHaveLength(1);
    const script = `
      const { Worker } = require('node:worker_threads');
      const root = ${JSON.stringify(REPO)};
      const w = new Worker(\`
        const { parentPort } = require('node:worker_threads');
        import(\${JSON.stringify(root + '/dist/cli/bundle-loader.js')}).then(({ loadBundle }) => {
          const b = loadBundle(\${JSON.stringify(root + '/dist/bundle/cjs')}, \${JSON.stringify(root + '/dist/bundle')}, 'verify-worker.js');
          parentPort.postMessage(b.report());
        });\`, { eval: true });
      w.on('message', (m) => { process.stdout.write(JSON.stringify(m)); w.terminate(); });`;
    const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', env });
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { accepted: string[]; rejected: string[]; missing: string[] };
    expect(report.rejected).toEqual([]);
    expect(report.missing).toEqual(['verify-worker.js']); // the entry itself: the recording verifies in the main thread
    expect(report.accepted.length).toBeGreaterThan(3);
  });

  it('is what bin/aureus.js runs while it is at least as new as the bundle, except with AUREUS_DEBUG=1', () => {
    const pkg = packageCopy();
    const version = `${(JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string }).version}\n`;
    // A marked entry, to see which path ran.
    fs.writeFileSync(path.join(pkg, 'dist/bundle/cjs/main.js'), "module.exports.main = async () => { process.stdout.write('cached\\n'); return 0; };\n");
    expect(aureus(pkg, ['--version']).stdout).toBe('cached\n');
    expect(aureus(pkg, ['--version'], { AUREUS_DEBUG: '1' }).stdout).toBe(version);
    const past = new Date(fs.statSync(path.join(pkg, 'dist/bundle/main.js')).mtimeMs - 60_000);
    fs.utimesSync(path.join(pkg, 'dist/bundle/cjs/main.js'), past, past);
    expect(aureus(pkg, ['--version']).stdout).toBe(version);
  });

  it('is a normal compile, with the same output, when corrupt, from other V8 flags, for another chunk or stale', () => {
    const pkg = packageCopy();
    const dir = path.join(pkg, 'dist/bundle/cjs');
    const first = starterWorld(pkg);
    const before = probe(pkg, ['-C', first, ...PLAN]);
    const [a, b, c, d] = before.report.accepted.filter((n) => n !== 'main.js').sort((x, y) => fs.statSync(path.join(dir, y)).size - fs.statSync(path.join(dir, x)).size);
    expect(d).toBeDefined();
    // Corrupt: a byte of V8's data flipped (our checksum no longer matches: the cache is not used).
    const main = path.join(dir, 'main.js.cache');
    const bytes = fs.readFileSync(main);
    bytes[bytes.length >> 1]! ^= 0xff;
    fs.writeFileSync(main, bytes);
    // Other V8 flags (or another Node: the version hash is the word before): V8's flag hash changed.
    rewriteCache(path.join(dir, `${a}.cache`), (data) => (data.writeUInt32LE(data.readUInt32LE(12) ^ 1, 12), data));
    // Another chunk's cache.
    fs.copyFileSync(path.join(dir, `${c}.cache`), path.join(dir, `${b}.cache`));
    // Stale: the chunk rewritten after its cache.
    const later = new Date(fs.statSync(path.join(dir, `${d}.cache`)).mtimeMs + 60_000);
    fs.utimesSync(path.join(dir, d!), later, later);

    const world = starterWorld(pkg);
    const after = probe(pkg, ['-C', world, ...PLAN]);
    expect(after.status).toBe(0);
    expect(after.report.rejected.sort()).toEqual([a, b].sort());
    expect(after.report.missing.sort()).toEqual(['main.js', d].sort());
    const third = starterWorld(pkg);
    const bin = aureus(pkg, ['-C', third, ...PLAN]);
    expect(bin.status, bin.stderr).toBe(0);
    expect(bin.stderr).toBe('');
    const expected = before.stdout.replaceAll(first, '<world>');
    expect(after.stdout.replaceAll(world, '<world>')).toBe(expected);
    expect(bin.stdout.replaceAll(third, '<world>')).toBe(expected);
  });
});
