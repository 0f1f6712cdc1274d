import type { PacketInstruction } from '../../../domain/packet.js';
import type { VerifyContext } from '../context.js';
import { clauseHead, complianceUses, GROUP, type ComplianceUse } from './compliance.js';
import { clearlyPresent, formTense } from './tense.js';
import { factMatch, signature, type FactSignature } from './facts.js';
import { namesPeopleOf } from './fact-subject.js';
import { belongingsIn, PASSES_FROM, successIdiom, YIELDING_IDIOM } from './outcome.js';
import { failOwner } from './owner.js';
import type { ProseSentence, Reading } from './reader.js';
import { givenUpByActor, lostBy, takenByLoser, wonBy } from './receiver.js';
import { toldInOperatorWords } from './success-words.js';
import { withSpeakersNamed } from './spoken-persons.js';

/** A sentence showing a beat planned to fail coming off, and how sure the reading is. */
export interface BeatSuccess {
  sentence: ProseSentence;
  /** The application planned to fail that the sentence shows coming off. */
  app: PacketInstruction;
  sure: boolean;
  /** What shows it: an idiom of success, a verb of giving way, or the beat's secret told. */
  how: string;
}

/**
 * Hearsay, denial and conditions around a told secret: it is not told as fact; nor is a telling broken off
 * before its last word ("…whose crews are paid by...": held-out corpus 61, bh14).
 */
const BROKEN_OFF = String.raw`\b(?:by|to|from|of|the|a|is|was|are|were)\s*(?:\.\.\.|…)["”]?\s*$`;
/** A whisper set going, a rumour by another name ("A whisper starts to travel: Cotta owes Terentia more than he can repay"). */
const WHISPER_GOES = String.raw`(?:a|the)\s+whisper\s+(?:starts?|started|begins?|began|goes|went|runs?|ran|spreads?|spread|travels?|travelled|traveled)\b`;
const HEDGED = new RegExp(String.raw`\b(?:rumou?rs?|they say|men say|some say|is said|perhaps|maybe|if|unless|would|could|might|not|never|no one|nobody|lie|lies|nonsense|pretend|${WHISPER_GOES})\b|\?|${BROKEN_OFF}`, 'i');
/**
 * A sentence that is only a question's clause on who or which, with no question mark: what someone knows or offers,
 * not the answer ("Several names. Who pays for the crews in the Subura, and which taverns they drink
 * in, and on which nights. I have it written down.": held-out corpus 67, bn04, an offer the failing
 * betrayal never makes good). Its words are no telling of the secret. Nor is a clause on where or what, said to be
 * written down ("Where his silver comes from, and whose friends he drinks with after dark, is written here.": held-out
 * corpus 82, cc04 and cc10).
 */
