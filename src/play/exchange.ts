import type { Gender } from '../domain/world.js';
import { findMentions, type PersonIndex } from '../stages/f-verifier/prose/names.js';
import { sentencesOf } from '../stages/f-verifier/prose/parse.js';
import { affirmsAll } from '../stages/f-verifier/prose/affirms.js';

export { affirmsAll };

/**
 * An Actor's answer as its listeners hear it: read with the exchange it answers, the way stage F reads a scene's
 * narration, where people and places are named. An answer in a live scene leans on the user's line and the stage
 * (held-out play set 2: "It is. Every sack."; "I write to him …" for the Caesar the question named; "they will cut
 * you down in your own atrium"; "It is here, behind my own doors"), and read alone it names none of a secret's
 * people. Every reading here puts a name where the exchange leaves one reading, and nothing else: the words said,
 * their hedges and denials stay for stage F to judge.
 */
export interface Exchange {
  speaker: Person;
  principal: Person;
  /** Everyone else on stage (the principal too): whom a vocative can name. */
  onStage: readonly Person[];
  /** The scene's place ("Ostia"), for "here". */
  place: string | null;
  /** What the user, as the principal, said just before. */
  userText: string;
  index: PersonIndex;
  /** Anyone in the world, by id (the user's line may name someone off stage). */
  person(id: string): Person | undefined;
}

export interface Person {
  id: string;
  name: string;
  gender?: Gender;
}

/** The answer's dialogue with the exchange's names put in. */
export function heardAs(dialogue: string, x: Exchange): string {
  let to = x.principal;
  return sentencesOf(fromQuestion(flat(dialogue), x))
    .map((s) => {
      to = vocativeIn(s, x) ?? to;
      return inFirstPerson(hereAs(inSecondPerson(present(s, x), to), x.place), x.speaker.name);
    })
    .join(' ');
}

/**
 * What the user said, as the speaker's own words, when the answer affirms all of it (affirmsAll), else null. Read
 * apart from the answer (disclosure.ts), so that a question the answer affirms adds its substance and cannot stand
 * in for a sentence of the answer that tells it plainly.
 */
export function affirmedQuestion(dialogue: string, x: Exchange): string | null {
  const said = flat(dialogue);
  if (affirmsAll(said)) return userAsSaid(x, flat(x.userText));
  // "Only the first part is true" (held-out play set 3, pg21), "The first half, yes" (set 4, ph39) and "The first,
  // yes" (set 5, pi13) affirm the user's first clause, and nothing after it.
  const m = PART_TRUE.exec(said);
  const part = (m?.[1] ?? m?.[2])?.toLowerCase();
  if (!part) return null;
  // Two questions ("Did you pay for his campaigns? And did you know of the plot?") are two clauses, as "A, and B" is.
  const clauses = sentencesOf(flat(x.userText)).flatMap((s) => s.split(/,?\s+and\s+|;\s*|,\s+but\s+|^and\s+/iu)).filter((c) => c.trim());
  const clause = part === 'first' ? clauses[0] : clauses.at(-1);
  return clauses.length > 1 && clause ? userAsSaid(x, clause) : null;
}

const PART_TRUE = /^[^\p{L}]*(?:only the (first|last|second) (?:part|half)(?: of it)? is (?:true|so|right)|the (first|last|second)(?: (?:part|half|one|thing))?(?: of it)?,? (?:yes|is true|is so|is right))\b/iu;

