#!/usr/bin/env node
// The `aureus` executable. The CLI is compiled to dist/ by `npm install` (the `prepare` script).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('aureus: the CLI is not built. Run `npm install` (or `npm run build`) in the aureus package first.\n');
  process.exit(1);
}
// `aureus status | head` closes our stdout early: that is the reader's choice, not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e) => {
    if (e && e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
