import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Anchor } from '../../../src/domain/anchors.js';
import { episodeRef } from '../../../src/domain/context.js';
import { AureusError } from '../../../src/errors.js';
import { planEpisode } from '../../../src/stages/planning.js';
import { loadWorld, loadWorldOrThrow } from '../../../src/store/load.js';
import type { World } from '../../../src/domain/world.js';
import { REPO, STARTER, copyScenario, hasStarter } from './helpers.js';
import { addDays } from '../../../src/core/roman-date.js';
import { MAX_ACT_BREAK_DAYS, actBreakDays, daysUntil } from '../../../src/stages/c-director/calendar.js';

/** Historical anchors (world/anchors.json, issue 17 item 4) on the starter world, plan-only. */
const ref = episodeRef(1, 1);
const opsOf = (p: { beats: { applications: { operator_id: string }[] }[] }) => new Set(p.beats.flatMap((b) => b.applications.map((a) => a.operator_id)));
const LATER = { day: 1, month: 12, year_bc: 63 };
const OPENING = { day: 1, month: 7, year_bc: 63 };

async function plan(seed: string, anchors: Anchor[] | null, played?: Set<string>, edit?: (w: World) => void) {
  const { world } = await loadWorldOrThrow(REPO);
  edit?.(world);
  return (await planEpisode({ world, ref, seed, previousCliffhanger: null, anchors, playedOperators: played })).plan;
}

