#!/usr/bin/env node
// `npm run demo`: scaffold a fresh demo world into ./demo (git-ignored) with `aureus init`, check it
// with `aureus validate`, compile episode S01E01 offline with `aureus episode run` (stages A–H,
// committed to the demo repository and tagged s01e01), and print where the script is — exactly
// the commands a user would type.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const demo = path.join(repo, 'demo');
const bin = path.join(repo, 'bin', 'aureus.js');
// The demo is offline whatever the environment: no key is read, no network is used.
const env = { ...process.env };
delete env.ANTHROPIC_API_KEY;

function aureus(...args) {
  process.stdout.write(`\n$ aureus ${args.join(' ')}\n`);
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: repo, stdio: 'inherit', env });
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
aureus('-C', 'demo', 'episode', 'run', '--provider', 'offline');
aureus('-C', 'demo', 'validate');
const script = path.join(demo, 'seasons', 'season_01', 'episode_01', 'episode_script.md');
process.stdout.write(
  `\nThe script of S01E01 is in ${script}\n` +
    `The demo world is a git repository (./demo is git-ignored); the episode is its commit tagged s01e01.\n` +
    `Try:\n  node bin/aureus.js -C demo status\n  node bin/aureus.js -C demo recap\n  node bin/aureus.js -C demo export s01e01 --format html -o s01e01.html   (written to demo/s01e01.html)\n  node bin/aureus.js -C demo episode run      (the next episode)\n`,
);
