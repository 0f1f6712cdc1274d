import type { PacketInstruction } from '../../../domain/packet.js';
import type { VerifyContext } from '../context.js';
import { BoundedMemo } from '../../../core/bounded-memo.js';
import { termsOf, type TaggedTerm as Term } from './parse.js';
import { conjugated, toInfinitive } from './word-transforms.js';
import { clauseAt } from './clauses.js';
import { clauseHead } from './compliance.js';
import { referent } from './speaker.js';
import type { ProseSentence, Reading } from './reader.js';

/**
 * A beat planned to fail told coming off by its fail directive turned over: the directive says what failure looks
 * like, and its opposite in plain English is the success. Two constructions, read from the operator's data:
 * - a restriction, a verb with "only" ("actor hears only fragments"): the same verb with the whole for object ("hears
 *   every word", "overhears the whole of it"), or the restricted noun denied before the whole ("Not fragments — all
 *   of it") is the success;
 * - a collapse, a thing that breaks, stalls or worsens ("the squeeze breaks", "the wound is deeper for having been
 *   reopened"): that thing, or the act the operator is named for ("Corner the market": "the corner"), said to hold,
 *   work or heal ("the corner holds", "the squeeze has worked"), or what lies between the two people said to mend
 *   ("Whatever was broken between them mends").
 * success-words.ts reads the success directive's own words; this reads what those words do not say.
 */
export interface TurnedFailure {
  /** A restricted verb's forms ("hears", "heard", "hear") and the nouns "only" restricted it to ("fragments"). */
  restricted: { forms: string[]; nouns: string[] }[];
  /** Things the fail directive has collapse, and the act's own noun. */
  things: string[];
  /** Whether the act's success pays the actor (its effects: a ledger transfer to the actor), so the actor told rich now is it. */
  enriches: boolean;
}

/** What holding, working or healing is said in: a thing that held is the success ("the corner holds"). */
const HOLDS = String.raw`(?:holds|held|works|worked|succeeds|succeeded|bites|bit|sticks|stuck|pays\s+off|paid\s+off|comes\s+off|came\s+off|goes\s+through|went\s+through|heals|healed|mends|mended)`;
/** Repair only: what lies between two people mending is their quarrel made up. */
const MENDS = String.raw`(?:heals|healed|mends|mended|is\s+mended|is\s+healed|was\s+mended|was\s+healed)`;
/** Two people together: "them", "the two of them", "Cicero and Terentia". */
const TWO = String.raw`(?:them|us|the\s+two(?:\s+of\s+them)?|\p{Lu}\p{L}+\s+and\s+\p{Lu}\p{L}+)`;
/** What is good between two people: its coming back between them is their quarrel made up ("the old warmth is back between them"). */
const GOOD_BETWEEN = String.raw`(?:warmth|peace|love|affection|tenderness|trust|ease|friendship|fondness|kindness|laughter)`;
/** A perfect's "has" stands before these, as before any verb of thingHeld ("has come back", "has returned"). */
const BACK = String.raw`(?:is\s+back|are\s+back|comes\s+back|come\s+back|returns|returned)`;
const BACK_PAST = String.raw`(?:was\s+back|were\s+back|came\s+back|returned)`;
/** The whole of what is heard or had: "every word", "all of it", "the whole of it", "everything". */
const WHOLE = /\b(?:every(?!\s+(?:other|few|second|third|now))|all|whole|everything|entire|each)\b/i;
/** A part, a doubt, a hedge or a wish between the verb and the whole: "hears only part of every sentence". */
const PARTIAL = /\b(?:only|just|barely|scarcely|hardly|half|part|some|none|not|never|nothing|almost|nearly|but|except)\b/i;
/** Denied, hedged, wished, planned or only possible up to the verb ("if the corner holds", "he prays the squeeze holds"). */
const NOT_DONE = /\b(?:not|never|no|nothing|nobody|no one|cannot|can't|won't|doesn't|don't|didn't|nearly|almost|seems|as if|as though|would|could|might|will|shall|should|must|if|unless|whether|hopes?|hoped|wish(?:es)?|wished|prays?|prayed|wants?|wanted|plans?|planned|means?|meant|expects?|expected|tries|tried|trying|until|before)\b|\w['’](?:ll|d)\b|\?/i;
/** A turn after the verb: the attempt, then what undid it ("the corner holds for an hour, until a ship comes in"). */
const TURN = /\b(?:but|yet|only to|until|till|except|though|although|for a moment|for now|for an hour|for a day)\b/i;
/** Between a thing and its verb: adverbs, "now", "still", a perfect's "has". */
const TO_VERB = String.raw`\s+(?:(?:now|still|at\s+last|finally|indeed|\p{L}+ly|has|have)\s+)*`;

