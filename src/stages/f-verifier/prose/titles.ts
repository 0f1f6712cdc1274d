import type { VerifyContext } from '../context.js';
import { BoundedMemo } from '../../../core/bounded-memo.js';
import { escapeRegExp } from '../../../core/regex.js';

/**
 * Titles the prose names an office-holder by ("the consul", "the pontifex"), resolved only when
 * the scene's packet makes them unambiguous: exactly one character the world or the packet knows
 * holds the office, and that character is in the packet (cast, the dead, or the retrieved
 * subgraph). Two holders ("the consuls" of a year both in the world) or none leave the title unresolved.
 */

/** English forms a model uses for an office beside its own name and head word. */
const ENGLISH: Record<string, string[]> = {
  'pontifex maximus': ['chief priest', 'high priest', 'chief pontiff'],
  'tribune of the plebs': ['tribune of the people', "people's tribune"],
  'praetor urbanus': ['urban praetor', 'city praetor'],
  'praetor peregrinus': ['foreign praetor'],
  'aedilis curulis': ['curule aedile', 'aedile'],
  'aedilis plebis': ['plebeian aedile', 'aedile'],
  'princeps senatus': ['leader of the senate', 'first man of the senate'],
  'consul suffectus': ['consul'],
};

/** Every title an office gives its holder: the office, its head word ("tribune"), its English forms. */
export function titlesOf(office: string): string[] {
  const o = office.toLowerCase().trim().replace(/\s+/g, ' ');
  const head = o.split(' ')[0];
  return [...new Set([o, head, ...(ENGLISH[o] ?? [])])].filter((t) => t.length >= 4);
}

/** Title (lower case, without "the") → the one character of the packet it names. */
export function titleIndex(ctx: VerifyContext): Map<string, string> {
  const pk = ctx.packet;
  const inPacket = new Set([...pk.cast, ...pk.dead, ...pk.retrieved_subgraph.characters].map((c) => c.id));
  const office = new Map<string, string>();
  for (const c of ctx.characters ?? []) if (c.office) office.set(c.id, c.office);
  for (const c of pk.cast) if (c.office) office.set(c.id, c.office);
  const holders = new Map<string, Set<string>>();
  for (const [id, o] of office) for (const t of titlesOf(o)) (holders.get(t) ?? holders.set(t, new Set()).get(t)!).add(id);
  // An office the scene's matters are about ("Who will be pontifex maximus?") is a post in play:
  // "the pontifex maximus turns" may be the race as well as the man, so its titles stay unresolved.
  // A matter's id says it as plainly as its question ("thr_pontifex_maximus": "…buy the chief priesthood").
  const matters = pk.retrieved_subgraph.threads.flatMap((t) => [t.question, t.id.replace(/^thr_/, '').replace(/_/g, ' ')]).map((q) => q.toLowerCase().replace(/\s+/g, ' '));
  const contested = (t: string) => matters.some((q) => titleWord.get(t, wordPattern).test(q));
  // Every title of such an office is blocked, not only the form the matter uses ("the chief priest" too).
  const blocked = new Set([...new Set(office.values())].flatMap((o) => (titlesOf(o).some(contested) ? titlesOf(o) : [])));
  const out = new Map<string, string>();
  for (const [t, ids] of holders) {
    const [only] = [...ids];
    if (ids.size === 1 && inPacket.has(only) && !blocked.has(t)) out.set(t, only);
  }
  return out;
}

/** A title as a whole word, per title: every scene of an episode asks for the same ones (issue 18, twelfth pass). */
const titleWord = new BoundedMemo<string, RegExp>(2000);

/** Not global or sticky: `test` keeps no state between texts. */
function wordPattern(t: string): RegExp {
  return new RegExp(`(?<![\\p{L}])${escapeRegExp(t)}(?![\\p{L}-])`, 'u');
}


/**
 * "the consul", "The Consul": the article is required (a bare "consul" is the office, not the man),
 * and a compound or plural ("consul-elect", "the consuls", "the consulship") is not the title.
 */
export function titleRegex(titles: Map<string, string>): RegExp | null {
  const keys = [...titles.keys()].sort((a, b) => b.length - a.length).map((k) => escapeRegExp(k).replace(/ /g, '\\s+'));
  return keys.length ? new RegExp(`(?<![\\p{L}])the\\s+(${keys.join('|')})(?![\\p{L}-])`, 'giu') : null;
}
