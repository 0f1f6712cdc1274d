import { describe, expect, it } from 'vitest';
import { formatDenarii, formatFixed, formatNumber, formatSigned, formatUsd, formatValue, roundForReader } from '../../src/core/readable.js';
import { diffWorlds, renderDiff } from '../../src/season/diff.js';
import { renderHtmlReport } from '../../src/season/html.js';
import { readStarterWorld } from '../support/starter-world.js';

describe('core/readable: one rounding for readers', () => {
  it('rounds half away from zero on the decimal value, not the binary one', () => {
    expect(0.145.toFixed(2)).toBe('0.14'); // the bug this module exists for
    expect(roundForReader(0.145, 2)).toBe(0.15);
    expect(roundForReader(-0.145, 2)).toBe(-0.15);
    expect(roundForReader(1.005, 2)).toBe(1.01);
    expect(roundForReader(0.1 + 0.2, 2)).toBe(0.3);
    expect(roundForReader(0.0999, 2)).toBe(0.1);
    expect(roundForReader(-0.001, 2)).toBe(0);
    expect(Object.is(roundForReader(-0.001, 2), -0)).toBe(false);
    expect(formatNumber(0.1499)).toBe('0.15');
    expect(formatNumber(3)).toBe('3');
    expect(formatSigned(0.05)).toBe('+0.05');
    expect(formatSigned(-1.2)).toBe('−1.2');
    expect(formatValue(61.66666, 'stat')).toBe('61.7');
    expect(formatUsd(0.00125)).toBe('$0.0013');
    expect(formatUsd(0.145, 2)).toBe('$0.15'); // toFixed(2) would say $0.14
    expect(formatFixed(0.00005, 4)).toBe('0.0001');
    expect(formatFixed(2, 4)).toBe('2.0000');
    expect(formatDenarii(12500)).toBe('12,500 denarii');
  });

  it('diff shows 0.145 as 0.15 and no unrounded progress reaches the text', () => {
    const a = readStarterWorld();
    const b = structuredClone(a);
    const r = b.relationships.relationships[0]!;
    const w = Object.keys(r.weights)[0]!;
    (a.relationships.relationships[0]!.weights as Record<string, number>)[w] = 0.0;
    (r.weights as Record<string, number>)[w] = 0.145;
    a.threads.threads[0]!.progress = 0.0999;
    b.threads.threads[0]!.progress = 0.1499;
    const text = renderDiff(diffWorlds(a, b), 'x', 'y');
    expect(text).toContain(`${w} 0 → 0.15`);
    expect(text).not.toMatch(/0\.0999|0\.1499|0\.14\b/);
    expect(text).toMatch(/0\.1 → 0\.15/);
  });

  it('the HTML report shows thread progress rounded once', () => {
    const html = renderHtmlReport({ doc: { title: 'T', scenes: [] } as never, metrics: null, report: null, recap: null, threads: [{ question: 'Q?', from: 0.0999, to: 0.1499, status: 'open' }] });
    expect(html).toContain('progress 0.1 → 0.15');
  });
});
