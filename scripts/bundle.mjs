// Build step (after tsc): the CLI as a start-up bundle under dist/bundle/, which bin/aureus.js loads
// instead of dist/cli/main.js (issue 18). Node 20 has no module compile cache, and resolving,
// reading, compiling and linking the ~400 ESM files of dist/ and node_modules an `episode run`
// loads (compromise alone is ~200) cost 300–450 ms of its CPU; a few large files cost a fraction.
//
// esbuild bundles the tsc output (so the code is exactly what dist/ holds, and the source maps chain
// back to src/) with code splitting: the command groups, the prose checks (compromise), listr2 and
// play mode stay chunks loaded only when used (see below for where the lines are); the Anthropic
// SDK is not bundled (Node loads it from node_modules, as before, when a real provider runs).
// The source maps are read only with AUREUS_DEBUG=1 (bin/aureus.js): parsing them costs ~100-250 ms.
//
// Two things a bundle changes are put back:
// - `import.meta.url` of a dist/ module is rewritten to the URL that module has in dist/, so every
//   path resolved from it (the package root in paths.ts, package.json in cli/main.ts, the
//   createRequire of ajv and of the precompiled schemas) is the same as unbundled.
// - CommonJS packages inside an ESM bundle call `require` for Node's built-ins, and may read
//   `__filename`: each chunk gets a real `require` (createRequire of
//   the chunk's own URL) and `__filename` (esbuild renames any module's own declarations of them).
// ajv and dist/schemas-compiled/*.cjs are loaded through createRequire at run time, not bundled.
//
// compromise is bundled with the work its import does on every run (unpacking and expanding its
// lexicon, unpacking its conjugation models) done here instead: scripts/compromise-load.mjs.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { compromiseLoad } from './compromise-load.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const outDir = path.join(dist, 'bundle');

/**
 * dist/ imports many of its own modules dynamically so that the unbundled CLI loads only what a
 * command needs. Kept as they are in a bundle, each would be a chunk, and the command groups' shared
 * code would be cut into a chunk per combination of groups using it (~220 files; ~120 loaded by an
 * `episode run`). So the bundle draws fewer lines:
 * - the command table's loaders import one of four chunks of command modules: the pipeline's
 *   (episode, season, scene), import's and export's (csv-parse, marked and the importers, ~190 KB
 *   that no other command needs), and the rest (one chunk per command group cut the code they share
 *   into ~60 chunks per `episode run`; one chunk for all made `status` load ~380 KB more);
 * - any other dynamic import of a dist/ module is bundled as a static one, unless it brings in a
 *   heavy part the importer does not already load: compromise (the prose checks), listr2, play mode;
 * - the offline provider's per-role module (`import(\`./${role}.js\`)`, which esbuild would make a
 *   chunk of every file in its folder) is one of the roles' modules, bundled by the same rule;
 * - imports of packages (listr2, the SDK, which is not bundled) stay dynamic.
 */
const HEAVY = ['node_modules/compromise/', 'node_modules/listr2/', 'dist/play/'];
/**
 * Worker threads' entries (stages/verify-pool.ts, import/generate.ts): each one an entry point of
 * the bundle, at dist/bundle/<name>.js. The module that starts one names it `new URL('./<name>.js', import.meta.url)`
 * next to itself in dist/; in the bundle that URL is taken from the chunk's own (real) URL instead,
 * so the bundled CLI starts the bundled worker, and dist/ the unbundled one.
 */
