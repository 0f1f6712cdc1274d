import type { MandatoryBeat } from '../../domain/plan.js';
import type { World } from '../../domain/world.js';
import { LIMITS } from './shape.js';

type OpType = 'thriller' | 'soap';

/**
 * Type limits (spec §2.2: thriller and soap moves each within their bounds), keeping the final
 * (cliffhanger) slot a wildcard: every earlier slot must leave the counts where either type can
 * still close the episode, because only a few operators can end it and their type is not known in
 * advance.
 */
export class TypeBudget {
  readonly count = { thriller: 0, soap: 0 };
  /**
   * Mandatory beats only some operators carry: when all of a tag's operators are of one type, an
   * untagged slot must not use up the last application of that type before the tag is placed.
   */
  private readonly tagTypes = new Map<MandatoryBeat, Set<OpType>>();
  /**
   * Late in a season a tag's carriers of one type may all have stopped applying: then the tag is
   * reserved an application of the type that still can carry it (recomputed before every slot).
   */
  live = new Map<MandatoryBeat, Set<OpType>>();

  constructor(world: World, private readonly totalSlots: number, private readonly lastType: OpType | null, private readonly placedTags: ReadonlySet<MandatoryBeat>) {
    for (const t of ['reveal', 'reversal', 'confrontation'] as MandatoryBeat[]) {
      this.tagTypes.set(t, new Set(world.operators.operators.filter((o) => o.beats.includes(t)).map((o) => o.type)));
    }
  }

  private reserved(t: OpType, forTag: MandatoryBeat | null): number {
    return [...this.tagTypes].filter(([tag, types]) => {
      if (tag === forTag || this.placedTags.has(tag)) return false;
      const live = this.live.get(tag);
      const eff = types.size === 1 ? types : live && live.size === 1 ? live : null;
      return !!eff && eff.has(t);
    }).length;
  }

  /** May the next slot take a move of type t, with remainingAfter slots left after it? */
  allowed(t: OpType, remainingAfter: number, forTag: MandatoryBeat | null = null): boolean {
    const th = this.count.thriller + (t === 'thriller' ? 1 : 0) + this.reserved('thriller', forTag);
    const so = this.count.soap + (t === 'soap' ? 1 : 0) + this.reserved('soap', forTag);
    const wildcard = this.totalSlots < LIMITS.thriller.max + LIMITS.soap.max;
    if (!wildcard) {
      if (th > LIMITS.thriller.max || so > LIMITS.soap.max) return false;
      // A full 24-application episode fixes every type; a re-plan keeps the last one for the other
      // type than it first had, so a cliffhanger of that type can close the episode.
      if (this.lastType && remainingAfter > 0 && (this.lastType === 'thriller' ? th > LIMITS.thriller.max - 1 : so > LIMITS.soap.max - 1)) return false;
      return Math.max(0, LIMITS.thriller.min - th) + Math.max(0, LIMITS.soap.min - so) <= remainingAfter;
    }
    if (remainingAfter === 0) {
      return th >= LIMITS.thriller.min && th <= LIMITS.thriller.max && so >= LIMITS.soap.min && so <= LIMITS.soap.max;
    }
    if (th > LIMITS.thriller.max - 1 || so > LIMITS.soap.max - 1) return false;
    // The slots left before the last must bring both counts to their minimums.
    return Math.max(0, LIMITS.thriller.min - th) + Math.max(0, LIMITS.soap.min - so) <= remainingAfter - 1;
  }
}
