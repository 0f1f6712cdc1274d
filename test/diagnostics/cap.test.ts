import { describe, expect, it } from 'vitest';
import { capPerFile, diag, severityCounts, type Diagnostic } from '../../src/diagnostics/index.js';

const unknownKey = (file: string | undefined, i: number): Diagnostic => diag('AUR1010', { key: `k${i}`, allowed: 'format', suggestion: '' }, { ...(file ? { file } : {}), pointer: `/k${i}` });

describe('capPerFile: at most N diagnostics of a file, then one AUR7009 line', () => {
  it('keeps the first N of each file in order and says how many more, by severity', () => {
    const warn = { ...unknownKey('b.json', 99), severity: 'warning' as const };
    const ds = [...Array.from({ length: 5 }, (_, i) => unknownKey('a.json', i)), unknownKey('b.json', 0), warn, unknownKey(undefined, 7)];
    const out = capPerFile(ds, 3);
    expect(out.map((d) => `${d.file ?? ''}${d.pointer ?? ''}:${d.code}`)).toEqual(['a.json/k0:AUR1010', 'a.json/k1:AUR1010', 'a.json/k2:AUR1010', 'b.json/k0:AUR1010', 'b.json/k99:AUR1010', '/k7:AUR1010', 'a.json:AUR7009']);
    const summary = out.at(-1)!;
    expect(summary).toMatchObject({ severity: 'error', message: '… and 2 more problems in a.json', omitted: { error: 2 } });
    expect(summary.hint).toContain('2 errors not listed');
    expect(severityCounts(out)).toEqual(severityCounts(ds));
  });

  it('gives the summary the worst severity left out, and merges a summary already there (capping twice changes nothing)', () => {
    const ds = [unknownKey('a.json', 0), { ...unknownKey('a.json', 1), severity: 'warning' as const }, { ...unknownKey('a.json', 2), severity: 'info' as const }];
    const once = capPerFile(ds, 1);
    expect(once.at(-1)).toMatchObject({ severity: 'warning', message: '… and 2 more problems in a.json', omitted: { warning: 1, info: 1 } });
    expect(capPerFile(once, 1)).toEqual(once);
    // More of the same file after a capped list (a later check): counted into the one summary.
    const more = capPerFile([...once, unknownKey('a.json', 3)], 1);
    expect(more.filter((d) => d.code === 'AUR7009')).toEqual([expect.objectContaining({ severity: 'error', omitted: { error: 1, warning: 1, info: 1 } })]);
  });

  it('leaves a list within the cap as it is', () => {
    const ds = Array.from({ length: 50 }, (_, i) => unknownKey('a.json', i));
    expect(capPerFile(ds)).toEqual(ds);
  });
});
