import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recapHtml } from '../../src/season/html.js';
import { cleanup, cli, makeWorld, tempDir } from '../pipeline/world.js';

/**
 * The HTML episode report, rendered by a real browser: headless Chromium loads the exported file
 * at a phone's width and at a desktop's, takes screenshots, and reports the layout it computed
 * (no horizontal scrolling on a 375 px screen, the recap rendered from markdown, the chart's
 * axis titles and legend drawn). Skipped, with a message, where /usr/bin/chromium is absent.
 */
const CHROMIUM = '/usr/bin/chromium';
const HAVE_CHROMIUM = fs.existsSync(CHROMIUM);
if (!HAVE_CHROMIUM) console.warn(`html-report.test.ts: ${CHROMIUM} is absent (apt-get install chromium): the browser checks of the HTML report are skipped`);

let report: string;
beforeAll(async () => {
  const root = await makeWorld('html');
  const run = await cli(['episode', 'run'], root);
  if (run.code !== 0) throw new Error(run.stderr);
  report = path.join(tempDir('html-out'), 'report.html');
  const r = await cli(['export', 's01e01', '--format', 'html', '-o', report], root);
  if (r.code !== 0) throw new Error(r.stderr);
}, 120_000);
afterAll(cleanup);

/** Run Chromium with the flags that keep it offline and stateless, with a fresh profile. */
function chromium(args: string[]): string {
  const profile = tempDir('chromium-profile');
  const r = spawnSync(CHROMIUM, ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', `--user-data-dir=${profile}`, ...args], { encoding: 'utf8', timeout: 60_000 });
  if (r.error) throw r.error;
  return r.stdout;
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(file: string): { width: number; height: number } {
  const b = fs.readFileSync(file);
  expect(b.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

describe('HTML report', () => {
  it('renders the recap markdown (tables, headings) and shows model-written HTML as text', () => {
    const html = recapHtml('# S01E01 — Recap\n\nPreviously on *Rome*…<script>alert(1)</script> [x](javascript:alert(1))\n\n| Metric | Before |\n| --- | ---: |\n| Grain | 4 |\n');
    expect(html).toContain('<h1>');
    expect(html).toContain('<em>Rome</em>');
    expect(html).toMatch(/<table>[\s\S]*<td[^>]*>Grain<\/td>/);
    expect(html).not.toContain('<script');
    expect(html).not.toContain('javascript:');
    const page = fs.readFileSync(report, 'utf8');
    const recap = /<div class="recap">([\s\S]*?)<\/div>\n<h2>/.exec(page)![1];
    expect(recap).toContain('<table>');
    expect(recap).not.toMatch(/^#|\| --- \|/m);
  });

  it('gives the chart axis titles and a legend', () => {
    const page = fs.readFileSync(report, 'utf8');
    expect(page).toMatch(/class="axis-title"[^>]*>Scene/);
    expect(page).toMatch(/class="axis-title"[^>]*>Score \(0–10\)/);
    expect(page).toMatch(/<g class="legend"[\s\S]*Tension per scene[\s\S]*Pacing per act/);
  });

  it.skipIf(!HAVE_CHROMIUM)('works on a 375 px phone and on a desktop: screenshots, no horizontal scrolling', () => {
    const dir = tempDir('shots');
    // A copy that writes the layout Chromium computed into the DOM, read back with --dump-dom.
    const probe = path.join(dir, 'probe.html');
    fs.writeFileSync(probe, fs.readFileSync(report, 'utf8').replace('</body>', `<script>
addEventListener('load', () => {
  const svg = document.querySelector('svg.chart').getBoundingClientRect();
  const pre = document.createElement('pre'); pre.id = 'layout';
  pre.textContent = JSON.stringify({ inner: innerWidth, scroll: document.documentElement.scrollWidth, svg: Math.round(svg.width), tables: document.querySelectorAll('.recap table').length });
  document.body.appendChild(pre);
});
</script></body>`));
    for (const [w, h] of [[375, 812], [1280, 900]] as const) {
      const shot = path.join(dir, `report-${w}.png`);
      chromium([`--window-size=${w},${h}`, `--screenshot=${shot}`, `file://${report}`]);
      expect(fs.existsSync(shot), `screenshot at ${w}px`).toBe(true);
      expect(pngSize(shot)).toEqual({ width: w, height: h });
      expect(fs.statSync(shot).size).toBeGreaterThan(5_000); // drawn, not blank
      const dom = chromium([`--window-size=${w},${h}`, '--virtual-time-budget=2000', '--dump-dom', `file://${probe}`]);
      const layout = JSON.parse(/<pre id="layout">([^<]*)<\/pre>/.exec(dom)![1].replace(/&quot;/g, '"')) as { inner: number; scroll: number; svg: number; tables: number };
      expect(layout.scroll, `page width at ${w}px`).toBeLessThanOrEqual(layout.inner);
      expect(layout.svg).toBeLessThanOrEqual(Math.min(720, layout.inner));
      expect(layout.tables).toBeGreaterThan(0);
    }
  }, 120_000);
});
