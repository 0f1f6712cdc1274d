// compromise as the bundle loads it: the same library, with the work its import does on every run
// done once by the build instead (issue 18, ninth pass). Importing compromise 14 cost an offline
// `episode run` ~0.25 s of CPU at its first draft, on the critical path. This module is the esbuild
// plugin that puts the bundle's compromise together (compromiseLoad); each piece is described where
// it lives:
//
// - the pre-tagger's model, computed by the build (its lexicon unpacked and expanded, its
//   conjugation models, its words merged into the world's lexicon, the rest of its tables taken by
//   the world as they are) and carried into the bundle as data modules and files beside the chunks:
//   scripts/compromise-model.mjs. The lexicon's words are looked up in a sorted words file, not
//   built as an object: scripts/compromise-lexicon.mjs (its run-time half is bundled).
// - the lines of compromise's modules that the bundle's copy changes (the pre-tagger's model
//   module, extend()'s mergeDeep, the post-tagger's sweep, parseRegs, the post-tagger's compute
//   step): scripts/compromise-edits.mjs.
// - the post-tagger's match network, which compromise builds at the first document it tags, is
//   built by the build too: scripts/compromise-net.mjs.
//
// Only the bundle is changed: dist/ and the tests from src/ load compromise as published.
// test/scripts/compromise-load.test.ts bundles compromise with this plugin and checks that the
// whole world it builds (model, tags, hooks, methods) equals the published one's, so the two cannot
// drift; each edit is checked as it is applied too (editedSource), so a compromise release that
// moves a line fails the build.
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { editedSource, EDITS, NAMESPACE } from './compromise-edits.mjs';
import { dataModule, LEXICON_RUNTIME, lexiconModule, MODELS_MODULE, plainData, precomputed } from './compromise-model.mjs';
import { netData, netModule } from './compromise-net.mjs';

/** compromise's package folder, as resolved from `from` (the repository root). */
export function compromiseDir(from) {
  let dir = path.dirname(realpathSync(createRequire(path.join(from, 'package.json')).resolve('compromise')));
  while (!existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return dir;
}

/** The post-tagger's network module (compromise-net.mjs), its data checked as plainData checks the lexicon's. */
function postTaggerNet({ source, net }) {
  const { json, links } = plainData(net);
  if (links.length) throw new Error('compromise-load: the post-tagger network data shares objects, which its module does not link back');
  return netModule(source, json);
}

/** The esbuild plugin: compromise, as resolved from `root`, with the edited modules and the precomputed lexicon. */
export async function compromiseLoad(root) {
  const dir = compromiseDir(root);
  const sources = new Map(Object.keys(EDITS).map((m) => [path.join(dir, m), editedSource(m, readFileSync(path.join(dir, m), 'utf8'))]));
  const data = await precomputed(dir);
  const lexicon = lexiconModule(data.lexicon, data.merge, data.leaves);
  const contents = { data: lexicon.code, net: postTaggerNet(await netData(dir)) };
  sources.set(path.join(dir, MODELS_MODULE), dataModule(data.models));
  return {
    name: 'compromise-load',
    setup(b) {
      // The lexicon's files beside the chunks (an outdir's chunks all sit in it; one outfile: beside it).
      const { outdir, outfile } = b.initialOptions;
      // esbuild runs onEnd before it writes the chunks: on a clean clone the folder does not exist yet.
      b.onEnd((result) => {
        if (result.errors.length) return;
        const dir = outdir ?? path.dirname(outfile);
        mkdirSync(dir, { recursive: true });
        for (const [name, contents] of Object.entries(lexicon.files)) writeFileSync(path.join(dir, name), contents);
      });
      b.onResolve({ filter: new RegExp(`^${NAMESPACE}:(data|net)$`) }, (args) => ({ path: args.path.slice(NAMESPACE.length + 1), namespace: NAMESPACE }));
      b.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({ contents: contents[args.path], loader: 'js', resolveDir: path.dirname(LEXICON_RUNTIME) }));
      b.onLoad({ filter: /\.js$/ }, (args) => {
        const file = args.path.includes(`${path.sep}compromise${path.sep}`) ? realpathSync(args.path) : '';
        return sources.has(file) ? { contents: sources.get(file), loader: 'js', resolveDir: path.dirname(file) } : undefined;
      });
    },
  };
}
