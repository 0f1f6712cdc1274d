// Build step (after scripts/bundle.mjs): the start-up bundle with V8's code cache (issue 18, eleventh
// pass; src/cli/bundle-loader.ts loads it). Node 20 has no compile cache for ES modules and bin/aureus.js
// cannot pass Node flags, so each run compiled the bundle's chunks (~150–200 ms) and then each function
// again on its first call. A `vm.Script` can be given the code V8 compiled in another run (`cachedData`):
// - each chunk of dist/bundle/ is written again under dist/bundle/cjs/ as a function body: esbuild turns
//   its imports into `require` calls, `import.meta.url` into the chunk's dist/bundle/ URL (a parameter,
//   so every path resolves as with the ES module chunks), and each dynamic `import()` into the loader's;
// - a child process then runs a representative workload on those bodies (a starter world: init, status,
//   validate, an offline `episode run`; an episode plan of the DPRR import) and saves each chunk's code,
//   the functions compiled on first call included, as <chunk>.js.cache.
// The child runs without NODE_OPTIONS: V8 rejects a cache made under other V8 flags (as it does one
// from another Node version), and a rejected cache only means a normal compile.
// The verify worker's entry gets a small module (cjs/verify-worker.mjs) that loads its body the same way;
// the workload verifies in the main thread (AUREUS_WORKERS=0), so the verifier's chunks are cached.
// If the workload fails (no git, say), the cache is left out and bin/aureus.js runs the ES module bundle.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { transformSync } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const esmDir = path.join(root, 'dist/bundle');
const outDir = path.join(esmDir, 'cjs');
const LITERAL_IMPORT = /\bimport\((["'])([^"']+)\1\)/g;
/**
 * The worker threads' entries (scripts/bundle.mjs's WORKERS): a chunk of the cached bundle starts the
 * worker at cjs/<name>.mjs instead, a module that loads the entry's body with the cache the same way.
 */
const WORKERS = ['verify-worker'];
const WORKER_URL = /new URL\((["'])\.\/([\w-]+)\.js\1, import\.meta\.url\)/g;
const workerStub = (name) =>
  [
    '// The worker entry of the cached bundle (scripts/bundle-cache.mjs): its body run with the code cache.',
    "import { fileURLToPath } from 'node:url';",
    "import { loadBundle } from '../../cli/bundle-loader.js';",
    `loadBundle(fileURLToPath(new URL('./', import.meta.url)), fileURLToPath(new URL('../', import.meta.url)), ${JSON.stringify(`${name}.js`)});`,
    '',
  ].join('\n');

/** A chunk of the ES module bundle as the body of the loader's function (CHUNK_PARAMS). */
function chunkBody(file, text) {
  const workers = text.replace(WORKER_URL, (all, q, name) => (WORKERS.includes(name) ? `new URL(${q}./cjs/${name}.mjs${q}, import.meta.url)` : all));
  const calls = workers.replace(LITERAL_IMPORT, '__aureusImport($1$2$1)');
  if (/\bimport\s*\(/.test(calls)) throw new Error(`bundle-cache: ${file} imports a computed specifier; the loader takes literal ones only`);
  const out = transformSync(calls, { format: 'cjs', platform: 'node', target: 'node20', define: { 'import.meta.url': '__aureusMetaUrl' }, logLevel: 'silent', sourcefile: file });
  if (out.warnings.length || out.code.includes('import.meta')) throw new Error(`bundle-cache: ${file} does not convert cleanly: ${out.warnings.map((w) => w.text).join('; ') || 'import.meta left'}`);
  // The chunk's exports object is its live bindings already (a getter each): esbuild's copy of it
  // (`__toCommonJS`, a getter calling that getter) only adds `__esModule`, which no chunk reads (no
  // chunk takes another's default export through `__toESM`). Each call of an imported function reads
  // its binding, so one getter instead of two.
  if (/__toESM\(require\("\.\//.test(out.code)) throw new Error(`bundle-cache: ${file} reads another chunk through __toESM`);
  let exported = 0;
  const code = out.code.replace(/^module\.exports = __toCommonJS\((\w+)\);$/m, (_all, name) => (exported++, `module.exports = ${name};`));
  if (!exported && /^export \{/m.test(text)) throw new Error(`bundle-cache: ${file}'s exports were not found in its CommonJS form`);
  return code;
}

/** The recording run (in the child): the workload on the bodies, then each loaded chunk's cache saved. */
async function record() {
  const { loadBundle } = await import(pathToFileURL(path.join(root, 'dist/cli/bundle-loader.js')).href);
  const bundle = loadBundle(outDir, esmDir, 'main.js', true);
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'aureus-bundle-cache-'));
  try {
    const world = path.join(tmp, 'w');
    const dprr = path.join(tmp, 'dprr');
    const runs = [
      ['init', world],
      ['-C', world, 'status'],
      ['-C', world, 'validate'],
      ['-C', world, 'episode', 'run', '--provider', 'offline', '--json'],
      ['import', 'dprr', dprr, '--from', '-100', '--to', '-44', '--limit', '100'],
      ['-C', dprr, 'episode', 'plan', '--provider', 'offline', '--json'],
    ];
    for (const argv of runs) {
      const code = await bundle.exports.main(argv);
      if (code !== 0) throw new Error(`bundle-cache: \`aureus ${argv.join(' ')}\` exited ${code}`);
    }
    bundle.saveCaches();
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--record') {
  await record();
  process.exit(0); // the workload's git reader and timers are not ours to wait for
} else {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir);
  const chunks = readdirSync(esmDir).filter((f) => f.endsWith('.js'));
  for (const f of chunks) writeFileSync(path.join(outDir, f), chunkBody(f, readFileSync(path.join(esmDir, f), 'utf8')));
  for (const name of WORKERS) writeFileSync(path.join(outDir, `${name}.mjs`), workerStub(name));
  const env = { ...process.env, AUREUS_WORKERS: '0', NO_COLOR: '1', ANTHROPIC_API_KEY: '' };
  delete env.NODE_OPTIONS;
  const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--record'], { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (child.status !== 0) {
    rmSync(outDir, { recursive: true, force: true });
    process.stderr.write(`bundle-cache: the recording run failed (${child.error?.message ?? `exit ${child.status}`}); the CLI runs its bundle without a code cache.\n${child.stderr ?? ''}`);
  } else {
    const caches = readdirSync(outDir).filter((f) => f.endsWith('.cache')).length;
    process.stderr.write(`code cache for ${caches} of ${chunks.length} chunks under dist/bundle/cjs/\n`);
  }
}
