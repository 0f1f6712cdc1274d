import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { REPO, tempDirsPerTest } from './helpers.js';

/**
 * `aureus --help` prints a text rendered at build time (scripts/build-help.mjs) without loading the
 * CLI (issue 18). It must be exactly what commander prints, at every terminal width, and must not be
 * used once the CLI is rebuilt without it.
 */
async function commanderHelp(width: number | undefined): Promise<string> {
  const saved = ['isTTY', 'columns'].map((k) => [k, Object.getOwnPropertyDescriptor(process.stdout, k)] as const);
  Object.defineProperty(process.stdout, 'isTTY', { value: width !== undefined, configurable: true, writable: true });
  Object.defineProperty(process.stdout, 'columns', { value: width, configurable: true, writable: true });
  try {
    let out = '';
    const code = await main(['--help'], { stdout: (t) => void (out += t), stderr: () => undefined, env: {}, cwd: REPO, isTTY: false });
    expect(code).toBe(0);
    return out;
  } finally {
    for (const [k, d] of saved) {
      if (d) Object.defineProperty(process.stdout, k, d);
      else delete (process.stdout as unknown as Record<string, unknown>)[k];
    }
  }
}

const helpDir = path.join(REPO, 'dist/cli/help');
const manifest = () => JSON.parse(fs.readFileSync(path.join(helpDir, 'manifest.json'), 'utf8')) as { wideFrom: number; wide: string; byWidth: Record<string, string> };
const prebuilt = (width: number) => {
  const m = manifest();
  return fs.readFileSync(path.join(helpDir, width >= m.wideFrom ? m.wide : m.byWidth[width]!), 'utf8');
};

const { temp } = tempDirsPerTest();

describe('prebuilt top-level help', () => {
  it('is what commander prints through a pipe, for --help, -h and help', async () => {
    const expected = await commanderHelp(undefined);
    expect(expected).toContain('Usage: aureus [options] [command]');
    for (const flag of ['--help', '-h', 'help']) {
      const p = spawnSync(process.execPath, [path.join(REPO, 'bin/aureus.js'), flag], { encoding: 'utf8' });
      expect(p.status).toBe(0);
      expect(p.stderr).toBe('');
      expect(p.stdout).toBe(expected);
    }
  });

  it('is what commander prints on a terminal of each width, narrow to wide', async () => {
    const m = manifest();
    for (const width of [1, 20, 39, 40, 41, 60, 79, 80, 81, 100, 120, m.wideFrom - 1, m.wideFrom, 250]) {
      expect(prebuilt(width), `width ${width}`).toBe(await commanderHelp(width));
    }
  });

  it('is printed without the CLI, and ignored once the CLI is newer than it', () => {
    // A copy of the package whose prebuilt texts are marked, to see which path printed the help.
    const root = temp('help-fast');
    fs.cpSync(path.join(REPO, 'bin'), path.join(root, 'bin'), { recursive: true });
    fs.cpSync(path.join(REPO, 'dist'), path.join(root, 'dist'), { recursive: true });
    fs.cpSync(path.join(REPO, 'package.json'), path.join(root, 'package.json'));
    fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'));
    const help = path.join(root, 'dist/cli/help');
    const m = manifest();
    for (const f of new Set([m.wide, ...Object.values(m.byWidth)])) fs.writeFileSync(path.join(help, f), `marked ${f}\n`);
    const past = new Date(Date.now() - 60_000);
    fs.utimesSync(path.join(root, 'dist/cli/main.js'), past, past);
    fs.utimesSync(path.join(root, 'dist/cli/commands/index.js'), past, past);
    const run = () => spawnSync(process.execPath, [path.join(root, 'bin/aureus.js'), '--help'], { encoding: 'utf8' });
    expect(run().stdout).toBe(`marked ${m.byWidth['80']}\n`);

    const future = new Date(Date.now() + 60_000);
    fs.utimesSync(path.join(root, 'dist/cli/main.js'), future, future);
    const stale = run();
    expect(stale.status).toBe(0);
    expect(stale.stdout).toContain('Usage: aureus [options] [command]');
    expect(stale.stdout).not.toContain('marked');

    fs.rmSync(help, { recursive: true });
    fs.utimesSync(path.join(root, 'dist/cli/main.js'), past, past);
    expect(run().stdout).toContain('Usage: aureus [options] [command]');
  });
});