const esc = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const infinitive = (t: Term): string => ['PastTense', 'PresentTense', 'Gerund', 'Participle'].map((g) => (t.tags.includes(g) ? toInfinitive(t.normal, g) : undefined)).find((v) => v) ?? t.normal;

/** A verb's finite and perfect forms, and the bare one: "hears", "heard", "hear". */
function formsOf(verb: string): string[] {
  const c = conjugated(verb);
  return [...new Set([c.PresentTense, c.PastTense, c.Participle, c.Infinitive ?? verb].filter((w): w is string => !!w))];
}

/** A verb, "only" or "just", and the noun it is restricted to, past a determiner ("hears only fragments", "gets only a few names"). */
const RESTRICTED = /\b(\p{L}+)\s+(?:only|just|merely)\s+(?:(?:a\s+few|a|an|the|some|half\s+a)\s+)?(\p{L}{3,})/giu;
/**
 * A thing after a determiner or a possessive, then a verb or comparative of coming apart or getting worse, with
 * "is", "has been" or an adverb between: "the squeeze breaks", "the wound is deeper". General English; compromise
 * tags "breaks" after a noun as a plural noun, so the forms are read as words.
 */
const COLLAPSING = /\b(?:the|a|an|its|his|her|their|\p{L}+['’]s)\s+(\p{L}{3,})\s+(?:(?:is|are|was|were|has|have|had|been|\p{L}+ly)\s+)*(?:(?:break|broke|broken|fail|collapse|crumble|stall|crack|sour|split|founder|reopen|deepen|worsen|widen|falter|unravel|shatter)(?:s|es|d|ed|led)?|deeper|worse|wider)\b/giu;

/** The restrictions of a fail text, where compromise reads the word before "only" as a verb. */
function restrictionsIn(text: string): TurnedFailure['restricted'] {
  const out: TurnedFailure['restricted'] = [];
  for (const m of text.matchAll(RESTRICTED)) {
    const verb = termsOf(m[1]!)[0];
    if (verb?.tags.includes('Verb')) out.push({ forms: formsOf(infinitive(verb)), nouns: [m[2]!.toLowerCase().replace(/s$/, '')] });
  }
  return out;
}

/** The things a fail text has come apart or get worse, no person nor a word that is no noun. */
function collapsingIn(text: string): string[] {
  return [...text.matchAll(COLLAPSING)].map((m) => m[1]!).filter((w) => !termsOf(w)[0]?.tags.some((g) => /^(?:ProperNoun|Pronoun|Person|Determiner|Adverb|Adjective|Preposition)$/.test(g))).map((w) => w.toLowerCase().replace(/s$/, ''));
}

/** Prepositions compromise may tag a noun at the head of a name ("Behind the curtain"): no act. */
const PREPOSITION = /^(?:about|above|across|after|against|along|among|around|before|behind|below|beneath|beside|between|beyond|inside|into|outside|over|through|toward|towards|under|upon|within|without)$/;

const memo = new BoundedMemo<string, TurnedFailure>(500);

/** The turned-over failure of a beat: its fail directive (the world's and the beat's own) and the act's name. */
export function turnedFailure(app: PacketInstruction, ctx: VerifyContext): TurnedFailure {
  const op = ctx.operators?.find((o) => o.id === app.operator_id);
  const fail = `${op?.fail ?? ''}. ${app.outcome === 'fail' ? app.narrative_directive : ''}`;
  return memo.get(`${app.operator_id}\u0001${app.operator_name}\u0001${fail}`, () => {
    // The act's own noun: the first word of its name, unless a preposition ("Corner the market" → "corner"; "Behind the curtain": none).
    const head = termsOf(app.operator_name).find((t) => /^\p{L}{4,}$/u.test(t.normal));
    const act = head && !PREPOSITION.test(head.normal) && (head.tags.includes('Noun') || head.tags.includes('Verb')) ? head : undefined;
    const things = [...new Set([...collapsingIn(fail), ...(act ? [act.normal] : [])])];
    return { restricted: restrictionsIn(fail), things, enriches: !!op?.enriches };
  });
}

/** Whether the words before `at` in its clause hold it off (denied, hedged, wished), or a turn after it. */
function heldOff(narr: string, at: number, end: number): boolean {
  const clause = clauseAt(narr, at);
  return NOT_DONE.test(narr.slice(clause.start, at)) || TURN.test(narr.slice(end));
}

/** A restricted verb with the whole for object, done by the beat's actor: "Caesar … hears every word of it". */
function wholeHeard(s: ProseSentence, i: number, tf: TurnedFailure, app: PacketInstruction, r: Reading, ctx: VerifyContext, past: boolean): number | null {
  const narr = s.narr ?? s.text;
  for (const { forms, nouns } of tf.restricted) {
    // The verb prefixed ("overhears") says the same.
    const verb = new RegExp(String.raw`\b(?:over)?(${forms.map(esc).join('|')})\b`, 'giu');
    for (const m of narr.matchAll(verb)) {
      const end = m.index! + m[0].length;
      // A scene told in the present tells its now in the present or a perfect ("he heard it all last year" is memory).
      // "strains to hear every word" is the attempt.
      if (/\bto\s+$/i.test(narr.slice(0, m.index!))) continue;
      if (!past && m[1]!.toLowerCase() !== forms[0] && m[1]!.toLowerCase() !== forms.at(-1) && !/\b(?:has|have)\s+(?:\p{L}+ly\s+)?$/iu.test(narr.slice(0, m.index!))) continue;
      const rest = clauseAt(narr, m.index!);
      const object = narr.slice(end, rest.start + rest.text.length);
      const whole = WHOLE.exec(object);
      if (!whole || PARTIAL.test(object.slice(0, whole.index)) || heldOff(narr, m.index!, end + whole.index)) continue;
      if (doer(s, i, m.index!, r, ctx) === app.bindings.actor) return m.index!;
    }
    // "Not fragments — all of it": the restricted noun denied before the whole.
    // Only in a paragraph that tells the verb done.
    const told = r.sentences.some((t) => t.line === s.line && t.kind === 'narration' && new RegExp(verb.source, 'iu').test(t.narr ?? t.text));
    const denied = new RegExp(String.raw`\bnot\s+(?:(?:just|only|mere|merely|a\s+few|some)\s+)?(?:${nouns.map(esc).join('|')})s?\b`, 'iu').exec(narr);
    if (told && denied && WHOLE.test(narr.slice(denied.index + denied[0].length)) && !/\b(?:if|would|could|might|wants?|wish(?:es)?|hopes?)\b|\?/i.test(narr)) return denied.index;
  }
  return null;
}

/** Who does the verb at `at`: the last person named before it in its sentence, or whom its "he" or "she" means. */
function doer(s: ProseSentence, i: number, at: number, r: Reading, ctx: VerifyContext): string | null {
  const named = s.mentions.filter((m) => m.end <= at).at(-1);
  if (named) return named.id;
  const pronoun = /\b(he|she)\b/i.exec((s.narr ?? s.text).slice(0, at));
  return pronoun ? referent(r, i, pronoun[1]!, ctx) : null;
}

/** The thing that broke in the fail directive, or the act itself, said to hold; or what lies between two people mended. */
function thingHeld(narr: string, tf: TurnedFailure, past: boolean): number | null {
  const things = tf.things.length ? String.raw`\b(?:${tf.things.map(esc).join('|')})(?:e?s)?` : null;
  const res = [
    ...(things ? [new RegExp(String.raw`${things}${TO_VERB}(${HOLDS})\b`, 'giu')] : []),
    new RegExp(String.raw`\bbetween\s+${TWO}${TO_VERB}(${MENDS})\b`, 'giu'),
    new RegExp(String.raw`\b${GOOD_BETWEEN}${TO_VERB}(${past ? BACK_PAST : BACK})(?=\s+(?:between|to)\s+${TWO})`, 'giu'),
  ];
  for (const re of res) {
    for (const m of narr.matchAll(re)) {
      const at = m.index! + m[0].length - m[1]!.length;
      // A simple past in a scene told in the present is an earlier time ("the corner held last year"); a perfect is now.
      if (!past && /ed$|^(?:held|bit|stuck|paid\s+off|came\s+off|went\s+through)$/i.test(m[1]!) && !/\b(?:has|have)\s+$/i.test(clauseHead(narr, at).slice(-12))) continue;
      if (past && /\bhad\s+$/i.test(narr.slice(0, at))) continue;
      if (!heldOff(narr, at, at + m[1]!.length)) return at;
    }
  }
  return null;
}

/**
 * The actor told made rich by now: a fortune made ("has made his fortune", in a scene told in the past "made a
 * fortune"), rich now ("is rich now", "is now a rich man"), a purse or strongbox full. A fortune made long ago is a
 * simple or past perfect ("made his fortune in Asia", "had made his fortune"), and "rich" alone is what a man may always
 * have been ("Crassus is rich"): neither counts.
 */
function enrichedNow(s: ProseSentence, i: number, app: PacketInstruction, r: Reading, ctx: VerifyContext, past: boolean): number | null {
  const narr = s.narr ?? s.text;
  const be = past ? String.raw`(?:was|were)` : String.raw`(?:is|are|has\s+been|have\s+been)`;
  const made = past ? String.raw`(?<!\bhad\s+(?:\p{L}+ly\s+)?)made` : String.raw`(?:has|have)\s+(?:now\s+|\p{L}+ly\s+)?made`;
  const re = new RegExp(
    String.raw`\b(?:${made}\s+(?:his|her|their|a|an)\s+(?:own\s+|\p{L}+\s+)?fortunes?|${be}\s+(?:now\s+(?:a\s+)?rich(?:er)?|(?:a\s+)?rich(?:er)?\s+(?:(?:man|woman)\s+)?now)|(?:his|her|their)\s+(?:purses?|coffers|strongbox(?:es)?|money-?chests?)\s+${be}\s+(?:now\s+)?(?:full|fat|heavy|bulging|overflowing))`,
    'giu',
  );
  for (const m of narr.matchAll(re)) {
    const end = m.index! + m[0].length;
    if (heldOff(narr, m.index!, end)) continue;
    // "his purse is full" is his whose the "his" is: the last person named before it, or the one "he" stands for.
    const owner = /^(his|her)\b/i.exec(m[0]);
    const who = s.mentions.some((x) => x.end <= m.index!) || !owner ? doer(s, i, m.index!, r, ctx) : referent(r, i, owner[1]!.toLowerCase() === 'his' ? 'he' : 'she', ctx);
    if (who === app.bindings.actor) return m.index!;
  }
  return null;
}

/**
 * The first narration sentence that tells the beat's failure turned over (wholeHeard, thingHeld), with no later one
 * telling the failure after all (`failsLater`: the fail directive's own words, success-words.ts showsFailure).
 */
export function failureTurnedIn(r: Reading, app: PacketInstruction, ctx: VerifyContext, past: boolean, skip: (s: ProseSentence) => boolean, failsLater: (i: number) => boolean): ProseSentence | null {
  const tf = turnedFailure(app, ctx);
  if (!tf.restricted.length && !tf.things.length && !tf.enriches) return null;
  for (let i = 0; i < r.sentences.length; i++) {
    const s = r.sentences[i]!;
    if (s.line <= 0 || s.imagined || s.kind !== 'narration' || skip(s)) continue;
    const narr = s.narr ?? s.text;
    if ((wholeHeard(s, i, tf, app, r, ctx, past) ?? thingHeld(narr, tf, past) ?? (tf.enriches ? enrichedNow(s, i, app, r, ctx, past) : null)) !== null && !failsLater(i)) return s;
  }
  return null;
}
