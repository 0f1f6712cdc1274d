import type { EpisodeContext } from '../../domain/episode-context.js';
import type { Thread } from '../../domain/world.js';
import type { WorldIndex } from '../../core/world-index.js';
import type { Rng } from '../../core/rng.js';
import { compareText } from '../../core/text-order.js';

const words = (s: string) => new Set(s.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length >= 4));

/** A thread's words (question and tags) and their 5-letter stems: an objective's word hits on either. */
interface ThreadWords { words: Set<string>; stems: Set<string> }

function threadWords(th: Thread): ThreadWords {
  const tw = new Set([...words(th.question), ...th.tags.flatMap((x) => [...words(x)])]);
  return { words: tw, stems: new Set([...tw].map((x) => x.slice(0, 5))) };
}

/**
 * Spec §5.2 C "select faction objectives": each faction with an acting member picks the objective
 * that best matches the active threads its members hold a stake in (overdue threads count double).
 * The seed only breaks ties. The members of every faction are found in one pass over the cast and
 * each thread's words are read once (on the DPRR world, 3,450 characters, a pass per faction and a
 * word set per objective and thread cost ~10 ms per attempt).
 */
export function chooseObjectives(index: WorldIndex, context: EpisodeContext, rng: Rng): Record<string, string> {
  const world = index.world;
  const out: Record<string, string> = {};
  const acting = new Set(context.acting_principals);
  const membersOf = new Map<string, string[]>();
  for (const c of world.characters.characters) {
    if (!acting.has(c.id)) continue;
    const l = membersOf.get(c.faction);
    if (l) l.push(c.id);
    else membersOf.set(c.faction, [c.id]);
  }
  const read = new Map<Thread, ThreadWords>();
  const wordsOf = (th: Thread): ThreadWords => {
    let w = read.get(th);
    if (!w) read.set(th, (w = threadWords(th)));
    return w;
  };
  for (const f of [...world.factions.factions].sort((a, b) => compareText(a.id, b.id))) {
    const members = membersOf.get(f.id) ?? [];
    if (members.length === 0 || f.objectives.length === 0) continue;
    const threads: { th: Thread; overdue: boolean }[] = [];
    for (const t of context.active_threads) {
      const th = index.threads.get(t.id);
      if (th && (th.stakeholders.length === 0 || th.stakeholders.some((s) => members.includes(s)))) threads.push({ th, overdue: t.overdue });
    }
    const r = rng.fork(`objectives/${f.id}`);
    let best = '';
    let bestScore = -Infinity;
    for (const o of f.objectives) {
      const ow = words(o);
      let s = 0;
      for (const { th, overdue } of threads) {
        const tw = wordsOf(th);
        let hits = 0;
        for (const w of ow) if (tw.words.has(w) || tw.stems.has(w.slice(0, 5))) hits++;
        s += hits * (th.priority / 5) * (overdue ? 2 : 1);
      }
      s += r.next() * 0.1;
      if (s > bestScore) { bestScore = s; best = o; }
    }
    out[f.id] = best;
  }
  return out;
}
