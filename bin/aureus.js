#!/usr/bin/env node
// The `aureus` executable. The CLI is compiled to dist/ by `npm install` (the `prepare` script).
import { readFileSync, statSync } from 'node:fs';

const entry = new URL('../dist/cli/main.js', import.meta.url);
const bundle = new URL('../dist/bundle/main.js', import.meta.url);
const cached = new URL('../dist/bundle/cjs/main.js', import.meta.url);
const mtime = (url) => {
  try {
    return statSync(url).mtimeMs;
  } catch {
    return undefined;
  }
};
const built = mtime(entry);
if (built === undefined) {
  process.stderr.write('aureus: the CLI is not built. Run `npm install` (or `npm run build`) in the aureus package first.\n');
  process.exit(1);
}
// Node ignores SIGXFSZ, so a write past `ulimit -f` fails with EFBIG and is said (AUR1053, exit 11).
// write-file-atomic's signal-exit listens for it, though, and once it is the only listener it
// re-sends the signal to this process with the default action: `export -o` under the limit was
// killed (exit 153) with no word. A listener of our own keeps the signal ignored.
process.on('SIGXFSZ', () => {});
// `aureus status | head` closes our stdout early: that is the reader's choice, not an error; a
// command whose whole job is its output then ends at once. One that does work (`episode run | head`)
// goes on to its end, what it writes to the closed stream dropped, and exits with the work's own
// code: it ended with exit 0 mid-work before (src/cli/io.ts CLOSED_PIPE_KEY says which command does which).
// Any other failure to write stdout (`> /dev/full`, a full disk under `export … > report.html`)
// is: the output is lost, so the command must not exit 0 (README exit codes: 11, AUR1053).
const WRITE_REFUSED = 11;
let saidFailed = false;
function stdoutFailed(e) {
  if (saidFailed) return; // the stream's 'error' and the final flush's callback both report it
  saidFailed = true;
  process.stderr.write(`  error AUR1053 cannot write standard output: ${e.message}\n    hint: the output was not written whole; check where stdout goes (a full disk, a closed file)\n`, () => process.exit(WRITE_REFUSED));
}
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e) => {
    if (e && e.code === 'EPIPE') {
      if (process[Symbol.for('aureus.closedPipe')] === 'keep-working') return;
      process.exit(process.exitCode ?? 0);
    }
    if (stream === process.stdout) stdoutFailed(e);
    else process.exit(WRITE_REFUSED); // stderr itself failed: nowhere left to say it
  });
}
/** Exit with `code` once stdout and stderr are flushed; a stdout write that failed (not EPIPE) is said and exits 11. */
function flushAndExit(code) {
  process.stdout.write('', (e) => {
    if (e && e.code !== 'EPIPE') stdoutFailed(e);
    else process.stderr.write('', () => process.exit(code));
  });
}

/**
 * `aureus --help` (also -h, help) alone: the text commander prints, rendered at build time for each
 * terminal width by scripts/build-help.mjs, so start-up loads no module (issue 18: ≤ 1.3× `node -e 0`).
 * Used only when the manifest is newer than the CLI files it was rendered from; otherwise, or for any
 * other argv, the real CLI runs. test/cli/help-fast-path.test.ts checks the texts against commander.
 */
function prebuiltHelp(argv) {
  if (argv.length !== 1 || !['--help', '-h', 'help'].includes(argv[0])) return undefined;
  try {
    const dir = new URL('../dist/cli/help/', import.meta.url);
    const manifestUrl = new URL('manifest.json', dir);
    const built = statSync(manifestUrl).mtimeMs;
    for (const from of ['main.js', 'commands/index.js']) if (statSync(new URL(from, new URL('../dist/cli/', import.meta.url))).mtimeMs > built) return undefined;
    const m = JSON.parse(readFileSync(manifestUrl, 'utf8'));
    // Commander's width: the terminal's columns on a TTY, else 80.
    const width = (process.stdout.isTTY ? process.stdout.columns : undefined) ?? 80;
    const file = width >= m.wideFrom ? m.wide : m.byWidth[width];
    return typeof file === 'string' ? readFileSync(new URL(file, dir), 'utf8') : undefined;
  } catch {
    return undefined; // no prebuilt help (a partial build): commander prints it
  }
}

/**
 * The start-up bundle of dist/ and its packages (scripts/bundle.mjs: a few dozen files instead of
 * ~400 ESM modules, issue 18), used while it is at least as new as the tsc output it was made from;
 * a dist/ rebuilt without it (tsc alone) runs unbundled. AUREUS_DEBUG=1 prints stack traces: then
 * they are mapped back to src/ through the bundle's source maps (parsing them costs start-up time,
 * so only then).
 * Otherwise the bundle runs with V8's code cache (scripts/bundle-cache.mjs, dist/bundle/cjs/) while
 * that is at least as new as the bundle: compiling the chunks cost ~150–200 ms of each run.
 */
async function cliMain() {
  const b = mtime(bundle);
  if (b === undefined || b < built) return (await import(entry.href)).main;
  if (process.env.AUREUS_DEBUG === '1') process.setSourceMapsEnabled(true);
  else if ((mtime(cached) ?? -1) >= b) {
    const { loadBundle } = await import(new URL('../dist/cli/bundle-loader.js', import.meta.url).href);
    const { fileURLToPath } = await import('node:url');
    return loadBundle(fileURLToPath(new URL('./', cached)), fileURLToPath(new URL('./', bundle)), 'main.js').exports.main;
  }
  return (await import(bundle.href)).main;
}

const argv = process.argv.slice(2);
const help = prebuiltHelp(argv);
if (help !== undefined) {
  process.stdout.write(help);
  flushAndExit(0);
} else {
  const main = await cliMain();
  const code = await main(argv);
  process.exitCode = code;
  // main has finished or handed off everything it started (git's batch reader is unref'd and ends
  // with our stdin): exit once stdout and stderr are flushed, instead of letting Node tear down the
  // heap first, which took 50–100 ms after an episode (issue 18).
  flushAndExit(code);
}
