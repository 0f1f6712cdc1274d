import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { allCatalogEntries, defineDiagnostics, RETIRED_CODES } from '../../src/diagnostics/index.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const THIS_FILE = path.relative(REPO, import.meta.filename);

/** The text of every file under `dir` whose name matches `keep`, by path relative to the repository. */
function texts(dir: string, keep: RegExp): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of fs.readdirSync(path.join(REPO, d), { withFileTypes: true })) {
      const rel = path.join(d, e.name);
      if (e.isDirectory()) walk(rel);
      else if (keep.test(e.name)) out.set(rel, fs.readFileSync(path.join(REPO, rel), 'utf8'));
    }
  };
  walk(dir);
  return out;
}

/**
 * Codes a test cannot name because nothing can trigger them from outside: each with why. Empty:
 * every live code is raised by a path some test drives. Add one here only with its reason.
 */
const UNTESTABLE = new Map<string, string>([]);

/**
 * The catalog is the list of what aureus can say: a code nothing raises is a promise nobody keeps
 * (AUR6020 'a stage is missing' was one), and a code no test names can change or break unseen
 * (twenty were; each now has a test that triggers it, from the CLI where a user can).
 */
describe('the diagnostics catalog', () => {
  const codes = allCatalogEntries().map((e) => e.code);
  const src = [...texts('src', /\.ts$/)].filter(([f]) => !f.startsWith('src/diagnostics/codes/'));

  it('raises every code somewhere in src (as a string literal outside the catalog files)', () => {
    expect(codes.length).toBeGreaterThan(200);
    const raised = (code: string) => src.some(([, t]) => new RegExp(`['"\`]${code}['"\`]`).test(t));
    expect(codes.filter((c) => !raised(c))).toEqual([]);
  });

  it('has every code named by at least one test, but for the commented exceptions', () => {
    const tests = [...texts('test', /\.(ts|mjs)$/)].filter(([f]) => f !== THIS_FILE).map(([, t]) => t);
    const untested = codes.filter((c) => !UNTESTABLE.has(c) && !tests.some((t) => t.includes(c)));
    expect(untested).toEqual([]);
    // An exception that is tested after all, or no longer in the catalog, is dropped from the list.
    expect([...UNTESTABLE.keys()].filter((c) => !codes.includes(c) || tests.some((t) => t.includes(c)))).toEqual([]);
  });

  it('keeps retired codes retired: not in the catalog, raised nowhere, never defined again', () => {
    expect(RETIRED_CODES.size).toBeGreaterThan(0);
    for (const [code] of RETIRED_CODES) {
      expect(codes).not.toContain(code);
      expect(src.filter(([, t]) => t.includes(`'${code}'`) && !t.includes('RETIRED_CODES')).map(([f]) => f)).toEqual([]);
      expect(() => defineDiagnostics([{ code, severity: 'error', message: 'a new meaning', hint: '' }])).toThrow(/retired/);
    }
  });
});
