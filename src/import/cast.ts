import type { SourcePerson } from './model.js';
import type { StarterKit } from './kit.js';

const ROMAN = ['II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X'];

/** The i-th numbered form of a long cue: "MARCUS CATO II" … "MARCUS CATO X", then "MARCUS CATO 11". */
const numbered = (longCue: string, i: number): string => (i < ROMAN.length ? `${longCue} ${ROMAN[i]}` : `${longCue} ${i + 2}`);

/** Dialogue cues made unique: the cognomen, then with the praenomen, then the first free numeral. */
export function uniqueCues(persons: SourcePerson[]): Map<string, string> {
  const used = new Set<string>();
  const out = new Map<string, string>();
  // Per long cue, the first numeral not known to be taken. Cues are only ever added, so every
  // numeral before it stays taken and the search resumes there: the same cue as searching from II
  // each time, without the quadratic walk (a 100,000-principal world has ~400 long cues for 150,000
  // persons: that walk was 23 s of its ~35 s of generation).
  const next = new Map<string, number>();
  for (const p of persons) {
    let cue = p.cue;
    if (used.has(cue)) cue = p.longCue;
    if (used.has(cue)) {
      let i = next.get(p.longCue) ?? 0;
      while (used.has(numbered(p.longCue, i))) i++;
      cue = numbered(p.longCue, i);
      next.set(p.longCue, i + 1);
    }
    used.add(cue);
    out.set(p.id, cue);
  }
  return out;
}

/**
 * Which of the ranked persons are principals, and the starter cast's id → imported id mapping
 * (threads and constraints of the kit name the starter cast). `principalIds` is updated in place
 * when a namesake is promoted.
 */
export function castMapping(persons: SourcePerson[], living: SourcePerson[], principalIds: Set<string>, kit: StarterKit): Record<string, string> {
  // Starter threads and constraints name the starter cast: map it onto this cast. A historical
  // namesake among the living (the kit's Cicero → DPRR's M. Tullius Cicero) is promoted to principal
  // in place of the lowest-ranked principal; the rest map to the next principals by rank.
  const castMapping: Record<string, string> = {};
  const starterCast = kit.characters.filter((c) => c.principal).concat(kit.characters.filter((c) => !c.principal));
  const taken = new Set<string>();
  const rank = new Map(persons.map((p, i) => [p.id, i]));
  for (const sc of starterCast) {
    if (principalIds.size === 0) break;
    const namesake = living.find((p) => !taken.has(p.id) && (p.name === sc.name || p.cue === sc.cue.toUpperCase()));
    if (!namesake) continue;
    castMapping[sc.id] = namesake.id;
    taken.add(namesake.id);
    if (sc.principal && !principalIds.has(namesake.id)) {
      const demote = [...principalIds].filter((id) => !taken.has(id)).sort((a, b) => rank.get(b)! - rank.get(a)!)[0];
      if (demote === undefined) continue;
      principalIds.delete(demote);
      principalIds.add(namesake.id);
    }
  }
  // Starter principals map onto principals, starter supporting characters onto supporting ones;
  // when the imported cast is too small, the unmapped are dropped from threads rather than folded
  // onto someone already cast (which would make every principal a stakeholder of every thread).
  const byRank = (a: string, b: string) => rank.get(a)! - rank.get(b)!;
  const principalPool = [...principalIds].sort(byRank).filter((id) => !taken.has(id));
  const supportPool = living.map((p) => p.id).filter((id) => !principalIds.has(id) && !taken.has(id));
  for (const sc of starterCast) {
    if (castMapping[sc.id]) continue;
    const pick = (sc.principal ? principalPool : supportPool).shift();
    if (pick === undefined) continue;
    castMapping[sc.id] = pick;
    taken.add(pick);
  }

  return castMapping;
}
