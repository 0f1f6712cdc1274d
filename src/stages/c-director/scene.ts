import { canAct } from '../b-proposals/bdi.js';
import { NEAR_RESOLUTION } from '../a-snapshot/index.js';
import { ACT_PHASE, type SceneSlotPlan } from './shape.js';
import { threadsToDeferNow } from './metrics.js';
import { infeasible } from './infeasible.js';
import { TIMES } from './candidates.js';
import { purposeOf, summarize } from './text.js';
import type { Attempt, SceneWork } from './attempt.js';
import { tryPlace, type Placement } from './placement.js';
import type { MandatoryBeat } from '../../domain/plan.js';
import { compareText } from '../../core/text-order.js';

/**
 * One scene of the Director's plan (plan.ts runs them in order): each application slot takes the
 * best-ranked candidate that can be placed, a slot that finds none is handled (the slot moves to a
 * later scene, the mandatory beat slips, the complication is dropped, or the plan is infeasible),
 * then the scene and its beat are written and the §10.2 drama responses run on the projection.
 */
export function planScene(a: Attempt, sc: SceneSlotPlan): void {
  const w = a.openScene(sc);
  for (let k = 0; k < sc.applications; k++) {
    const needTag = k === 0 ? w.tag : null;
    const needComplication = a.pendingComplication && !needTag;
    let chosen: Placement | null = null;
    for (const c of a.rankSlot(w, k, needTag, needComplication)) {
      chosen = tryPlace(a, w, k, c);
      if (chosen) break;
    }
    if (!chosen) {
      k += noMoveFits(a, w, k, needTag, needComplication);
      continue;
    }
    commitMove(a, w, k, chosen, needTag, needComplication);
  }
  closeScene(a, w);
  respond(a, w);
}

/**
 * No candidate fits slot k: returns the change to k (0: the slot is given away and the loop goes
 * on; -1: the slot is retried with another tag or without the complication), or throws exit 6.
 */
function noMoveFits(a: Attempt, w: SceneWork, k: number, needTag: MandatoryBeat | null, needComplication: boolean): number {
  const { sc, isLast } = w;
  if (k > 0) {
    // No second move fits this scene: give the slot back to a later act-3/4 scene if possible.
    const later = a.shape.scenes.find((s2) => s2.number > sc.number && s2.applications === 1 && s2.tag === null && !(s2.number === a.shape.scenes.length));
    if (later) { later.applications = 2; a.slotSeq++; return 0; }
    throw infeasible('prereqs_hold', `no applicable operator for the second move of ${sc.id}`);
  }
  if (needTag && needTag !== 'cliffhanger' && !isLast) {
    // Slip the mandatory beat to the next scene. Another tag due here (e.g. the scene's own
    // reveal, displaced by a scheduled confrontation) gets the scene instead; it stays queued
    // in pendingTags until it is placed.
    if (!a.pendingTags.includes(needTag)) a.pendingTags.push(needTag);
    w.slipped.add(needTag);
    w.tag = a.nextDue(w);
    return -1;
  }
  if (needTag === 'cliffhanger') throw infeasible('cliffhanger_last', `no operator tagged cliffhanger applies in the last scene (${sc.id})`);
  if (needComplication) {
    a.pendingComplication = false;
    a.dramaResponses.push({ condition: 'pacing_low', action: 'inject_complication', at: sc.id, detail: 'no complication operator applies here; the injection was dropped' });
    return -1;
  }
  throw infeasible('prereqs_hold', `no operator's prerequisites hold on the projected state for ${sc.id} (${a.types.count.thriller} thriller and ${a.types.count.soap} soap moves placed)`);
}

