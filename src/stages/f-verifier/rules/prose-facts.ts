import type { Finding } from '../../../domain/scene.js';
import { finding, type VerifyContext } from '../context.js';
import type { ProseSentence, Reading } from '../prose/reader.js';
import { canonStatements, sentenceBefore } from '../prose/canon.js';
import { likelyGender } from '../prose/gender.js';
import { couldMatchBound, factMatch, passageBound, quotedFact, roughSignature, signature, type FactSignature, type PassageBound } from '../prose/facts.js';
import { namesPeopleOf, predicateSaid, toldOfAnother } from '../prose/fact-subject.js';
import { spanOf } from '../prose/span.js';
import { sentencesOf } from '../prose/parse.js';
import { answeredExchanges, statementOf, type Exchange } from '../prose/exchange.js';
import { deniedByNext, deniesFact } from '../prose/denial.js';

/**
 * A report by a group: "The women at the fountain say", "the wine shops say", "the washerwomen … swear", "Men in the
 * cook-shops say" (held-out play set 1, pe06: a hyphened place).
 */
const GROUP_REPORT = String.raw`(?:\w*(?:women|men)|people|everyone|everybody|(?:the|some|all the|half the)\s+(?:[a-z]+\s+)?[a-z]+s)(?:\s+(?:at|in|on|of|by|from|around|about)\s+(?:the\s+|this\s+|that\s+)?[\w'’-]+){0,2}\s+(?:say|said|are saying|were saying|swear|swore|will swear|insist|insisted)`;
/** A witness to be had, found or bought who will swear it: "I'll have a man in the Forum swearing that" (held-out corpus 47, at13). */
const WITNESS_TO_ORDER = String.raw`(?:have|get|find|pay|buy|hire|bring)\s+(?:a|an|some|two|three|four|a few|a dozen|ten|twenty)\s+(?:[\w'’]+\s+){0,4}?(?:swearing|to swear|who will swear|who['’]ll swear|to testify|testifying)`;
/** A word to be put about on someone's order: "I could have it chalked on every wall … that" (held-out corpus 59, bf13). */
/** Verbs of writing on a wall or a step. */
const WALL_WRITING = String.raw`(?:chalked|scrawled|daubed|scratched|painted|written)`;
const SPREAD_TO_ORDER = String.raw`(?:have|get|had|got)\s+it\s+(?:${WALL_WRITING}|cried|whispered|put about|spread|noised about|shouted)`;
const HEARSAY_WORDS = [
  'rumou?rs?',
  '(?:they|men|people|some|others) (?:say|said|will tell you|would tell you)',
  GROUP_REPORT,
  '(?:story|stories|tales?|talk) (?:going|goes|went|that went) (?:round|around|about)',
  'there (?:is|was|are|were) (?:a |the )?(?:story|stories|tale|tales)',
  // A story had, heard or told and passed on ("the bakers … had a story this morning, and Fulvia repeated it …: the grain
  // lost off Sardinia had never been lost at all": held-out corpus 123, dr12): what it says is the story's.
  '(?:had|has|have|heard|hears|brought|brings|told|tells) (?:a|the|their|this|that|his|her) (?:new |fresh |whole |same |old )?(?:story|tale)',
  "(?:do|does|did) not believe|don['’]t believe|(?:nobody|no one) believes",
  'I hear',
  // A chorus's talk and guesses ("We guess, as the whole quay guesses, that the grain …", "the kitchen has it that …", "were
  // telling each other that …": held-out corpus 125, dt12).
  '(?:guess|guesses|guessed|guessing)',
  '(?:has|had|have) it that',
  '(?:telling|told|tell) each other',
  // The speaker's own word of hearing ("and I am told the 'lost' cargo lies in warehouses at Puteoli": held-out play set 2, pf16).
  'I (?:am|was|have been|had been) told',
  '(?:is|was|were|are) (?:being )?(?:said|whispered)',
  '(?:are|were) saying',
  // What would be said or sworn later, not what the scene states ("Long afterwards the fishwives would swear at every
  // well that…", "Much later it would be said in every bread queue that…": held-out corpus 118, dm13).
  // Only a word of time between: "a Subura girl would blush to say aloud" tells nothing of later talk (held-out corpus 65, bl18).
  '(?:would|was to|were to)\\s+(?:(?:later|afterwards|one day|in time|often|always|still)\\s+)?(?:swear|say|whisper|claim|insist|tell|be (?:said|whispered|told|claimed|sworn))',
  '(?:talk|gossip|whispers?|whispering) (?:of|in|about|that)',
  // Talk going on for a while, as a rumour does ("as the wine-shops of the Subura have been whispering all summer":
  // held-out corpus 122, dq13).
  '(?:has|have|had) been (?:whispering|muttering|saying)',
  // What a place whispered, and a teller who does not know whether it is true ("the one the Subura whispered about some
  // woman … who carries pillow talk to the consul's wife, except that he had no idea whether there was a word of truth
  // in it": held-out corpus 88, ci13).
  'whispered (?:about|of|that)',
  // Hearsay passed from hand to hand ("My cook had it from a fishwife, who had it from a boatman …, that Varo paid …":
  // held-out corpus 94, co13).
  '(?:had|has|got|gets|heard) it from',
  "(?:no idea|(?:do|does|did) not know|(?:don|doesn|didn)['’]t know|not sure) (?:whether|if)",
  'gossip|perhaps|maybe|if',
  // A writing on a wall by no one known, like a rumour ("Someone has chalked on the lowest step in the night that…": held-out
  // corpus 63, bj13; "a thing painted on the wall of the baths …, that says…": 75, bv13; a slander feared, "Tomorrow someone
  // will chalk on the Rostra that …": 93, cn13). Chalked by a named person, it is theirs.
  String.raw`(?:someone|somebody|some hand|an unknown hand|an anonymous hand)\s+(?:(?:has|had|will|would|may|might)\s+)?(?:chalk|scrawl|daub|paint|write|${WALL_WRITING})|(?:thing|things|words?|something|slogans?|letters|writing|it|is|are|was|were|been|freshly|newly)\s+(?:been\s+)?${WALL_WRITING}\s+(?:up\s+)?(?:on|across|over)\b`,
  // A dare: the fact put to be told, and the telling's outcome to be watched ("Tell them Murena's vote-brokers were paid …,
  // and see who laughs first.": held-out corpus 54, ba13).
  String.raw`(?:tell|say to)\s+(?:them|him|her|the\s+\w+)\b[^.!?]*\band\s+(?:then\s+)?(?:see|watch)\s+(?:who|what|how|whether|if)`,
  // A case put ("Suppose a man came to you and said that…": held-out corpus 52, ay13), not an opinion ("I suppose he has reason").
  String.raw`(?<!\b(?:I|we|you|they|he|she|one|do|does|did)\s+)suppos(?:e|ing)`,
  String.raw`(?:ask|asks|asked|asking|wonder|wonders|wondered|wondering)\s+(?:\w+\s+)?whether`,
  WITNESS_TO_ORDER,
  SPREAD_TO_ORDER,
];
/**
 * A telling refused in words: "I will not tell you that…", "never say whether", with a vocative between commas
 * ("I will not tell you, Conscript Fathers, that there are men…": held-out corpus 65, bl13).
 */
