import type { MandatoryBeat } from '../../domain/plan.js';
import type { World } from '../../domain/world.js';
import { LIMITS } from './shape.js';

export type OpType = 'thriller' | 'soap';

/** The types of a tag's carriers whose prerequisites hold on one projected state (candidates.ts liveTypesOfTags). */
export type LiveTypes = (tag: MandatoryBeat) => ReadonlySet<OpType>;
const NONE_LIVE: LiveTypes = () => new Set();

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
   * reserved an application of the type that still can carry it (set before every slot, for the next
   * one's budget). A tag's live types cost a prerequisite check of its carriers on that state, so they
   * are asked only when the budget's answer depends on them.
   */
  live: LiveTypes = NONE_LIVE;

  constructor(world: World, private readonly totalSlots: number, private readonly lastType: OpType | null, private readonly placedTags: ReadonlySet<MandatoryBeat>) {
    for (const t of ['reveal', 'reversal', 'confrontation'] as MandatoryBeat[]) {
      this.tagTypes.set(t, new Set(world.operators.operators.filter((o) => o.beats.includes(t)).map((o) => o.type)));
    }
  }

  /**
   * The applications the unplaced tags (other than forTag) reserve: each of one type reserves one of it;
   * each other one reserves one of the only type still live, if one is: `open` lists those.
   */
  private reserved(forTag: MandatoryBeat | null): { thriller: number; soap: number; open: MandatoryBeat[] } {
    const r = { thriller: 0, soap: 0, open: [] as MandatoryBeat[] };
    for (const [tag, types] of this.tagTypes) {
      if (tag === forTag || this.placedTags.has(tag)) continue;
      if (types.size === 1) r[types.has('thriller') ? 'thriller' : 'soap']++;
      else r.open.push(tag);
    }
    return r;
  }

  /**
   * May the next slot take a move of type t, with remainingAfter slots left after it? An open tag
   * reserves a thriller, a soap or nothing, by its live types: when every way the open tags could reserve
   * gives one answer, that is the answer and no tag's live types are worked out.
   */
  allowed(t: OpType, remainingAfter: number, forTag: MandatoryBeat | null = null): boolean {
    const r = this.reserved(forTag);
    const n = r.open.length;
    let yes = false;
    let no = false;
    for (let th = 0; th <= n; th++) for (let so = 0; th + so <= n; so++) {
      if (this.fits(t, remainingAfter, r.thriller + th, r.soap + so)) yes = true; else no = true;
    }
    if (!(yes && no)) return yes;
    let th = r.thriller;
    let so = r.soap;
    for (const tag of r.open) {
      const live = this.live(tag);
      if (live.size === 1) { if (live.has('thriller')) th++; else so++; }
    }
    return this.fits(t, remainingAfter, th, so);
  }

  /** The budget's rule with these many thriller and soap applications reserved for the tags. */
  private fits(t: OpType, remainingAfter: number, reservedThriller: number, reservedSoap: number): boolean {
    const th = this.count.thriller + (t === 'thriller' ? 1 : 0) + reservedThriller;
    const so = this.count.soap + (t === 'soap' ? 1 : 0) + reservedSoap;
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