/** The placed move becomes the projection; every count the scores read is updated. */
function commitMove(a: Attempt, w: SceneWork, k: number, chosen: Placement, needTag: MandatoryBeat | null, needComplication: boolean): void {
  const { c, app } = chosen;
  const sc = w.sc;
  if (k === 0) {
    w.location = chosen.loc; w.day = chosen.day; w.tod = chosen.tod;
    a.clock = { day: w.day, tod: w.tod };
    a.locUses.set(chosen.loc, (a.locUses.get(chosen.loc) ?? 0) + 1);
  }
  if (needComplication && c.op.beats.includes('complication')) {
    a.pendingComplication = false;
    app.source = 'injected';
    const last = a.dramaResponses[a.dramaResponses.length - 1];
    if (last && last.action === 'inject_complication' && last.at === 'pending') { last.at = sc.id; last.detail += `; injected ${c.op.id} (${app.id})`; }
  }
  if (needTag) { a.placedTags.add(needTag); a.pendingTags = a.pendingTags.filter((t) => t !== needTag); }
  for (const m of chosen.moves) w.movements.push(m);
  for (const id of [...c.chars, ...(w.forcedOpening && k === 0 ? w.forcedOpening.characters : [])]) if (canAct(a.proj.index.characters.get(id))) w.cast.add(id);
  a.proj = chosen.proj;
  for (const id of w.cast) a.where.set(id, { location: w.location!, day: w.day });
  a.appSeq++;
  a.slotSeq++;
  a.types.count[c.op.type]++;
  a.usedKeys.add(c.key);
  a.opUses.set(c.op.id, (a.opUses.get(c.op.id) ?? 0) + 1);
  a.actorActUses.set(`${sc.act}|${c.actor.id}`, (a.actorActUses.get(`${sc.act}|${c.actor.id}`) ?? 0) + 1);
  for (const id of c.chars) a.appearances.set(id, (a.appearances.get(id) ?? 0) + 1);
  for (const t of app.threads_advanced) a.advancedCount.set(t, (a.advancedCount.get(t) ?? 0) + 1);
  for (const t of app.threads_advanced) {
    const th = a.proj.index.threads.get(t);
    if (th && th.major && (th.status === 'resolved' || th.progress >= 1)) a.resolvedMajors.add(t);
  }
  a.sceneApplied.push(...chosen.applied);
  w.apps.push(app);
  a.steer.placed(app);
  a.gate.placed(app.operator_id);
}

/** The scene and its beat, as the plan records them. */
function closeScene(a: Attempt, w: SceneWork): void {
  const { sc, apps, tag, isLast } = w;
  const resolvedHere = apps.some((x) => x.required_deltas.some((d) => /^threads\.[a-z0-9_]+\.status$/.test(d.path) && d.value === 'resolved'));
  const beatId = `b${String(a.beats.length + 1).padStart(2, '0')}`;
  const beatTag = apps.length && tag && apps[0]!.operator_id && a.inputIndex.operators.get(apps[0]!.operator_id)?.beats.includes(tag) ? tag : null;
  a.beats.push({
    id: beatId,
    act: sc.act,
    phase: resolvedHere && sc.act === 4 ? 'resolution' : ACT_PHASE[sc.act]!,
    tag: beatTag,
    scene: sc.id,
    applications: apps,
    summary: apps.map((x) => summarize(a.inputIndex, x)).join(' Then ') ,
  });
  a.scenes.push({
    id: sc.id,
    number: sc.number,
    act: sc.act,
    location: w.location!,
    time_of_day: TIMES[w.tod]!,
    day: w.day,
    cast: [...w.cast].sort(),
    beats: [beatId],
    purpose: purposeOf(a.inputIndex, sc, beatTag, apps),
    marquee: sc.number === 1 || beatTag === 'reversal' || isLast,
    ...(w.movements.length ? { movements: w.movements.sort((x, y) => compareText(x.character, y.character)) } : {}),
  });
  w.tag = beatTag;
}

/** Drama responses (spec §10.2) on the projection after the scene. */
function respond(a: Attempt, w: SceneWork): void {
  const { sc, isLast } = w;
  a.drama.addScene(sc.id, sc.act, w.start, a.proj.world, a.sceneApplied, w.tag ? [w.tag] : []);
  const plateau = a.drama.plateauAt(sc.id);
  if (plateau && !a.placedTags.has('confrontation') && !a.pendingTags.includes('confrontation') && !isLast) {
    a.pendingTags.push('confrontation');
    a.dramaResponses.push({ ...plateau, at: a.shape.scenes[sc.number]?.id ?? sc.id, detail: `${plateau.detail}; the confrontation is moved up to the next scene` });
  }
  for (const t of threadsToDeferNow(a.proj.world)) {
    if (a.deferred.has(t)) continue;
    // An overdue thread must be advanced this episode (overdue_first): it is not deferred before that.
    if (a.overdue.has(t) && !a.advancedCount.has(t)) continue;
    // Nor while the episode has not yet advanced two threads: late in a season most threads sit
    // near resolution, and deferring them all would leave nothing to advance (threads_advanced).
    if (a.advancedCount.size < 2 && !a.advancedCount.has(t)) continue;
    a.deferred.add(t);
    const near = [...a.proj.index.threads.values()].filter((x) => x.status === 'open' && x.progress >= NEAR_RESOLUTION).map((x) => x.id);
    a.dramaResponses.push({ condition: 'threads_near_resolution', action: 'defer_resolution', at: sc.id, detail: `${near.length} threads near resolution (${near.join(', ')}); ${t} is deferred to the next episode` });
  }
  const nextScene = a.shape.scenes[sc.number];
  if (nextScene && nextScene.act !== sc.act) {
    const low = a.drama.pacingLowEndingAt(sc.act);
    if (low && !a.pendingComplication) {
      a.pendingComplication = true;
      a.dramaResponses.push({ ...low, at: 'pending', detail: low.detail });
    }
  }
}