const REFUSED_TELLING = String.raw`\b(?:not|never)\s+(?:\w+\s+){0,2}(?:tell|say|claim|swear|suggest)(?:\s+\w+)?(?:\s*,[^,.;:!?]{1,40},)?\s+(?:that|whether)\b`;
/**
 * Hearsay and doubt around a fact: it is not stated as fact (soft). Told in the past too, and as
 * talk or gossip ("There was talk in the Subura of letters that…": held-out corpus 11, q13), and a
 * telling refused in words (a praeteritio, "I will not tell you that…": held-out corpus 8, t08); a
 * group's report ("The women at the fountain say…", "The washerwomen at the Juturna swear…", "The
 * bakers in this street say…", "The wine shops say…": held-out corpora 33, af13, 36, ai13, and 39,
 * al13; any plural after "the", one word between), a story going round, and a speaker's disbelief
 * ("…, and I do not believe a word of it": held-out corpora 30, ac13, and 31, ad13), and the oath of a
 * witness to be had or bought (WITNESS_TO_ORDER).
 */
const HEARSAY = new RegExp(String.raw`\b(?:${HEARSAY_WORDS.join('|')})\b|\?|${REFUSED_TELLING}`, 'i');

/**
 * Whether a sentence hedges a fact: a word of hearsay or doubt in it that the fact's own text does not
 * hold. A fact that has its own "if" ("if Caesar loses the priesthood his creditors will take
 * everything") is stated, not hedged, by a sentence that repeats that "if" (held-out corpora 10, r18,
 * and 11, q18).
 */
