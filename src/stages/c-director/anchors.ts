import type { Anchor } from '../../domain/anchors.js';
import type { InWorldDate } from '../../domain/world.js';
import type { EpisodePlan } from '../../domain/plan.js';
import { addDays, compareDates, formatDate } from '../../core/roman-date.js';
import { infeasible } from './infeasible.js';

/**
 * The Director's hook for world/anchors.json (issue 17, item 4; docs/planning.md "Season model").
 * Pure: the anchors, the episode's opening date and the operators earlier episodes played in.
 *
 *  - `not_before`: a move of the anchor's operators is never placed in a scene dated before the
 *    anchor (scene date = the episode's opening date + the scene's day offset).
 *  - every anchor (`by` and `not_before` alike) comes due: once an episode opens on or after its
 *    date and none of its operators has been played this season, its moves are pressed (scored as
 *    `--require` would). A due `by` anchor must be played in that episode (a campaign may also play
 *    its operators before the date); a due `not_before` anchor must be played by the season's
 *    finale (`episodes_planned`), and until then stays due from episode to episode. A plan that
 *    misses a required anchor fails with exit 6 naming it.
 *  The calendar (calendar.ts) makes sure the season reaches the anchors' dates by its finale.
 * A waived anchor (`"waived": true`: history changed on this branch) is ignored.
 */
export function liveAnchors(anchors: readonly Anchor[] | null | undefined): Anchor[] {
  return (anchors ?? []).filter((a) => !a.waived);
}

/** The anchors this episode must play: their date has come and none of their operators was played. */
export function dueAnchors(anchors: readonly Anchor[] | null | undefined, opening: InWorldDate, played: ReadonlySet<string>): Anchor[] {
  return liveAnchors(anchors).filter((a) => compareDates(opening, a.date) >= 0 && !a.operators.some((op) => played.has(op)));
}

/** The due anchors this plan fails without: a `by` anchor at once, a `not_before` one from the finale on. */
export function requiredAnchors(due: readonly Anchor[], episode: number, finale: number): Anchor[] {
  return due.filter((a) => a.mode === 'by' || episode >= finale);
}

/** As strong as a `--require` (steering.ts): a due anchor's move outranks all but the cliffhanger reserve. */
const DUE_BONUS = 20;

export class AnchorGate {
  private readonly notBefore: Anchor[];
  private readonly open: Anchor[];
  constructor(anchors: readonly Anchor[] | null | undefined, private readonly opening: InWorldDate, readonly due: readonly Anchor[] = []) {
    this.notBefore = liveAnchors(anchors).filter((a) => a.mode === 'not_before');
    this.open = [...due];
  }

  /** True when the operator plays a due anchor not yet placed (it is then scored like a required move). */
  isDue(operator: string): boolean {
    return this.open.some((a) => a.operators.includes(operator));
  }

  bonus(operator: string): number {
    return this.isDue(operator) ? DUE_BONUS : 0;
  }

  placed(operator: string): void {
    for (let i = this.open.length - 1; i >= 0; i--) if (this.open[i]!.operators.includes(operator)) this.open.splice(i, 1);
  }

  /** The anchor that forbids the operator on the scene's day offset, or null. */
  blocking(operator: string, day: number): Anchor | null {
    if (this.notBefore.length === 0) return null;
    const date = addDays(this.opening, day);
    return this.notBefore.find((a) => a.operators.includes(operator) && compareDates(date, a.date) < 0) ?? null;
  }

  /** True when at least one of the anchor's operators was placed. */
  static played(plan: Pick<EpisodePlan, 'beats'>, a: Anchor): boolean {
    return plan.beats.some((b) => b.applications.some((x) => a.operators.includes(x.operator_id)));
  }
}

/** The plan keeps the anchors (a second line of defence, and the only one for an LLM plan), or exit 6 naming the anchor. */
export function checkPlanAnchors(plan: Pick<EpisodePlan, 'beats' | 'scenes'>, anchors: readonly Anchor[] | null | undefined, opening: InWorldDate, required: readonly Anchor[]): void {
  const gate = new AnchorGate(anchors, opening);
  const dayOf = new Map(plan.scenes.map((s) => [s.id, s.day]));
  for (const b of plan.beats) for (const app of b.applications) {
    const a = gate.blocking(app.operator_id, dayOf.get(b.scene) ?? 0);
    if (a) throw infeasible(`anchor_${a.id}`, `${app.operator_id} is staged before ${a.title} (${formatDate(a.date)}, world/anchors.json)`);
  }
  for (const a of required) {
    if (!AnchorGate.played(plan, a)) {
      throw infeasible(`anchor_${a.id}`, `${a.title} (${formatDate(a.date)}) must be played by now, but none of ${a.operators.join(', ')} can be staged in this episode (world/anchors.json; set "waived": true if history changed)`);
    }
  }
}
