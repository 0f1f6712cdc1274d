import { it } from 'vitest';
import type { World } from '../../src/domain/world.js';
import { loadWorldOrThrow, loadWorld } from '../../src/store/index.js';
import { applyDeltas } from '../../src/core/deltas/index.js';
import { tension, globalOn10, threatToGoals } from '../../src/core/metrics.js';
import { REPO } from '../stages/planning/helpers.js';
import { simulateSeason, type SimEpisode } from '../stages/planning/season-sim.js';
import { formatDate } from '../../src/core/roman-date.js';

function sceneTensions(ep: SimEpisode) {
  let w: World = ep.before;
  const out: { act: number; t: number; ops: string }[] = [];
  for (const sc of ep.plan.scenes) {
    const apps = ep.plan.beats.filter((b) => b.scene === sc.id).flatMap((b) => b.applications);
    const deltas = apps.flatMap((a) => a.required_deltas);
    const r = applyDeltas(w, deltas, () => ({ episode: ep.plan.episode_id, scene: sc.id, event: 'plan', operator: null }));
    if (r.ok) w = r.world;
    out.push({ act: sc.act, t: tension(w), ops: apps.map((a) => `${a.operator_id.replace('op_', '')}${a.outcome === 'fail' ? '!' : ''}`).join('+') });
  }
  return out;
}
const N = Number(process.env.EPS ?? 12);
for (const seed of (process.env.SEEDS ?? 'alpha,beta,gamma').split(',')) {
  it(`analyze ${seed}`, async () => {
    const { world, seasonGoals } = await loadWorldOrThrow(REPO); const anchors = (await loadWorld(REPO)).anchors as any[];
    const t0 = Date.now();
    const eps = simulateSeason(world, seed, N, seasonGoals[0]?.goals, process.env.NOANCHORS ? undefined : anchors);
    const lines: string[] = [`${seed} ${Date.now() - t0}ms`];
    let rising = 0; const peaks: number[] = [];
    for (const ep of eps) {
      const ts = sceneTensions(ep);
      const m = (a: number) => { const xs = ts.filter((x) => x.act === a).map((x) => x.t); return xs.reduce((n, x) => n + x, 0) / xs.length; };
      if (m(4) - m(1) >= 1.5) rising++;
      peaks.push(Math.max(...ts.map((x) => x.t)));
      lines.push(`e${ep.episode} ${formatDate(ep.before.world.date)} t0=${tension(ep.before)} acts ${[1,2,3,4].map((a) => m(a).toFixed(2)).join(' ')} d=${(m(4)-m(1)).toFixed(2)} pk=${Math.max(...ts.map((x) => x.t)).toFixed(2)} sc=${ep.after.world.global.scandal_temp.value} un=${ep.after.world.global.unrest.value} ttg=${threatToGoals(ep.after).toFixed(2)} thr=${ep.after.world.global.threat_level.value}`);
      if (process.env.V) lines.push('   ' + ts.map((x) => `${x.act}:${x.t.toFixed(2)} ${x.ops}`).join(' | '));
    }
    lines.push('played: ' + anchors.map((a: any) => a.id + '@' + (eps.find((e) => e.plan.beats.some((b) => b.applications.some((x) => a.operators.includes(x.operator_id))))?.episode ?? '-')).join(' '));
    lines.push(`rising ${rising}/${eps.length} peak e${peaks.indexOf(Math.max(...peaks)) + 1}`);
    console.log(lines.join('\n'));
  }, 600_000);
}