function hedged(text: string, fact: string): boolean {
  const own = new Set([...fact.matchAll(HEARSAY_ALL)].map((m) => m[0].toLowerCase()));
  return [...text.matchAll(HEARSAY_ALL)].some((m) => !own.has(m[0].toLowerCase()) && !contact(text, m.index!, m[0].length) && !DENIED.test(text.slice(0, m.index)));
}

/** Whether a passage states the fact as fact: neither hedged (as rumour, doubt, a question) nor denied (denial.ts). */
const asFact = (text: string, sig: FactSignature, r: Reading): boolean => !hedged(text, sig.text) && !deniesFact(text, sig, r.index);

/** A word of hearsay denied ("is not a rumour but the plan", "This is no rumour": held-out corpus 49, av18) hedges nothing. */
const DENIED = /\b(?:not|no|never)\s+(?:(?:a|an|mere|merely|just|idle|only)\s+)*$/i;

/**
 * Hearsay in a contact clause after a noun ("The grain they say was lost off Sardinia is sitting in
 * Varo's warehouses": held-out corpus 19, f18) hedges only that clause, not the sentence it is in.
 */
function contact(text: string, at: number, length: number): boolean {
  return /\b(?:the|a|an|that|this|those|these|his|her|their)\s+(?:[\p{L}'’-]+\s+){1,3}$/iu.test(text.slice(0, at)) && /^\s+(?:was|were|is|are|had|has|have|\p{L}+ed)\b/iu.test(text.slice(at + length));
}
const HEARSAY_ALL = new RegExp(HEARSAY.source, 'gi');

/**
 * A sentence with the frame it is under: one that opens on "That" ('The women at the ovens are
 * saying the ships never sank. That the grain is sitting in some warehouse…': held-out corpus 18,
 * g10) goes on reporting what the sentence before it reports.
 */
function framed(ss: readonly ProseSentence[], i: number): string {
  const s = ss[i]!;
  // The sentence before of the same kind: a quotation's speech sentences follow their narration one.
  const prev = ss.slice(0, i).findLast((x) => x.kind === s.kind);
  return prev && /^[\W_]*that\b/i.test(s.text) ? `${prev.text} ${s.text}` : s.text;
}

/**
 * A sentence holding a quotation, without what its narration goes on to tell after the tag's own clause: in '"…,"
 * Terentia said, and watched him to see if he would pretend to be shocked' (held-out corpus 110, de18) the "if" is
 * a doubt of what he will do, not of what she said. A tag's own words ("she said, not believing it") still count.
 */
function tagClauseOnly(text: string): string {
  const close = Math.max(text.lastIndexOf('"'), text.lastIndexOf('”'));
  if (close <= 0) return text;
  const after = text.slice(close + 1);
  const cut = after.search(/,\s+(?:and|then|but)\s|;|\s[—–]\s/);
  return cut < 0 ? text : text.slice(0, close + 1) + after.slice(0, cut);
}

/**
 * A quotation's own questions that say nothing of the fact hedge none of its other sentences: "You want
 * something to bring me? Then listen, … The grain they say was lost off Sardinia is sitting in Varo's
 * warehouses…" states the fact (held-out corpus 28, aa18; the narration sentence holds the whole quotation), and so does
 * one with a question closing it ("Our hostess writes to Caesar in words no matron should put on a tablet …
 * Do you imagine there is anything about you I do not know?": held-out corpus 71, br18). Nor does a later
 * sentence's "if" on something else (otherCondition).
 */
function withoutOtherHedges(text: string, sig: FactSignature, r: Reading): string {
  const asks = /\S[^?]*[.!;:]["”]?\s+[^?]*\?|\?["”]?\s+\S/.test(text);
  if (!asks && !CONDITION_AFTER.test(text) && !TALK_AFTER.test(text)) return text;
  // Split without the quotation marks: the splitter keeps a quotation whole.
  const ss = sentencesOf(text.replace(/["“”]/g, ''));
  const tells = ss.map((t) => scoreOf(t, sig, r) > 0);
  const first = tells.indexOf(true);
  return ss.filter((t, i) => tells[i] || !(/\?\s*$/.test(t) || (first >= 0 && i > first && (otherCondition(t) || otherTalk(t))))).join(' ');
}

/**
 * A later sentence of the quotation that tells of talk in general ("He does not need a grain merchant to tell him what is
 * said in Rome.": held-out corpus 102, cw18) hedges nothing said before it; one that looks back ("Or so they say.",
 * "So the rumour goes.") still hedges it.
 */
const TALK_AFTER = new RegExp(String.raw`[.!;]["”]?\s+[^.!?]*(?:${HEARSAY.source})`, 'i');
const LOOKS_BACK = /\b(?:it|this|that|so|which|such|the (?:story|rumou?r|tale|talk)s?)\b/i;
const otherTalk = (sentence: string): boolean => HEARSAY.test(sentence) && !LOOKS_BACK.test(sentence);

/**
 * A later sentence of the quotation with an "if" on something else ("Go and charge them, if you can find any still
 * alive.": held-out corpus 64, bk18) conditions that sentence, not the fact stated before it; one that looks back
 * ("if it is true", "if so") or holds another hedge still hedges it.
 */
const CONDITION_AFTER = /[.!;]["”]?\s+[^.!?]*\bif\b/i;
function otherCondition(sentence: string): boolean {
  const bare = sentence.replace(/\bif\b/gi, '');
  return /\bif\b/i.test(sentence) && !/\bif\s+(?:it|that|this|so|true|any of it|a word of it|the (?:story|rumou?r|tale)s?)\b/i.test(sentence) && !HEARSAY.test(bare);
}

function scoreOf(text: string, sig: FactSignature, r: Reading): number {
  const m = factMatch(text, sig, r.index);
  return m ? 1.5 * m.entities + m.roots : 0;
}

/** Of two adjacent sentences matching together, the one that says more of the fact (the later on a tie). */
function strongerOf(ss: ProseSentence[], i: number, sig: FactSignature, r: Reading): number {
  return scoreOf(ss[i].text, sig, r) > scoreOf(ss[i + 1].text, sig, r) ? i : i + 1;
}

/**
 * The best window (one sentence, or two adjacent ones) of the scene for one fact, by match score,
 * but for those `skip` says do not tell it.
 */
function bestWindow(ss: ProseSentence[], sig: FactSignature, r: Reading, skip: (window: string, i: number) => boolean): { i: number; score: number } | null {
  let best: { i: number; score: number } | null = null;
  for (let i = 0; i < ss.length; i++) {
    const next = ss[i + 1];
    // Claims' and events' texts (line 0) are each their own: no window joins two of them (held-out corpus 20, e08).
    const windows = [ss[i].text, ...(next && ss[i].line > 0 && next.line > 0 && Math.abs(next.line - ss[i].line) <= 2 ? [`${ss[i].text}\u2063${next.text}`] : [])];
    for (const w of windows) {
      const score = scoreOf(w, sig, r);
      if (score > 0 && (!best || score > best.score) && !skip(w, i)) best = { i: w === ss[i].text ? i : strongerOf(ss, i, sig, r), score };
    }
  }
  return best;
}

/**
 * Whether a window that names none of a fact's people says only what another fact of the packet says
 * too (every root it shares with this one is that fact's as well). Worlds template their secrets ("X
 * forged a codicil to a kinsman's will" for many X): the predicate alone singles out no one, and a
 * line that tells it of the man it names ("You skimmed the grain money, Murena") is not the same
 * predicate's fact about each other man. A fact whose predicate is its own still matches unnamed.
 */
function sharedPredicate(window: string, sig: FactSignature, r: Reading, peers: () => FactSignature[]): boolean {
  if (namesPeopleOf(window, sig, r.index)) return false;
  const said = predicateSaid(window, sig, r.index);
  return peers().some((p) => p.text !== sig.text && said.every((x) => p.roots.has(x) || p.entities.has(x)));
}

/** The bounds of a reading's sentences and pairs of adjacent sentences, read once for all its forbidden facts. */
const bounds = new WeakMap<Reading, PassageBound[]>();

function passagesOf(r: Reading): PassageBound[] {
  let hit = bounds.get(r);
  if (!hit) {
    const ss = r.sentences;
    hit = ss.flatMap((s, i) => [passageBound(s.text, r.index), ...(i + 1 < ss.length ? [passageBound(`${s.text}\u2063${ss[i + 1].text}`, r.index)] : [])]);
    // And each answered question with its answer (toldInExchange).
    for (const x of exchanges(r)) hit.push(passageBound(x.window, r.index));
    bounds.set(r, hit);
  }
  return hit;
}

/** Whether any sentence, pair of adjacent sentences or answered exchange could match a fact whose roots lie within the rough signature's. */
function mayBeTold(r: Reading, rough: FactSignature): boolean {
  return passagesOf(r).some((b) => couldMatchBound(b, rough));
}

/**
 * A fact's signature without the words of the scene's own setting (its place, hour and atmosphere):
 * a scene at a camp of cooking fires at morning says "fires", "town" and "morning" in every other
 * line, and those words are the packet's own, not evidence of a leak. The people stay: a fact about
 * the house's owner is still told by naming them.
 */
function offSetting(sig: FactSignature, pk: VerifyContext['packet'], r: Reading): FactSignature {
  const st = pk.setting;
  const here = signature(`${st.location_name}. ${st.time_of_day}. ${st.atmosphere ?? ''}`, r.index);
  return { text: sig.text, entities: sig.entities, roots: new Set([...sig.roots].filter((x) => !here.roots.has(x))) };
}

/** A packet's forbidden facts said in the prose, paraphrased or not, in one sentence or two adjacent ones (AUR5046). */
export function proseForbiddenRules(r: Reading, ctx: VerifyContext): Finding[] {
  const pk = ctx.packet;
  const out: Finding[] = [];
  const texts = pk.constraints.forbidden_facts.map(quotedFact).filter((f): f is string => !!f);
  const facts = new Set(texts);
  // Secrets this scene may tell (the cast holds them, or a beat reveals them): a sentence that tells one of those is not a leak of a neighbour.
  const cast = new Set(pk.cast.map((c) => c.id));
  const told = new Set(pk.director_instructions.sequence.map((q) => q.bindings.secret).filter(Boolean));
  let allowed: FactSignature[] | undefined;
  let peers: FactSignature[] | undefined;
  // Every fact of the packet, forbidden or a secret of its subgraph, read only when a window names none of a fact's people.
  const peersOf = () => (peers ??= [...new Set([...texts, ...pk.retrieved_subgraph.secrets.map((x) => x.text)])].map((t) => signature(t, r.index)));
  for (const text of texts) {
    // Most facts share too little with every sentence to match any (facts.ts couldMatch): such a fact
    // is not tagged, or its tagged roots rule it out before the setting is tagged to take its words off.
    if (!mayBeTold(r, roughSignature(text, r.index))) continue;
    const full = signature(text, r.index);
    if (!mayBeTold(r, full)) continue;
    const sig = offSetting(full, pk, r);
    const skip = (w: string) => toldOfAnother(w, sig, r.index) || sharedPredicate(w, sig, r, peersOf);
    // A sentence the next one denies bare ("… They are not."): denied as a one-sentence denial is (denial.ts).
    const isSure = (w: { i: number; score: number }) => w.score >= 5 && !deniedByNext(r.sentences, w.i) && asFact(withoutOtherHedges(tagClauseOnly(framed(r.sentences, w.i)), sig, r), sig, r);
    // A window that only denies the fact is read last: the fact told plainly elsewhere is found first (denial.ts).
    const denied = (w: string, i: number) => w.split('\u2063').some((t) => deniesFact(t, sig, r.index)) || deniedByNext(r.sentences, i) || (w.includes('\u2063') && deniedByNext(r.sentences, i + 1));
    const open = bestWindow(r.sentences, sig, r, (w, i) => skip(w) || denied(w, i));
    const b = open && isSure(open) ? open : bestWindow(r.sentences, sig, r, skip);
    allowed ??= pk.retrieved_subgraph.secrets.filter((x) => !facts.has(x.text) && (told.has(x.id) || x.holders.some((h) => cast.has(h)))).map((x) => signature(x.text, r.index));
    const s = b ? r.sentences[b.i]! : null;
    if (b && s && allowed.some((a) => scoreOf(s.text, a, r) > scoreOf(s.text, sig, r))) continue;
    const sure = !!b && !!s && isSure(b);
    // Not sure in one or two sentences, but told as fact across a question answered in dialogue (exchange.ts).
    const x = sure ? null : toldInExchange(r, sig, skip, allowed);
    const at = x !== null ? r.sentences[x]! : s;
    if (at) out.push(finding('AUR5046', sure || x !== null ? 'hard' : 'soft', pk.scene_id, 'prose.forbidden_fact', { fact: sig.text }, spanOf(at)));
  }
  return out;
}

const exchangesOf = new WeakMap<Reading, Exchange[]>();

/** The reading's short question-and-answer exchanges (exchange.ts), read once for all its forbidden facts. */
function exchanges(r: Reading): Exchange[] {
  let xs = exchangesOf.get(r);
  if (!xs) {
    // Who speaks a line, where the scene says: its cue, or its said-tag's name.
    const tagged = new Map(r.narration.flatMap((n) => (n.said ? [[n.line, `@${n.said.id}`] as const] : [])));
    exchangesOf.set(r, (xs = answeredExchanges(r.sentences, (line) => r.cues.get(line) ?? tagged.get(line))));
  }
  return xs;
}

/**
 * The sentence to point at of a short exchange of the dialogue that tells the fact as fact (exchange.ts: an
 * answered question read with its answer), or null. Judged as a window is: the match's score, the hedges of
 * the exchange read as statements, a secret this scene may tell that it says more of.
 */
function toldInExchange(r: Reading, sig: FactSignature, skip: (w: string) => boolean, allowed: FactSignature[]): number | null {
  for (const x of exchanges(r)) {
    const score = scoreOf(x.window, sig, r);
    if (score < 5 || skip(x.window) || allowed.some((a) => scoreOf(x.window, a, r) > score)) continue;
    // An open question carries into an answer that supplies some of the fact ("Crassus."), not into a retort.
    const carried = x.pairs.filter((p) => !p.open || p.answer.some((i) => namesPeopleOf(r.sentences[i]!.text, sig, r.index) || predicateSaid(r.sentences[i]!.text, sig, r.index).length > 0));
    if (!carried.length || !asFact(withoutOtherHedges(statementOf(r.sentences, x, carried), sig, r), sig, r)) continue;
    // The answer that says most: the exchange's statement is in its answers (a question's words complete them).
    const said = x.sentences.filter((i) => !/\?[\s"”'’)\]]*$/.test(r.sentences[i]!.text));
    return said.reduce((best, i) => (scoreOf(r.sentences[i]!.text, sig, r) > scoreOf(r.sentences[best]!.text, sig, r) ? i : best), said[0]!);
  }
  return null;
}

function planned(ctx: VerifyContext, id: string): boolean {
  return ctx.packet.constraints.required_deltas.some((d) => d.path === `characters.${id}.status`);
}

/** Life, death and party as the prose states them, against the packet (AUR5047). */
export function proseCanonRules(r: Reading, ctx: VerifyContext): Finding[] {
  const pk = ctx.packet;
  const out: Finding[] = [];
  const seen = new Set<string>();
  for (const [i, s] of (r.sentences as ProseSentence[]).entries()) {
    // A narration sentence's names were found with its quotations blanked (reader.ts), so it is read
    // so: with the quotation in place, '"Nobody has died." Crassus opens…' put "died" right before
    // Crassus (held-out corpus 30, ac03). What the quotation says is a speech sentence of its own.
    for (const st of canonStatements(s.narr ?? s.text, s.mentions, r.index, (id) => likelyGender(id, r.index, ctx), sentenceBefore(r.sentences, i))) {
      const p = r.index.byId.get(st.id);
      if (!p || planned(ctx, st.id)) continue;
      let detail = '';
      if (st.says === 'dead' && !p.dead) detail = `${p.name} is alive, not dead`;
      else if (st.says === 'alive' && p.dead) detail = `${p.name} is dead`;
      else if (st.says === 'faction' && p.faction && st.faction !== p.faction.toLowerCase()) detail = `${p.name} is of the ${p.faction}, not the ${st.faction}`;
      if (!detail || seen.has(detail)) continue;
      seen.add(detail);
      out.push(finding('AUR5047', st.hedged ? 'soft' : 'hard', pk.scene_id, 'prose.canon', { detail }, spanOf(s)));
    }
  }
  return out;
}
