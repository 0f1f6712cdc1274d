#!/usr/bin/env node
// `npm run demo`: scaffold a fresh demo world into ./demo (git-ignored) with `aureus init`, then
// check it with `aureus validate`, exactly as a user would run them. Later steps (compiling an
// episode) are added here as the pipeline lands.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const demo = path.join(repo, 'demo');
const bin = path.join(repo, 'bin', 'aureus.js');

function aureus(...args) {
  process.stdout.write(`\n$ aureus ${args.join(' ')}\n`);
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: repo, stdio: 'inherit' });
  if (r.status !== 0) {
    process.stderr.write(`\ndemo: \`aureus ${args.join(' ')}\` failed with exit code ${r.status ?? r.signal}\n`);
    process.exit(r.status ?? 1);
  }
}

if (!existsSync(path.join(repo, 'dist', 'cli', 'main.js'))) {
  process.stderr.write('demo: the CLI is not built; run `npm install` (or `npm run build`) first\n');
  process.exit(1);
}
if (existsSync(demo)) {
  process.stdout.write(`removing the previous demo world ${demo}\n`);
  rmSync(demo, { recursive: true, force: true });
}
aureus('init', 'demo');
aureus('-C', 'demo', 'validate');
process.stdout.write(`\nThe demo world is in ${demo} (a git repository; ./demo is git-ignored).\nTry: node bin/aureus.js -C demo --help\n`);