describe.skipIf(!hasStarter)('historical anchors', () => {
  it('validate: an unknown operator, a day the calendar lacks and a bad mode, each with its pointer', async () => {
    const dir = copyScenario(STARTER);
    try {
      const file = path.join(dir, 'world/anchors.json');
      const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
      doc.anchors[0].operators = ['op_work_the_tribez'];
      doc.anchors[1].date = { day: 30, month: 4, year_bc: 63 }; // Aprilis has 29 days before 45 BC
      let r = await loadWorld(dir);
      expect(r.world).not.toBeNull(); // the valid starter file loads
      fs.writeFileSync(file, JSON.stringify(doc, null, 2));
      r = await loadWorld(dir);
      expect(r.world).toBeNull();
      expect(r.diagnostics).toMatchObject([
        { code: 'AUR1022', file: 'world/anchors.json', pointer: '/anchors/0/operators/0' },
        { code: 'AUR1034', file: 'world/anchors.json', pointer: '/anchors/1/date' },
      ]);
      expect(r.diagnostics[0]!.hint).toContain('op_work_the_tribes');
      expect(r.diagnostics[0]!.line).toBeGreaterThan(1);
      doc.anchors[1].date = { day: 3, month: 4, year_bc: 63 };
      doc.anchors[0].operators = ['op_work_the_tribes'];
      doc.anchors[2].mode = 'after';
      fs.writeFileSync(file, JSON.stringify(doc, null, 2));
      r = await loadWorld(dir);
      expect(r.diagnostics).toMatchObject([{ file: 'world/anchors.json', pointer: '/anchors/2/mode' }]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the starter kit follows 63 BC: its anchors load, dated after the season opens', async () => {
    const r = await loadWorld(REPO);
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const ids = r.anchors!.map((a) => a.id);
    expect(ids).toEqual(expect.arrayContaining(['senatus_consultum_ultimum', 'first_catilinarian', 'murena_trial', 'conspirators_executed', 'consular_elections']));
  });

  it('not_before: a plan dated before the anchor never stages its operators (two seeds)', async () => {
    const { anchors } = await loadWorld(REPO);
    for (const seed of ['anchor-a', 'anchor-b']) {
      const free = await plan(seed, null);
      const used = [...opsOf(free)];
      // Anchor two operators the unanchored plan does use, plus the kit's real calendar.
      const held: Anchor = { id: 'held', date: LATER, title: 'Held back', operators: used.slice(0, 2), mode: 'not_before' };
      const p = await plan(seed, [...anchors!, held]);
      const ops = opsOf(p);
      for (const a of [...anchors!, held].filter((x) => x.mode === 'not_before')) for (const op of a.operators) expect(ops.has(op), `${seed}: ${op} (${a.id})`).toBe(false);
      expect(ops.size).toBeGreaterThan(0);
      // Once the date has come (the anchor dated on the opening day), the operators are allowed again.
      const waived = await plan(seed, [{ ...held, waived: true }]);
      expect(waived).toEqual(free);
      const arrived = await plan(seed, [{ ...held, date: OPENING }]);
      expect(arrived).toEqual(free);
    }
  });

  it('by: an anchor whose date has arrived forces one of its operators, unless already played or waived', async () => {
    const a = await plan('anchor-a', null);
    const b = await plan('anchor-b', null);
    const missing = [...opsOf(b)].filter((op) => !opsOf(a).has(op));
    expect(missing.length).toBeGreaterThan(0);
    const due: Anchor = { id: 'due', date: OPENING, title: 'Due today', operators: [missing[0]!], mode: 'by' };
    expect(opsOf(await plan('anchor-a', [due])).has(missing[0]!)).toBe(true);
    expect(await plan('anchor-a', [due], new Set([missing[0]!]))).toEqual(a);
    expect(await plan('anchor-a', [{ ...due, waived: true }])).toEqual(a);
    // Not due yet, so nothing presses it; but the season must reach 1 December by its finale
    // (calendar.ts): days pass at the act breaks, where the unanchored plan runs day after day.
    const later = await plan('anchor-a', [{ ...due, date: LATER }]);
    const breaks = (p: typeof a) => p.scenes.filter((s, i) => i > 0 && s.act !== p.scenes[i - 1]!.act).map((s, i) => s.day - p.scenes[p.scenes.indexOf(s) - 1]!.day);
    expect(Math.min(...breaks(later))).toBeGreaterThanOrEqual(actBreakDays({ opening: OPENING, episode: 1, anchors: [{ ...due, date: LATER }], played: new Set(), goals: null, daysPerEpisode: 6 }));
    expect(later.scenes.at(-1)!.day).toBeGreaterThan(a.scenes.at(-1)!.day + 6);
  });

  it('the calendar: act breaks let days pass only while an anchor is still ahead of the pace', () => {
    const at = (date: typeof OPENING, episode: number, played: string[] = []) =>
      actBreakDays({ opening: date, episode, anchors: [{ id: 'x', date: LATER, title: 'x', operators: ['op_x'], mode: 'not_before' }], played: new Set(played), goals: { episodes_planned: 10, finale_threads: [] }, daysPerEpisode: 6 });
    expect(addDays(OPENING, daysUntil(OPENING, LATER))).toEqual(LATER);
    expect(addDays(OPENING, daysUntil(OPENING, LATER) - 1)).not.toEqual(LATER);
    expect(daysUntil(OPENING, { day: 8, month: 7, year_bc: 63 })).toBe(7);
    expect(at(OPENING, 1)).toBeGreaterThan(0);
    // The finale close: the whole distance must be covered now (capped per break).
    expect(at(OPENING, 9)).toBe(MAX_ACT_BREAK_DAYS);
    // Played already, or the date reached: nothing to hurry for.
    expect(at(OPENING, 1, ['op_x'])).toBe(0);
    expect(at(LATER, 5)).toBe(0);
    expect(at({ day: 20, month: 11, year_bc: 63 }, 2)).toBe(0);
  });

  it('by: an anchor that cannot be played fails with exit 6 naming it', async () => {
    // With the election decided, no one can work the tribes for it any more (the operator needs the thread open).
    const decided = (w: World) => { for (const t of w.threads.threads) if (t.id === 'thr_consular_election' || t.id === 'thr_pontifex_maximus') t.status = 'resolved'; };
    const never: Anchor = { id: 'elections', date: OPENING, title: 'The elections', operators: ['op_work_the_tribes'], mode: 'by' };
    expect(opsOf(await plan('anchor-a', null, undefined, decided)).has('op_work_the_tribes')).toBe(false);
    const err = await plan('anchor-a', [never], undefined, decided).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(AureusError);
    expect((err as AureusError).exitCode).toBe(6);
    expect(JSON.stringify((err as AureusError).diagnostics)).toContain('anchor_elections');
  });
});