/** The user's line as the speaker would say it: "you" is the speaker, "I" the principal; a question mark affirmed is a statement. */
function userAsSaid(x: Exchange, text: string): string {
  return sentencesOf(text)
    .map((s) => inFirstPerson(inSecondPerson(s, x.speaker), x.principal.name).replace(/\?+(?=["'’”)]*$)/u, '.'))
    .join(' ');
}

/**
 * "He", "him", "his" (or "she", "her") with no name before them in the answer: the one person of that gender the
 * user's line names besides the speaker and the principal ("Crassus disowns you, Catiline." … "He knows it well enough
 * to have paid for every banner": held-out play set 2, pf33). Put as that name up to the first person the answer
 * names itself; with none or two such people in the user's line, nothing is put.
 */
function fromQuestion(said: string, x: Exchange): string {
  let out = said;
  const others = [...new Set(findMentions(x.userText, x.index).map((m) => m.id))].filter((id) => id !== x.speaker.id && id !== x.principal.id);
  for (const gender of ['male', 'female'] as const) {
    const inQuestion = others.filter((id) => genderOf(id, x) === gender);
    if (inQuestion.length !== 1) continue;
    const name = x.person(inQuestion[0]!)?.name;
    if (!name) continue;
    // Stage business inside the words (*she glances at Terentia*) is the speaker's own: its pronouns and names are not the answer's.
    let named = false;
    out = out.split(/(\*[^*]*\*)/).map((part) => {
      if (named || part.startsWith('*')) return part;
      const own = findMentions(part, x.index).find((m) => genderOf(m.id, x) === gender);
      named = own !== undefined;
      return own ? pronounsAs(part.slice(0, own.start), gender, name) + part.slice(own.start) : pronounsAs(part, gender, name);
    }).join('');
  }
  return out;
}

function genderOf(id: string, x: Exchange): Gender | undefined {
  return x.person(id)?.gender;
}

/** A possessive "her" ("her husband's") stands before a word that is not a preposition, conjunction or article. */
const HER_POSSESSIVE = String.raw`(?=\s+(?!(?:and|or|but|to|that|the|a|an|of|in|at|on|with|for|from|by|as|if|when|so|then|now|too|again|up|down|out|off|back|away|yet|still)\b)\p{L})`;

function pronounsAs(text: string, gender: Gender, name: string): string {
  if (gender === 'male') {
    return text
      .replace(/\b(?:[Hh]is|[Hh]imself)\b/g, (m) => (m.toLowerCase() === 'his' ? `${name}'s` : name))
      .replace(/\b(?:[Hh]e|[Hh]im)\b(?!['’])/g, name);
  }
  return text
    .replace(new RegExp(String.raw`\b[Hh]er${HER_POSSESSIVE}`, 'gu'), `${name}'s`)
    .replace(/\b(?:[Hh]ers|[Hh]erself|[Ss]he|[Hh]er)\b(?!['’])/g, (m) => (m.toLowerCase() === 'hers' ? `${name}'s` : name));
}

/**
 * Whom a sentence of the answer turns to: a person on stage named as a vocative, set off by punctuation ("You,
 * Tertulla, tell him…"; "Shall I go on, Cato, or will you take my word": held-out play set 2, pf31; "Publius, you may
 * stop looking so innocent": set 3, pg17), by a word of their name or a title only they hold ("Consul"); null when it
 * turns to no one. The speaker goes on speaking to that person until another is named (heardAs).
 */
function vocativeIn(sentence: string, x: Exchange): Person | null {
  for (const m of sentence.matchAll(/(?:^|[,;:—–]\s*|\byou,?\s+)(\p{Lu}[\p{L}'’]+(?:\s+\p{Lu}[\p{L}'’]+)*)(?=\s*(?:[,!?.;:—–]|$))/gu)) {
    const words = m[1]!;
    const titled = x.index.titles.get(words.toLowerCase());
    const byTitle = titled !== undefined ? [x.principal, ...x.onStage].find((p) => p.id === titled) : undefined;
    if (byTitle) return byTitle;
    const last = words.split(/\s+/).at(-1)!.toLowerCase();
    const named = x.onStage.filter((p) => p.id !== x.speaker.id && p.name.toLowerCase().split(/\s+/).includes(last));
    if (named.length === 1) return named[0]!;
  }
  return null;
}

/**
 * The speaker's "you" put as the addressee's name ("they will cut you down in your own atrium", to the consul:
 * held-out play set 2, pf19, pf36), with the verb after it agreeing. Turns of phrase whose "you" is no one ("thank
 * you", "you know", "mark you", "if you please") stay as said.
 */
function inSecondPerson(sentence: string, who: Person): string {
  const name = who.name;
  return sentence.replace(/\b(?:thank you|you know|you see|mind you|mark you|if you please|believe you me|(?:all|each|both|any|some|none|one|most|many|few|either|neither) of you|[Yy]ou (?:gentlemen|men|women|two|three|all|both|people|fathers|senators|lot|boys|lads|fools|others)|[Yy]ou['’](?:re|ve|ll|d)|[Yy]ou\s+(?:are|were|have)\b|[Yy]our(?:s|self|selves)?|[Yy]ou)\b/g, (m) => {
    if (AS_IS.test(m)) return m;
    const low = m.toLowerCase().replace('’', "'");
    if (low === 'your' || low === 'yours') return `${name}'s`;
    if (low.startsWith('yoursel')) return name;
    const verb = /^you(?:'|\s+)(re|ve|ll|d|are|were|have)$/.exec(low)?.[1];
    return verb ? `${name} ${{ re: 'is', ve: 'has', ll: 'will', d: 'would', are: 'is', were: 'was', have: 'has' }[verb]}` : name;
  });
}

/**
 * The turns of phrase inSecondPerson leaves as said, and a "you" of many ("while you gentlemen debate", "each of you"):
 * not the one addressed (held-out play set 2, pf31, read "while Marcus Tullius Cicero gentlemen debate").
 */
const AS_IS = /^(?:thank you|you know|you see|mind you|mark you|if you please|believe you me|\w+ of you|you (?:gentlemen|men|women|two|three|all|both|people|fathers|senators|lot|boys|lads|fools|others))$/i;

/**
 * "This lady", "this man", "the man beside me": the one woman, or the one man besides the principal, on stage with the
 * speaker ("the fattest of his bonds sits in the strongbox of this lady's husband", with Tertulla on stage: held-out play
 * set 3, pg16; "Look at the man beside me — he holds the heaviest of my bonds", with Crassus: pg34). With two, nothing.
 */
function present(sentence: string, x: Exchange): string {
  const others = x.onStage.filter((p) => p.id !== x.speaker.id);
  const women = others.filter((p) => p.gender === 'female');
  const men = others.filter((p) => p.gender === 'male' && p.id !== x.principal.id);
  let out = sentence;
  if (women.length === 1) out = out.replace(/\b(?:[Tt]his|[Tt]hat) (?:lady|woman|matron)\b/g, women[0]!.name);
  if (men.length === 1) out = out.replace(/\b(?:(?:[Tt]his|[Tt]hat) (?:man|gentleman|fellow)|[Tt]he man (?:beside|next to|behind) me)\b/g, men[0]!.name);
  return out;
}

/**
 * "Here" as the scene's place ("It is here, behind my own doors along this quay", at Ostia: held-out play set 2, pf01),
 * unless the place is named right after it ("here at Ostia") or "here" is no place ("here and there", "here is"); in a
 * house, "this house" is that house ("most of it is owed to this house", in the House of Crassus: set 3, pg13).
 */
function hereAs(sentence: string, place: string | null): string {
  if (!place) return sentence;
  const at = sentence.replace(/\b[Hh]ere\b(?!\s+(?:and there|is|are|was|were)\b)(?!\s+(?:at|in|on)\s+\p{Lu})/gu, `at ${place}`);
  return /^house of\b/i.test(place) ? at.replace(/\b[Tt]his house\b/g, `the ${place}`) : at;
}

/**
 * The speaker's words with "I", "me", "my" and "mine" put as the speaker's name. Why: stage F reads a forbidden fact by
 * the people and places a sentence names, and in a scene's narration the holder is named; a holder telling it in the
 * first person ("It is in my sheds, … and there it stays until the price in Rome has doubled": held-out play set 1,
 * pe01; "Every sesterce … came out of Crassus' coffers", said by Catiline about himself, pe11) names no one. Reported
 * speech inside the answer is rare in an Actor's line, and would be misread the same way by a listener.
 */
function inFirstPerson(text: string, name: string): string {
  return text
    .replace(/\b(?:my|mine)\b/gi, `${name}'s`)
    .replace(new RegExp(String.raw`\b(?:I(?!${HEDGED_I})|me)\b(?!['’])`, 'g'), name)
    .replace(new RegExp(String.raw`\bI['’](?:m|ve|ll|d)\b(?!\s+(?:told|heard)\b)`, 'g'), (m) => `${name} ${{ m: 'is', ve: 'has', ll: 'will', d: 'would' }[m.slice(2)]!}`);
}

/**
 * What after "I" is the speaker's own hedge, which stage F reads by its words ("I hear", "I am told", "I think": held-out
 * play set 2, pf16): that "I" stays as said, as does "I'm told" or "I've heard".
 */
const HEDGED_I = String.raw`\s+(?:hear|heard|am told|was told|have heard|had heard|gather|gathered|think|thought|believe|suppose|fancy|guess|imagine|dare say)\b`;

export function flat(t: string): string {
  return t.replace(/\s+/g, ' ').trim();
}
