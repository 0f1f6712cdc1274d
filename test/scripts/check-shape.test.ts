import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const script = path.join(repo, 'scripts', 'check-shape.mjs');

interface Violation {
  kind: 'file' | 'function';
  file: string;
  name: string | null;
  within?: string[];
  line: number;
  lines: number;
}

/**
 * Known exceptions: none left. An entry would name a function still being split (a long callback
 * nested inside it is covered by its entry); the second test drops entries once they are split.
 */
const ALLOWED: ReadonlyArray<{ file: string; name: string }> = [];

function run(dirs: string[], cwd = repo): { code: number | null; violations: Violation[]; stderr: string } {
  const r = spawnSync(process.execPath, [script, ...dirs, '--json'], { cwd, encoding: 'utf8' });
  return { code: r.status, violations: r.stdout ? (JSON.parse(r.stdout) as Violation[]) : [], stderr: r.stderr };
}

function allowed(v: Violation): boolean {
  const outer = v.within && v.within.length > 0 ? v.within[0] : v.name;
  return v.kind === 'function' && ALLOWED.some((a) => a.file === v.file && a.name === outer);
}

/** Every folder of ours that holds code: what ships, what builds and measures it, and the tests. */
const CHECKED = ['src', 'scripts', 'bench', 'bin', 'test'];

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) fs.rmSync(t, { recursive: true, force: true });
});

describe('scripts/check-shape.mjs', () => {
  it('finds no file over 400 lines and no function over 80 in the sources, scripts, bench and tests beyond the allowlist', () => {
    const r = run(CHECKED);
    expect(r.stderr).toBe('');
    const unexpected = r.violations.filter((v) => !allowed(v));
    expect(unexpected, 'split these by responsibility (see BRIEF: no file over 400, no function over 80)').toEqual([]);
  });

  it('keeps the allowlist honest: every entry is still a violation', () => {
    const { violations } = run(CHECKED);
    const stale = ALLOWED.filter((a) => !violations.some((v) => v.file === a.file && v.name === a.name));
    expect(stale, 'these were split: drop them from ALLOWED').toEqual([]);
  });

  it('reports a long file, a long function and a long nested arrow, and exits 1', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aureus-shape-'));
    temps.push(dir);
    fs.mkdirSync(path.join(dir, 'src', 'a'), { recursive: true });
    const body = (n: number): string => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');
    // 79 body lines + the opening and closing lines = 81: one over.
    fs.writeFileSync(path.join(dir, 'src', 'a', 'long.ts'), `export function tooLong(): void {\n${body(79)}\n}\n`);
    // 78 body lines = 80: exactly at the limit, not reported.
    fs.writeFileSync(path.join(dir, 'src', 'a', 'ok.ts'), `export function justFits(): void {\n${body(78)}\n}\n`);
    fs.writeFileSync(
      path.join(dir, 'src', 'nested.ts'),
      `export class K {\n  m(): void {\n    const cb = () => {\n${body(80)}\n    };\n    cb();\n  }\n}\n`,
    );
    fs.writeFileSync(path.join(dir, 'src', 'big.ts'), `${Array.from({ length: 401 }, (_, i) => `export const c${i} = ${i};`).join('\n')}\n`);
    const r = run(['src'], dir);
    expect(r.code).toBe(1);
    expect(r.violations.map((v) => [v.kind, v.file, v.name, v.within ?? [], v.lines])).toEqual([
      ['function', 'src/a/long.ts', 'tooLong', [], 81],
      ['file', 'src/big.ts', null, [], 401],
      ['function', 'src/nested.ts', 'm', [], 85],
      ['function', 'src/nested.ts', 'cb', ['m'], 82],
    ]);
  });

  it('reads JavaScript modules too, and exempts only the suite callbacks of test files', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aureus-shape-'));
    temps.push(dir);
    fs.mkdirSync(path.join(dir, 'scripts'));
    fs.mkdirSync(path.join(dir, 'test'));
    const body = (n: number): string => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');
    fs.writeFileSync(path.join(dir, 'scripts', 'build.mjs'), `export function build() {\n${body(79)}\n}\n`);
    fs.writeFileSync(path.join(dir, 'scripts', 'gen.js'), `${Array.from({ length: 401 }, (_, i) => `export const c${i} = ${i};`).join('\n')}\n`);
    fs.writeFileSync(path.join(dir, 'scripts', 'types.d.ts'), `${Array.from({ length: 401 }, (_, i) => `export declare const c${i}: number;`).join('\n')}\n`);
    // Suite callbacks of any length are exempt in a test file (also through .each and .skip)…
    fs.writeFileSync(
      path.join(dir, 'test', 'a.test.ts'),
      `describe('s', () => {\n  it('c', () => {\n${body(80)}\n  });\n  it.skip('d', () => {\n${body(80)}\n  });\n  describe.each([1])('e %i', () => {\n${body(80)}\n  });\n${body(2)}\n});\n`,
    );
    // …but not a helper in a test file, nor a callback of another call.
    fs.writeFileSync(path.join(dir, 'test', 'b.test.ts'), `function helper(): void {\n${body(79)}\n}\n[1].forEach(() => {\n${body(79)}\n});\n`);
    // The same describe call outside a test file is code like any other.
    fs.writeFileSync(path.join(dir, 'test', 'support.ts'), `describe('s', () => {\n${body(79)}\n});\n`);
    const r = run(['scripts', 'test'], dir);
    expect(r.code).toBe(1);
    expect(r.violations.map((v) => [v.kind, v.file, v.name, v.lines])).toEqual([
      ['function', 'scripts/build.mjs', 'build', 81],
      ['file', 'scripts/gen.js', null, 401],
      ['function', 'test/b.test.ts', 'helper', 81],
      ['function', 'test/b.test.ts', '<anonymous>', 81],
      ['function', 'test/support.ts', '<anonymous>', 81],
    ]);
  });

  it('exits 0 on a clean tree and 2 on a bad flag', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aureus-shape-'));
    temps.push(dir);
    fs.mkdirSync(path.join(dir, 'src'));
    fs.writeFileSync(path.join(dir, 'src', 'x.ts'), 'export const x = 1;\n');
    expect(run(['src'], dir).code).toBe(0);
    const bad = spawnSync(process.execPath, [script, '--nope'], { cwd: dir, encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/usage/);
  });
});
