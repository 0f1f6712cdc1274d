import type { EpisodeMetrics } from '../stages/h-commit/metrics-model.js';
import type { VerifierReport } from '../domain/scene.js';
import type { ScriptDoc } from './script-model.js';
import { Marked } from 'marked';
import { formatValue } from '../core/readable.js';
import { compareText } from '../core/text-order.js';

/**
 * The self-contained HTML episode report (`aureus export <ep> --format html`): the script, an
 * inline SVG chart of tension per scene and pacing per act, the threads advanced and the
 * verifier's statistics. No external CSS, fonts or scripts: it opens from a file anywhere.
 */
export interface HtmlReportInput {
  doc: ScriptDoc;
  metrics: EpisodeMetrics | null;
  report: VerifierReport | null;
  threads: { question: string; from: number; to: number; status: string }[];
  recap: string | null;
}

export function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/**
 * Tension (line, per scene) and pacing (bars, per act) on one 0..10 axis, with axis titles and a
 * legend of swatches. It scales to its container (viewBox, width 100%), so it fits a phone.
 */
export function chartSvg(m: EpisodeMetrics): string {
  const W = 720, H = 270, L = 52, R = 16, T = 34, B = 52;
  const n = Math.max(1, m.tension_curve.length);
  const x = (i: number) => L + ((W - L - R) * (i + 0.5)) / n;
  const y = (v: number) => T + (H - T - B) * (1 - Math.max(0, Math.min(10, v)) / 10);
  const parts: string[] = [`<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" preserveAspectRatio="xMidYMid meet" role="img" aria-label="Tension per scene and pacing per act, 0 to 10">`];
  for (let v = 0; v <= 10; v += 2) parts.push(`<line x1="${L}" x2="${W - R}" y1="${y(v)}" y2="${y(v)}" stroke="#ddd"/><text x="${L - 6}" y="${y(v) + 4}" font-size="11" text-anchor="end">${v}</text>`);
  // Pacing bars span each act's scenes.
  for (const a of m.acts) {
    const idx = m.tension_curve.map((p, i) => (p.act === a.act ? i : -1)).filter((i) => i >= 0);
    if (!idx.length) continue;
    const x0 = x(Math.min(...idx)) - (W - L - R) / n / 2 + 2;
    const x1 = x(Math.max(...idx)) + (W - L - R) / n / 2 - 2;
    parts.push(`<rect class="pacing" x="${x0.toFixed(1)}" y="${y(a.pacing).toFixed(1)}" width="${(x1 - x0).toFixed(1)}" height="${(y(0) - y(a.pacing)).toFixed(1)}" fill="#c9a227" fill-opacity="0.25"><title>Act ${a.act} pacing ${formatValue(a.pacing, 'metric')}</title></rect>`);
    parts.push(`<text x="${((x0 + x1) / 2).toFixed(1)}" y="${H - 26}" font-size="11" text-anchor="middle">Act ${a.act} · pacing ${formatValue(a.pacing, 'metric')} · volatility ${formatValue(a.volatility, 'metric')}</text>`);
  }
  const pts = m.tension_curve.map((p, i) => `${x(i).toFixed(1)},${y(p.tension).toFixed(1)}`).join(' ');
  parts.push(`<polyline class="tension" points="${pts}" fill="none" stroke="#8b1e1e" stroke-width="2"/>`);
  m.tension_curve.forEach((p, i) => parts.push(`<circle cx="${x(i).toFixed(1)}" cy="${y(p.tension).toFixed(1)}" r="3" fill="#8b1e1e"><title>${esc(p.scene)} tension ${formatValue(p.tension, 'metric')}</title></circle>`));
  // Axis titles: scenes along the bottom, the shared 0..10 scale up the side.
  parts.push(`<text class="axis-title" x="${(L + W - R) / 2}" y="${H - 6}" font-size="12" text-anchor="middle">Scene (SC01 … SC${String(n).padStart(2, '0')}), grouped by act</text>`);
  parts.push(`<text class="axis-title" transform="translate(14 ${(T + H - B) / 2}) rotate(-90)" font-size="12" text-anchor="middle">Score (0–10)</text>`);
  // Legend: a swatch per series, above the plot.
  parts.push(`<g class="legend" font-size="12"><line x1="${L}" x2="${L + 24}" y1="14" y2="14" stroke="#8b1e1e" stroke-width="2"/><circle cx="${L + 12}" cy="14" r="3" fill="#8b1e1e"/><text x="${L + 30}" y="18">Tension per scene</text><rect x="${L + 170}" y="7" width="24" height="14" fill="#c9a227" fill-opacity="0.25" stroke="#c9a227"/><text x="${L + 200}" y="18">Pacing per act</text></g>`);
  parts.push('</svg>');
  return parts.join('');
}

/**
 * The recap's markdown as HTML (marked, GitHub-flavoured: headings, emphasis, the dashboard
 * tables). The recap is model-written text, so raw HTML in it is shown as text, never run, and
 * links keep only http(s) and in-page targets.
 */
