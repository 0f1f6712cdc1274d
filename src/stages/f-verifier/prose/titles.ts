import type { VerifyContext } from '../context.js';
import { BoundedMemo } from '../../../core/bounded-memo.js';
import { escapeRegExp } from '../../../core/regex.js';
import { lexiconTagged, tagsOnly } from './parse.js';

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

/**
 * Nouns of office, rank or standing that stand before a name as its title ("the consul Cicero", "the conspirator
 * Catiline", "his old debtor Catilina", "Crassus' wife Tertulla"): the Republic's offices and the roles of its houses
 * and streets, beside what compromise's lexicon tags a person (Actor: "wife", "lady", "clerk", "priest"). Not "man",
 * "woman", "person" or "one": "the man Catiline trusts comes in" is a relative clause on the man, not a title.
 */
const ROLE = new Set([
  ...'consul proconsul praetor propraetor quaestor aedile tribune censor dictator pontifex pontiff augur haruspex flamen vestal'.split(' '),
  ...'senator legate imperator general magistrate lictor centurion prefect triumvir candidate colleague orator advocate'.split(' '),
  ...'conspirator accomplice debtor creditor moneylender lender usurer informer spy agent freedman freedwoman slave'.split(' '),
  ...'steward client ally rival widow matron mistress cousin kinsman kinswoman niece heir ward secretary scribe bodyguard'.split(' '),
  ...'maid maidservant handmaid porter doorkeeper messenger courier nurse tutor stepson stepdaughter stepfather stepmother'.split(' '),
  // The kin words names.ts reads after a possessive ("Servilia's half-brother"), and the in-laws.
  ...'wife husband brother sister half-brother half-sister'.split(' '),
  ...['son', 'daughter', 'father', 'mother', 'brother', 'sister'].map((k) => `${k}-in-law`),
]);
const GENERIC = /^(?:man|woman|men|women|person|people|one|fellow|someone|somebody|thing|child)$/;
const isRole = (w: string) => ROLE.has(w) || (lexiconTagged(w, 'Actor') && !GENERIC.test(w));
/** Words that end a title's phrase on its left: its determiner, or a possessive ("his", "Crassus'", "the consul's"). */
const DETERMINER = /^(?:the|a|an|this|that|his|her|their|its|my|our|your)$/;
const POSSESSIVE = /^[\p{L}-]+(?:['’]s|s['’])$/u;
/**
 * Adjectives that say which, not what kind ("the same Catiline", "the other Cicero"), and words of place the lexicon calls
 * adjectives ("behind Catiline", "beside Cicero"), or adjectives only said after a verb ("alone", "asleep"): no title.
 */
const NOT_QUALITY = /^(?:only|other|same|such|very|whole|own|first|last|next|former|latter|certain|several|many|few|each|every|all|both|behind|beside|above|below|inside|outside|near|round|around|over|under|beyond|opposite|far|still|alone|asleep|awake|ahead|alive|aware|afraid)$/;
/** A word that may describe the person before the title or the name: an adjective by the lexicon, a participle or a hyphened word ("grey-haired"). */
const quality = (w: string) => !NOT_QUALITY.test(w) && (lexiconTagged(w, 'Adjective') || /^\p{L}{3,}(?:ed|ing)$/u.test(w) || /^\p{L}+-\p{L}+$/u.test(w));

/**
 * Where a title before a name starts in `before` (the text up to the name), or -1: a determiner or possessive, words
 * describing, and a role noun right before the name ("The conspirator ", "His old debtor ", "Crassus' wife ", "the
 * consul's slave girl "); or, with no determiner, one or two adjectives or a role noun alone ("Young ", "poor old ",
 * "Consul "). The name after it is still its clause's subject (subjects.ts), as it would be without the title.
 */
export function titleBefore(before: string): number {
  const tail = /(?:[\p{L}'’-]+\s+){1,6}$/u.exec(before);
  if (!tail) return -1;
  const words = [...tail[0].matchAll(/[\p{L}'’-]+/gu)].map((w) => ({ text: w[0].toLowerCase(), at: tail.index + w.index! }));
  let i = words.length - 1;
  const roleLast = isRole(words[i]!.text);
  let roles = 0;
  for (; i >= 0 && (isRole(words[i]!.text) || quality(words[i]!.text)); i--) if (isRole(words[i]!.text)) roles++;
  const head = words[i];
  if (head && (DETERMINER.test(head.text) || POSSESSIVE.test(head.text))) {
    if (!roleLast) return -1;
    // "the consul's wife": the article of a possessive noun is the phrase's start.
    const article = POSSESSIVE.test(head.text) && /^\p{Ll}/u.test(head.text) && words[i - 1]?.text === 'the' ? words[i - 1]! : head;
    return article.at;
  }
  // No determiner: adjectives ("Young Curius") or a title alone ("Consul Cicero"), at most two words. Adjectives by the
  // lexicon only: "Seeing Catiline laugh, …" is a participle with its object.
  const lead = words.slice(i + 1);
  if (!lead.length || lead.length > 2 || (roles > 0 && !roleLast)) return -1;
  return lead.every((w) => isRole(w.text) || (!NOT_QUALITY.test(w.text) && lexiconTagged(w.text, 'Adjective'))) ? lead[0]!.at : -1;
}

/**
 * After a titled name, its verb straight followed by another finite one ("The slave Crassus sends comes in", "The lictor
 * Cato sent came back"): the name's verb is a relative clause's on the title's noun, not the name's deed. Read in context
 * ("He sends comes in"), so an object ("brings cups") is a noun; a participle ("walks in unannounced") or a particle
 * ("comes in") is no second verb. Where compromise tags the second verb a noun ("trusts most waits"), the name is still
 * read as the subject: a known limit.
 */
export function relativeOnTitle(after: string): boolean {
  const two = /^\s*([a-z]+)\s+(?:((?:most|best|least|\p{L}+ly))\s+)?([a-z]+)\b/iu.exec(after);
  if (!two || /ed$/i.test(two[3]!)) return false;
  const terms = (tagsOnly(`He ${two[0].trim()}.`) as unknown as { docs: { tags: Set<string> }[][] }).docs[0] ?? [];
  const t = terms[two[2] ? 3 : 2]?.tags;
  return !!t && t.has('Verb') && !t.has('Particle') && (t.has('PresentTense') || t.has('PastTense'));
}
