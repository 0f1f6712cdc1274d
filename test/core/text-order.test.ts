import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compareText } from '../../src/core/text-order.js';

const SRC = path.resolve(__dirname, '../../src');
const BUILT = path.resolve(__dirname, '../../dist/core/text-order.js');
const WORDS = ['thr_chaos', 'thr_consular_election', 'thr_hunger', 'ager', 'Ælia', 'uxor', 'Zeno', 'a_b', 'a1', 'éclat', 'ecce'];

/** WORDS sorted by compareText in a child process started under `locale`. */
function sortedUnder(locale: string): string[] {
  const code = `import(${JSON.stringify(pathToFileURL(BUILT).href)}).then(({ compareText }) => console.log(JSON.stringify(${JSON.stringify(WORDS)}.sort(compareText))))`;
  const r = spawnSync(process.execPath, ['-e', code], { encoding: 'utf8', env: { ...process.env, LC_ALL: locale, LANG: locale } });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as string[];
}

/** Source files under dir (.ts), recursively. */
function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}

describe("Aureus's one text order", () => {
  // The locale is fixed when a process starts: the built module in child processes (needs `npm run build`).
  it.skipIf(!fs.existsSync(BUILT))('is en-US collation in any process locale (Czech, Hawaiian, C)', () => {
    const c = sortedUnder('C');
    expect(c).toEqual([...WORDS].sort((a, b) => new Intl.Collator('en-US').compare(a, b)));
    expect(sortedUnder('cs_CZ.UTF-8')).toEqual(c);
    expect(sortedUnder('haw_US.UTF-8')).toEqual(c);
    expect([...WORDS].sort(compareText)).toEqual(c);
  });

  it('is the only place src/ collates: no localeCompare, default Intl.Collator or argument-less toLocale… call elsewhere', () => {
    const uses = sources(SRC)
      .filter((f) => !f.endsWith(path.join('core', 'text-order.ts')))
      .flatMap((f) => fs.readFileSync(f, 'utf8').split('\n').map((line, i) => ({ where: `${path.relative(SRC, f)}:${i + 1}`, line })))
      .filter(({ line }) => /\.localeCompare\(|Intl\.Collator\(|\.toLocale\w*\(\)/.test(line))
      .map(({ where }) => where);
    expect(uses).toEqual([]);
  });
});