export function recapHtml(markdown: string): string {
  const md = new Marked({ gfm: true, async: false });
  md.use({
    renderer: {
      html: (token: { text: string }) => esc(token.text),
      link: ({ href, text }: { href: string; text: string }) => (/^(https?:|#)/i.test(href) ? `<a href="${esc(href)}">${esc(text)}</a>` : esc(text)),
      image: ({ text }: { text: string }) => esc(text),
    },
  });
  return md.parse(markdown) as string;
}

function verifierStats(r: VerifierReport): string {
  const attempts = r.scenes.reduce((n, s) => n + s.attempts.length, 0);
  const findings = [...r.scenes.flatMap((s) => s.attempts.flatMap((a) => a.findings)), ...r.episode_findings];
  const byCode = new Map<string, { n: number; severity: string; rule: string }>();
  for (const f of findings) {
    const cur = byCode.get(f.code) ?? { n: 0, severity: f.severity, rule: f.rule };
    cur.n += 1;
    byCode.set(f.code, cur);
  }
  const rows = [...byCode.entries()].sort((a, b) => compareText(a[0], b[0])).map(([code, v]) => `<tr><td>${esc(code)}</td><td>${esc(v.severity)}</td><td>${esc(v.rule)}</td><td>${v.n}</td></tr>`);
  return [
    `<p>Verdict <strong>${esc(r.verdict)}</strong>: ${r.scenes.filter((s) => s.final_verdict === 'PASS').length}/${r.scenes.length} scenes passed, ${attempts} attempts, ${r.budget.used} of ${r.budget.per_episode} regenerations used, ${r.scenes.filter((s) => s.manual_review).length} scenes flagged for manual review.</p>`,
    rows.length ? `<table><thead><tr><th>Code</th><th>Severity</th><th>Rule</th><th>Findings</th></tr></thead><tbody>${rows.join('')}</tbody></table>` : '<p>No findings.</p>',
  ].join('\n');
}

export function renderHtmlReport(input: HtmlReportInput): string {
  const { doc } = input;
  const scenes = doc.scenes
    .map((sc) => {
      const els = sc.elements
        .map((el) =>
          el.kind === 'action'
            ? `<p class="action">${esc(el.text)}</p>`
            : `<div class="dialogue"><div class="cue">${esc(el.cue)}</div>${el.parenthetical ? `<div class="paren">(${esc(el.parenthetical)})</div>` : ''}<div class="line">${esc(el.text)}</div></div>`,
        )
        .join('\n');
      return `<section class="scene" id="${esc(sc.id)}"><h3>${esc(sc.id)} — ${esc(sc.heading)}</h3><p class="cast"><strong>Cast:</strong> ${esc(sc.cast.join(', '))}</p>\n${els}</section>`;
    })
    .join('\n');
  const threads = input.threads.length
    ? `<ul>${input.threads.map((t) => `<li>${esc(t.question)} — progress ${formatValue(t.from, 'weight')} → ${formatValue(t.to, 'weight')} (${esc(t.status)})</li>`).join('')}</ul>`
    : '<p>No thread advanced.</p>';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${esc(doc.title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font-family:Georgia,serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222;line-height:1.45}
h1{font-variant:small-caps}h2{border-bottom:1px solid #ccc;padding-bottom:.2rem;margin-top:2.5rem}
table{border-collapse:collapse;display:block;overflow-x:auto;max-width:100%}td,th{border:1px solid #ccc;padding:.2rem .5rem;text-align:left}
.chart{width:100%;height:auto;max-width:720px;display:block}
.scene{margin:2rem 0}.scene h3{font-family:'Courier New',monospace;text-transform:uppercase;overflow-wrap:anywhere}
.dialogue{margin:.6rem 0 .6rem 8rem;max-width:28rem;font-family:'Courier New',monospace}
.cue{margin-left:6rem}.paren{margin-left:3rem;font-style:italic}.action{font-family:'Courier New',monospace}
.recap{background:#faf6ea;padding:.2rem 1rem;border-left:4px solid #c9a227;overflow-wrap:break-word}.recap th{white-space:nowrap}
@media (max-width:600px){body{margin:1rem auto;padding:0 .6rem}.dialogue{margin-left:1.2rem;max-width:none}.cue{margin-left:2.5rem}.paren{margin-left:1.5rem}}
</style>
</head>
<body>
<h1>${esc(doc.title)}</h1>
${doc.subtitle ? `<p><em>${esc(doc.subtitle)}</em></p>` : ''}
${input.recap ? `<h2>Recap</h2><div class="recap">${recapHtml(input.recap)}</div>` : ''}
<h2>Tension and pacing</h2>
${input.metrics ? chartSvg(input.metrics) : '<p>No metrics recorded.</p>'}
<h2>Threads advanced</h2>
${threads}
<h2>Verifier</h2>
${input.report ? verifierStats(input.report) : '<p>No verifier report.</p>'}
<h2>Script</h2>
${scenes}
</body>
</html>
`;
}
