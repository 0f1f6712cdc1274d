// Build step (after tsc): the top-level help as commander prints it, written under dist/cli/help/ so
// `aureus --help` (bin/aureus.js) can print it without loading the CLI (issue 18: start-up ≤ 1.3×
// `node -e 0`; ESM loading of commander, chalk and our modules was the whole gap).
//
// Commander wraps the help to the terminal's width (80 when stdout is not a TTY), so the text is
// rendered by the real CLI (dist/cli/main.js, the same code path as a user's `aureus --help`) once per
// width below the one from which nothing wraps any more, and once "wide". Identical texts share a file.
// manifest.json is written last: bin/aureus.js uses the files only when the manifest is newer than
// the CLI files the help comes from, so a rebuild of dist/ without this step falls back to commander.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'dist/cli/help');
const { main } = await import(pathToFileURL(path.join(root, 'dist/cli/main.js')).href);

// Commander reads the width from process.stdout (isTTY, columns): set it for each rendering.
const tty = Object.getOwnPropertyDescriptor(process.stdout, 'isTTY');
const cols = Object.getOwnPropertyDescriptor(process.stdout, 'columns');
async function helpAt(width) {
  Object.defineProperty(process.stdout, 'isTTY', { value: true, configurable: true, writable: true });
  Object.defineProperty(process.stdout, 'columns', { value: width, configurable: true, writable: true });
  let out = '';
  let err = '';
  const io = { stdout: (t) => void (out += t), stderr: (t) => void (err += t), env: {}, cwd: root, isTTY: false };
  const code = await main(['--help'], io);
  if (code !== 0 || err) throw new Error(`build-help: aureus --help at width ${width} exited ${code}: ${err}`);
  return out;
}

try {
  const WIDE = 100000;
  const wide = await helpAt(WIDE);
  // Past the longest unwrapped line nothing can wrap; below that, each width is rendered.
  const longest = Math.max(...wide.split('\n').map((l) => l.length));
  const byWidth = {};
  const files = new Map();
  const fileFor = (text) => {
    const name = createHash('sha256').update(text).digest('hex').slice(0, 16) + '.txt';
    files.set(name, text);
    return name;
  };
  for (let w = 1; w <= longest; w++) byWidth[w] = fileFor(await helpAt(w));
  const wideFile = fileFor(wide);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  for (const [name, text] of files) writeFileSync(path.join(outDir, name), text);
  writeFileSync(path.join(outDir, 'manifest.json'), JSON.stringify({ wideFrom: longest + 1, wide: wideFile, byWidth }) + '\n');
  process.stderr.write(`built the top-level help for widths 1–${longest} and wider (${files.size} distinct texts) into dist/cli/help/\n`);
} finally {
  for (const [k, d] of [['isTTY', tty], ['columns', cols]]) {
    if (d) Object.defineProperty(process.stdout, k, d);
    else delete process.stdout[k];
  }
}