const WORKERS = { 'verify-worker': path.join(dist, 'stages/verify-worker.js'), 'generate-worker': path.join(dist, 'import/generate-worker.js') };
const WORKER_URL = /new URL\((['"])\.\/([\w-]+)\.js\1, import\.meta\.url\)/g;
const CHUNK_URL = '__aureusChunkUrl__';
const TABLE = path.join(dist, 'cli/commands/index.js');
/** The command modules' chunks: the pipeline's, import's and export's (their own large packages), the rest. */
const COMMAND_GROUPS = {
  pipeline: ['episode-plan', 'episode-run', 'episode-review', 'season', 'scene-verify', 'scene-review'],
  import: ['import'],
  export: ['export'],
};
const groupOf = (spec) => Object.keys(COMMAND_GROUPS).find((g) => COMMAND_GROUPS[g].some((m) => spec === `./${m}.js`)) ?? 'world';
const DYNAMIC = /\bimport\((['"])(\.\.?\/[^'"]+\.js)\1\)/g;
const OFFLINE = path.join(dist, 'providers/offline/index.js');
const ROLE_IMPORT = 'import(`./${role}.js`)';
const { LLM_ROLES } = await import(pathToFileURL(path.join(dist, 'ports/llm.js')).href);

/**
 * The offline provider's role loader, as a function of the role: each role's module imported
 * (statically or lazily, by `lazy`), and a role without one rejected as a missing module is.
 */
function offlineRoles(lazy) {
  const eager = [];
  const cases = LLM_ROLES.map((role) => {
    const file = path.join(path.dirname(OFFLINE), `${role}.js`);
    const spec = JSON.stringify(`./${role}.js`);
    if (!existsSync(file)) return `    case ${JSON.stringify(role)}: break;`;
    if (lazy(OFFLINE, file)) return `    case ${JSON.stringify(role)}: return import(${spec});`;
    eager.push(`import * as __aureusRole${eager.length} from ${spec};`);
    return `    case ${JSON.stringify(role)}: return Promise.resolve(__aureusRole${eager.length - 1});`;
  });
  return [
    ...eager,
    'function __aureusRoleModule(role) {',
    '  switch (role) {',
    ...cases,
    '  }',
    '  return Promise.reject(Object.assign(new Error(`Cannot find module \'./${role}.js\'`), { code: \'ERR_MODULE_NOT_FOUND\' }));',
    '}',
  ].join('\n');
}

/** Whether a module's static imports (transitively) reach a heavy package. */
function reachesHeavy(inputs) {
  const memo = new Map();
  return (start) => {
    if (memo.has(start)) return memo.get(start);
    const seen = new Set([start]);
    const todo = [start];
    let found = false;
    while (todo.length && !found) {
      const file = todo.pop();
      if (HEAVY.some((h) => file.includes(h))) found = true;
      for (const i of inputs[file]?.imports ?? []) {
        if (i.kind === 'dynamic-import' || i.external || seen.has(i.path)) continue;
        seen.add(i.path);
        todo.push(i.path);
      }
    }
    memo.set(start, found);
    return found;
  };
}

const common = {
  absWorkingDir: root,
  entryPoints: { main: path.join(dist, 'cli/main.js'), ...WORKERS },
  outdir: outDir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: '[name]-[hash]',
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
  // Loaded by createRequire at run time (ajv: from node_modules; the validators: dist/schemas-compiled).
  // The Anthropic SDK stays Node's to load, only when a real provider runs: bundled, its CommonJS
  // lib/transform-json-schema.js came back from import() with a default export only (Node gives
  // the named ones), so the wire body had no transform.
  external: ['ajv', 'ajv/*', 'ajv-formats', '@anthropic-ai/sdk', '@anthropic-ai/sdk/*'],
};

/**
 * `yaml` as its ES module build (the package's `default` export condition; Node's own condition gets its
 * CommonJS build): the same sources, but esbuild can hoist its ~70 modules into the chunk instead of
 * wrapping each in a `require` that runs at start-up, and leave out what the config reader never calls.
 */
const yamlEsm = {
  name: 'yaml-esm',
  setup(b) {
    b.onResolve({ filter: /^yaml$/ }, () => ({ path: path.join(root, 'node_modules/yaml/browser/index.js') }));
  },
};

/** Pass 1: the module graph as esbuild resolves it, to find which dynamic imports reach a heavy package. */
// compromise with its lexicon expanded at build time (scripts/compromise-load.mjs).
const compromise = await compromiseLoad(root);
const graph = await build({ ...common, write: false, plugins: [yamlEsm, distModules(() => true), compromise] });
const heavy = reachesHeavy(graph.metafile.inputs);
const rel = (file) => path.relative(root, file).split(path.sep).join('/');
const keepDynamic = (importer, target) => heavy(rel(target)) && !heavy(rel(importer));

/**
 * dist/ modules as loaded into the bundle: `import.meta.url` as unbundled, and each dynamic import
 * of a dist/ module that `lazy(importer, target)` does not keep turned into a static one (the
 * namespace object it resolved to, already evaluated: these modules have no import-time effects).
 */
function distModules(lazy, groupCommands = false) {
  const commands = [];
  return {
    name: 'dist-modules',
    setup(b) {
      b.onResolve({ filter: /^aureus:commands\// }, (args) => ({ path: args.path.slice('aureus:commands/'.length), namespace: 'aureus-commands' }));
      b.onLoad({ filter: /.*/, namespace: 'aureus-commands' }, (args) => ({
        contents: commands.map((spec, i) => (groupOf(spec) === args.path ? `export * as c${i} from ${JSON.stringify(spec)};` : '')).join('\n'),
        loader: 'js',
        resolveDir: path.dirname(TABLE),
      }));
      b.onLoad({ filter: /\.js$/ }, (args) => {
        if (!args.path.startsWith(dist + path.sep)) return undefined;
        let text = readFileSync(args.path, 'utf8');
        if (groupCommands && args.path === TABLE) {
          return {
            contents: text.replace(DYNAMIC, (_all, _q, spec) => `import("aureus:commands/${groupOf(spec)}").then((m) => m.c${commands.push(spec) - 1})`),
            loader: 'js',
            resolveDir: path.dirname(args.path),
          };
        }
        text = text.replace(WORKER_URL, (all, _q, name) => (WORKERS[name] === path.join(path.dirname(args.path), `${name}.js`) ? `new URL(${JSON.stringify(`./${name}.js`)}, ${CHUNK_URL})` : all));
        const meta = text.includes('import.meta.url') || text.includes(CHUNK_URL);
        const hoisted = [];
        if (args.path === OFFLINE && text.includes(ROLE_IMPORT)) {
          hoisted.push(offlineRoles(lazy));
          text = text.replace(ROLE_IMPORT, '__aureusRoleModule(role)');
        }
        text = text.replace(DYNAMIC, (all, _q, spec) => {
          if (lazy(args.path, path.resolve(path.dirname(args.path), spec))) return all;
          hoisted.push(`import * as __aureusEager${hoisted.length} from ${JSON.stringify(spec)};`);
          return `Promise.resolve(__aureusEager${hoisted.length - 1})`;
        });
        if (!meta && !hoisted.length) return undefined;
        const url = path.relative(outDir, args.path).split(path.sep).join('/');
        if (meta) text = text.replaceAll('import.meta.url', `new URL(${JSON.stringify(url)}, import.meta.url).href`).replaceAll(CHUNK_URL, 'import.meta.url');
        return { contents: hoisted.join('\n') + (hoisted.length ? '\n' : '') + text, loader: 'js', resolveDir: path.dirname(args.path) };
      });
    },
  };
}

rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const result = await build({
  ...common,
  sourcemap: 'linked',
  sourcesContent: false,
  banner: { js: "import { createRequire as __aureusCreateRequire } from 'node:module'; import { fileURLToPath as __aureusFileURLToPath } from 'node:url'; const require = __aureusCreateRequire(import.meta.url); const __filename = __aureusFileURLToPath(import.meta.url);" },
  plugins: [yamlEsm, distModules(keepDynamic, true), compromise],
});

// The same trap for any other package imported dynamically: esbuild makes a CommonJS one a chunk that
// exports `default` only. Allowed where the code reads only `default` (none today).
const DEFAULT_ONLY = [];
for (const [file, out] of Object.entries(result.metafile.outputs)) {
  const cjs = out.entryPoint && result.metafile.inputs[out.entryPoint]?.format === 'cjs';
  if (cjs && !DEFAULT_ONLY.some((d) => out.entryPoint.includes(d))) {
    throw new Error(`bundle: ${out.entryPoint} is imported dynamically and is CommonJS: its chunk ${file} would export only \`default\`; make it external or list it in DEFAULT_ONLY`);
  }
}
const outputs = Object.keys(result.metafile.outputs).filter((f) => f.endsWith('.js'));
const inputs = Object.keys(result.metafile.inputs).length;
process.stderr.write(`bundled ${inputs} modules into ${outputs.length} files under dist/bundle/\n`);