const WH_FRAGMENT = /(?:^|(?<=[.!…]["”]?\s+))(?:(?:who|whose|which)\b[^.!?…]*|(?:where|what|how)\b[^.!?…]*\b(?:is|are)\s+(?:all\s+)?(?:written|set down|here|in (?:this|these|that)|on (?:this|that|these))\b[^.!?…]*)(?:[.!…]|$)/gi;

/**
 * A question's clause on who, whose or which after a verb of knowing, asking or telling, to the end of its clause: what
 * someone knows or would say, not the answer ("She has been told … that Crassus knows who pays the crews in the Subura,
 * and that for the right price he will say so in writing.": held-out corpus 123, dr04). An answer after a colon or a
 * comma is read ("he will tell you who pays them: Crassus himself").
 */
const EMBEDDED_WH = /\b(?:knows?|knew|known|ask(?:s|ed)?|wonders?|wondered|learn(?:s|ed|t)?|find(?:s)? out|found out|guess(?:es|ed)?|tells?|told|say(?:s)?|said)\s+(?:(?:him|her|them|me|us|you)\s+)?(?:who|whose|which)\b[^,;:.!?…]*/gi;

/**
 * Narration that reports a telling ("he tells her everything: …"), or someone holding what a colon
 * then spells out ("closes her hand round it and has it: every name, every sum…"); "names" is read
 * apart (namesSomeone).
 */
const TELLS = /\b(?:tells?|told|reveals?|whispers?|confides?|confesses?|spells? out|lays? (?:it )?(?:all )?out|shows?|reads? (?:it )?(?:aloud|out))\b|\b(?:has|holds) (?:it|them)(?: all)?:/i;
/** "Name(s)" and the word after it. */
const NAME_WORD = /\bnames?\s+([\p{L}']+)/giu;
/**
 * A determiner, possessive or preposition just before "name(s)" makes it a noun: "the name of", "her name", "a list of
 * names", "beside each name a number" (held-out corpus 113, dh04: a tablet's list, which names no one to anybody).
 */
const NOUN_BEFORE = /\b(?:the|an?|his|her|their|its|my|your|our|whose|no|one|each|every|any|this|that|these|those|same|own|of|by|in|on|under|with|without|for|from|beside)\s+$/i;
/** What "names" as a verb takes: a person or a thing named ("names him", "names the paymaster", "names Clodius"). */
const NAMED = /^(?:him|her|them|me|us|you|it|himself|herself|the|an?|his|their|every|each|names)$/i;

/**
 * "Names" as a verb of telling: an object after it and no determiner or preposition before it.
 * "Crassus names the paymaster" tells; "on it is the name of the purse" describes a tablet.
 */
function namesSomeone(text: string): boolean {
  for (const m of text.matchAll(NAME_WORD)) {
    if (NOUN_BEFORE.test(text.slice(0, m.index))) continue;
    if (NAMED.test(m[1]) || /^\p{Lu}/u.test(m[1])) return true;
  }
  return false;
}

/**
 * A FAIL beat that moves a secret (a betrayal, a confession, an informer's report) has come off
 * when the secret is put into words in the scene: the rival now holds it (secretToldIn).
 */
function secretTold(r: Reading, ctx: VerifyContext): BeatSuccess | null {
  const pk = ctx.packet;
  for (const app of pk.director_instructions.sequence) {
    const id = app.outcome === 'fail' ? app.bindings.secret : undefined;
    if (!id) continue;
    const sec = pk.retrieved_subgraph.secrets.find((x) => x.id === id);
    const told = sec ? secretToldIn(r, sec, 1, ctx) : null;
    if (told) return { ...told, app, how: `the secret ${id} told` };
  }
  return null;
}

/**
 * The first sentence of the scene that puts a secret into words, and whether the match is sure: speech, or
 * narration that reports a telling; a hedged or denied telling does not count. One reading for both questions
 * asked of it: a beat planned to fail whose secret is told anyway (AUR5035), and a beat planned to succeed whose
 * secret never is (rules/prose-beats.ts, AUR5037). `run`: how many adjacent telling sentences (each within two
 * lines of the one before) are read together. The failing beat's rule reads one, since a false telling there fails
 * the scene; the other question reads a telling spread over a line of speech ('"The brokers who worked the tribes
 * for him. I paid them. Out of my own strongbox at Ostia."'), since a telling missed there is the false alarm.
 */
export function secretToldIn(r: Reading, sec: { text: string }, run = 1, ctx?: VerifyContext): { sentence: ProseSentence; sure: boolean } | null {
  const telling = r.sentences.filter((s) => !(s.line <= 0 || s.imagined || (s.kind === 'narration' && !TELLS.test(s.text) && !namesSomeone(s.text)) || HEDGED.test(s.text)));
  // Tagged only once a sentence tells something unhedged.
  let sig: FactSignature | undefined;
  for (let i = 0; i < telling.length; i++) {
    let text = '';
    let pointed = '';
    for (let j = i; j < Math.min(telling.length, i + run) && (j === i || telling[j]!.line - telling[j - 1]!.line <= 2); j++) {
      // Speech read with its persons named (spoken-persons.ts): "His crews are paid with my money", said by Crassus looking at Clodius.
      text = `${text} ${withSpeakersNamed(r, telling[j]!, ctx)}`.trim();
      pointed = `${pointed} ${withSpeakersNamed(r, telling[j]!, ctx, false)}`.trim();
      const m = factMatch(text.replace(WH_FRAGMENT, ' ').replace(EMBEDDED_WH, ' '), (sig ??= signature(sec.text, r.index)), r.index);
      // Its people named: "The men who pay the Subura crews." asks who; it tells the rival no one (held-out corpus 9, s04).
      // The speaker's "I" or "my" names no one pointed at: "About a man who takes my money" (held-out corpus 84, ce12) leaves who unsaid.
      if (m && namesPeopleOf(pointed, sig, r.index)) return { sentence: telling[i]!, sure: 1.5 * m.entities + m.roots >= 5 };
    }
  }
  return null;
}

/** An owner who is somebody else: "other men", "another house", "strangers". */
const OTHERS = /\b(?:other|others|another|strangers?|someone else|somebody else)\b/i;

/**
 * Something said to belong to one of the people bound to a beat planned to fail, or one of them
 * said to belong to someone ("Ostia belongs to Clodius", "Servilia belongs to Caesar now"), or a
 * place said to belong to the crowd ("the street belongs to the crowd"): the prize owned. A name
 * counts when it is written in the clause of owning (outcome.ts).
 */
function ownedByFailingBeat(s: ProseSentence, ctx: VerifyContext): boolean {
  const owning = belongingsIn(s.text);
  if (!owning.length) return false;
  const bound = new Set(ctx.packet.director_instructions.sequence.filter((a) => a.outcome === 'fail').flatMap((a) => Object.values(a.bindings)));
  const named = s.mentions.filter((m) => bound.has(m.id)).map((m) => m.text);
  // "the ships belong to other men" (held-out corpus 42, ao08): owned by others than the crowd.
  return owning.some((b) => (GROUP.test(b.owner) && !OTHERS.test(b.owner)) || named.some((n) => b.owned.includes(n) || b.owner.includes(n)));
}

/** A causative past before a bare verb: "had six hundred men answer a lifted finger" (held-out corpus 69, bp16) is as past as "made them answer". */
const HAD_MADE = /\b(?:had|made)\s+(?:[\p{L}'’-]+\s+){1,4}$/iu;

/**
 * Words someone would say, with their tag after them ("Crassus gave it to me, she would say.": held-out
 * corpus 71, br04): a speech imagined, not a deed told.
 */
const IMAGINED_SAYING = /,\s*(?:he|she|they|I|we|\p{Lu}\p{L}+)\s+(?:would|will|could|might|should)\s+(?:say|tell|swear|claim|answer|explain|insist)\b[^,;]*[.!]?\s*$/u;

/** "had" as the verb's auxiliary, a word or two between at most. */
const PAST_PERFECT = /\bhad\s+(?:(?:been|not|never|just|already|seen|being)\s+){0,3}$/i;

/** The verbs of coming off in a sentence (compliance.ts), none in words someone only would say (IMAGINED_SAYING). */
const usesIn = (s: ProseSentence): ComplianceUse[] => (IMAGINED_SAYING.test(s.narr ?? s.text) ? [] : complianceUses(s.narr ?? s.text, s.kind));

/** The idioms of success that hand or take a thing (outcome.ts), which a taking back undoes. */
const HANDED_IDIOM = new RegExp(String.raw`^(?:takes|hands|handed|accepts|lets go|let go|\p{L}+\s+${PASSES_FROM})\b`, 'iu');
/** The idiom of letting go: whose it is matters, as giving in's does. */
const LETS_GO = /^(?:lets|let) go\b/i;
/** A thing taken back: "takes them back out of his hand", "snatches it back". */
const TAKEN_BACK = /\b(?:takes?|took|taking|snatch(?:es|ed|ing)?|pulls?|pulled|pulling|plucks?|plucked)\s+(?:it|them|the\s+[\p{L}-]+)\s+back\b/iu;

/**
 * Whether a handing or taking in `s` (the reading's sentence `i`) is undone in it, later in its paragraph or in the next: the
 * thing taken back (held-out corpus 33, af12: "Cato takes it. … before Caesar … takes them back out
 * of his hand").
 */
function takenBack(s: ProseSentence, i: number, r: Reading): boolean {
  // A fragment with no subject right after a taking back says it again ("Then Caesar takes it back. Just takes it.": held-out corpus 54, ba12).
  const prev = r.sentences[i - 1];
  if (prev && prev.line === s.line && prev.kind === 'narration' && TAKEN_BACK.test(prev.narr ?? prev.text) && ECHO.test(s.narr ?? s.text)) return true;
  // Its paragraph and the next one ("Cato takes it. … ¶ Then Caesar takes it back.": held-out corpus 35, ah12).
  const next = r.sentences.find((t, j) => j > i && t.line > s.line)?.line;
  return r.sentences.some((t, j) => j >= i && (t.line === s.line || t.line === next) && t.kind === 'narration' && TAKEN_BACK.test(t.narr ?? t.text));
}
/**
 * A thing handed shown to hold nothing: "The wax is smooth. Both leaves. Not a letter on them." after
 * "Terentia takes it." (held-out corpus 47, at12), or a tablet pushed back "as blank as when it came"
 * before a servant gathers it up (held-out corpus 58, be04), or a heading and "Below that there was nothing. The wax
 * had been smoothed flat" (held-out corpus 81, cb04): what was taken carried nothing of the prize.
 */
const SHOWN_EMPTY = /\b(?:(?:is|are|was|were)\s+(?:quite\s+|entirely\s+|completely\s+|still\s+|as\s+)?blank|as (?:blank|clean|empty|smooth) as\b|blank\s+(?:tablets?|leaves|pages?|wax|letters?|sheets?)|not a (?:letter|word|mark|scratch|line) on (?:it|them)|nothing (?:written )?on (?:it|them)|the wax (?:is|was) (?:smooth|clean|bare|unmarked)|the wax (?:had|has) been (?:smoothed|scraped|rubbed|wiped)|(?:below|beneath|under|after) (?:that|it|them|the \w+),? there (?:is|was) nothing)\b/i;
/** Writing on a thing: a blank tablet written on before it is handed is blank no more. */
const WRITTEN = /\b(?:writes?|wrote|written|writing|scratch(?:es|ed)?|inscribes?|inscribed|pens|penned)\b/i;
/** How many paragraphs (a line of speech is one) after a handing may show what was handed to be empty, and before it. */
const EMPTY_WITHIN = 6;
const EMPTY_BEFORE = 3;

/**
 * Whether a handing or taking in `s` is undone: taken back (takenBack), or what it passed shown empty
 * soon after, or soon before with no writing between.
 */
function undone(s: ProseSentence, r: Reading): boolean {
  const i = r.sentences.indexOf(s);
  if (takenBack(s, i, r)) return true;
  const after = [...new Set(r.sentences.slice(i).map((t) => t.line))].slice(0, EMPTY_WITHIN + 1);
  // Its own sentence too: "passes the blank tablet under the table to Terentia" (held-out corpus 92, cm11).
  if (r.sentences.some((t, j) => j >= i && after.includes(t.line) && SHOWN_EMPTY.test(t.narr ?? t.text))) return true;
  const before = [...new Set(r.sentences.slice(0, i + 1).map((t) => t.line))].slice(-(EMPTY_BEFORE + 1));
  for (let j = i - 1; j >= 0 && before.includes(r.sentences[j]!.line); j--) {
    const t = r.sentences[j]!;
    const text = t.narr ?? t.text;
    if (SHOWN_EMPTY.test(text)) return true;
    // Writing told, not said or denied ("You have written nothing," she says).
    if (t.kind === 'narration' && WRITTEN.test(text) && !/\b(?:not|nothing|never|no)\b/i.test(text)) return false;
  }
  return false;
}

/** A sentence with no subject that opens on a verb of taking, after an adverb at most: "Just takes it.", "Simply takes them." */
const ECHO = /^\s*(?:(?:just|simply|only|and|then|calmly|quietly|slowly)\s+)?(?:takes?|took|snatch(?:es|ed)?|pulls?|pulled|plucks?|plucked)\b/i;

/** The idiom of a taking: "takes it", "takes them". */
const TAKES_IDIOM = /^takes (?:it|them)\b/i;
/** A narration sentence whose subject is "you" (a speaker's words are blanked out of `narr`). */
const GENERIC_YOU = /^\s*(?:(?:and|but|so|then)\s+)?you\b/i;

/**
 * Where the prose shows a beat planned to fail succeeding: an idiom of success ("the doors give
 * way", "Ostia belongs to Clodius"), a verb of giving way read with its negation and modality
 * (compliance.ts; a thing taken only by the one the beat leaves without it, receiver.ts), or the
 * beat's secret told. Null when the scene has no FAIL beat or shows none.
 */
export function failedBeatShownSucceeding(r: Reading, ctx: VerifyContext): BeatSuccess | null {
  if (!ctx.packet.director_instructions.sequence.some((q) => q.outcome === 'fail')) return null;
  let doubtful: BeatSuccess | null = null;
  // A scene told in the past (tense.ts) shows success in the simple past too.
  const past = r.narration.some((n) => n.past);
  const present = !past && clearlyPresent(r.narration);
  // A narration sentence opening on "you" in a scene not told in the second person is a general truth or a
  // thought ("He had done it a dozen times in the Subura. You gave them the word, and they carried the day
  // for you.": held-out corpus 76, bw05), no deed of the scene.
  const generic = r.narration.filter((n) => GENERIC_YOU.test(n.narr)).length <= 2;
  for (const s of r.sentences) {
    if (s.line <= 0 || s.imagined || (generic && s.kind === 'narration' && GENERIC_YOU.test(s.narr ?? s.text))) continue;
    const said = successIdiom(s.text, s.kind === 'narration' && past);
    // A handing or a taking undone later (taken back, or what it passed shown empty) shows nothing won.
    let idiom = (!!said && !(HANDED_IDIOM.test(said[0]) && undone(s, r))) || ownedByFailingBeat(s, ctx);
    // Narration is read with its quotations blanked: the words said are speech sentences of their own, so
    // "You took them out," she says is no taking in the narration (held-out corpus 9, s12).
    let uses = idiom ? [] : usesIn(s);
    if (!idiom && !uses.length) continue;
    // A scene may carry a beat planned to succeed too: the success goes to its owner (owner.ts).
    const o = failOwner(s, ctx.packet);
    if (!o) continue;
    // "Then Caesar gives in": the beat's own actor giving up is the failure planned (receiver.ts givenUpByActor).
    // "Terentia holds on for a breath, then lets go" (held-out corpus 63, bj04): the one the beat leaves without lets the thing go back.
    const givenUp = said && YIELDING_IDIOM.test(said[0]) && givenUpByActor(s, clauseHead(s.text, said.index), o.app, r, ctx);
    const letGoBack = said && LETS_GO.test(said[0]) && lostBy(s, clauseHead(s.text, said.index), o.app, r, ctx);
    // "Servilia passes a small tablet to Caesar. Caesar takes it" (held-out corpus 52, ay18): a taking is the prize
    // received only by the one the beat leaves without (receiver.ts takenByLoser), as the verb read below is.
    const takenByOther = said && TAKES_IDIOM.test(said[0]) && !takenByLoser(s, clauseHead(s.text, said.index), o.app, r, ctx);
    if ((givenUp || letGoBack || takenByOther) && !ownedByFailingBeat(s, ctx)) {
      idiom = false;
      uses = usesIn(s);
    }
    // Who gets what matters (receiver.ts): the first verb that gives the prize to the one the beat leaves without.
    // In a scene told in the present, a simple past is backstory ("She has seen the case in his lap; she
    // gave it to him.": held-out corpus 63, bj07), as it is for a deed (tense.ts).
    // In one told in the past, its past perfect is backstory ("she had been seen being given it": held-out corpus 71, br04).
    const now = (u: ComplianceUse) =>
      s.kind !== 'narration' || (present ? formTense(u.word) !== 'past' && !HAD_MADE.test(u.before) : !(past && PAST_PERFECT.test(u.before)));
    const use = uses.find((u) => now(u) && wonBy(u, s, o.app, r, ctx) && !(u.kind !== 'yield' && u.kind !== 'follow' && undone(s, r)));
    if (!idiom && !use) continue;
    const verb = use?.verb ?? null;
    const won = { sentence: s, app: o.app, sure: o.sure, how: verb ? `"${verb}"` : 'an idiom of success' };
    if (won.sure) return won;
    doubtful ??= won;
  }
  const told = secretTold(r, ctx);
  if (told) return told;
  // In the operator's own words for success (success-words.ts): a sure reading there outranks a doubtful one here.
  const own = toldInOperatorWords(r, ctx, past, (s) => generic && GENERIC_YOU.test(s.narr ?? s.text));
  return own?.sure ? own : (doubtful ?? own);
}
