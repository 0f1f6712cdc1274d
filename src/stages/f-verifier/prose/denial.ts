import { clauseAt } from './clauses.js';
import { factMatch, signature, type FactSignature } from './facts.js';
import type { PersonIndex } from './names.js';

/*
 * A fact said only to be denied (prose audit 2, finding 4): '"It is not true that Catiline's men mean to kill the
 * consul," Tertulla says', "Catiline's men do not mean to kill the consul", "It is a lie that …", "It is not the case
 * that the grain lost off Sardinia is sitting in Varo's warehouses". The negation scopes over the clause that carries
 * the fact, so the passage does not state it: the reading of a forbidden fact (rules/prose-facts.ts) takes it as a
 * mention (soft), as it takes a hedged one, and play's reading of a secret told (play/disclosure.ts) as no telling.
 *
 * Read by grammar, not by wording: a frame that calls the clause after it false, a clause that calls the one before
 * it false, or a negated predicate whose verb is one of the fact's own. Still a telling: a negation limited to a
 * part ("not true that he only means to …", "not only … but"), a negation denied in turn ("It is not true that they
 * do not mean …"), one that does not scope over the fact's predicate ("You cannot deny that …", "No one denies that
 * …", "he could not repay it in three lifetimes" of a fact that is itself "more than he could repay"), and a passage
 * that still tells the fact without its denied clauses ("— he will do it tonight"; a later sentence that says it).
 */

/** A frame that calls the clause after it false: "It is not true that", "it's simply not the case that", "It is a lie that". */
const FALSE = String.raw`(?:not\s+(?:(?:at\s+all|remotely|even)\s+)?(?:true|so|the\s+case|a\s+fact)|untrue|false|nonsense|an?\s+(?:[\p{L}-]+\s+)?(?:lie|slander|fable|fiction|falsehood|fabrication|invention))`;
const FRAME_BEFORE = new RegExp(String.raw`\b(?:it|that|this)\s*(?:is|was|['’]s)\s+(?:(?:simply|plainly|just|quite|absolutely|utterly|all|certainly)\s+)?${FALSE}\s*,?\s+that\s+`, 'giu');
/** A clause called false after it: "… — that is a lie", "…, which is not true". */
const FRAME_AFTER = new RegExp(String.raw`(?:[—–;,]|\s-)\s*(?:and\s+)?(?:that|which|it|this)\s*(?:is|was|['’]s)\s+(?:(?:simply|plainly|all|a)\s+)?${FALSE}\b`, 'giu');
/**
 * A negated predicate: an auxiliary's "not" or "n't", "never", "no longer", and the words it scopes over. "cannot"
 * is not read: "You cannot deny that …" affirms.
 */
const NEGATED = /\b(?:(?:do|does|did|is|are|was|were|has|have|had|will|would|could|shall|should|may|might|must)\s*(?:not\b|n['’]t\b)|(?:never|no\s+longer)\b)((?:\s+[\p{L}'’-]+){1,4})/giu;
/** A negative subject opening its clause: "Nobody means to kill the consul", "No one is sitting on that grain". */
const NEGATIVE_SUBJECT = /(?:^|[.!?;:—–"“”]\s*|,\s+(?:and|but)\s+)(?:nobody|no\s+one|no\s+man|none\s+of\s+(?:them|us|you))\b((?:\s+[\p{L}'’-]+){1,4})/giu;
/**
 * A cleft's negation ("It wasn't my money bought it", "It is not Varo who holds it"): it denies who or what, and takes
 * the deed itself as done (held-out play set 3, pg24). "It isn't in Varo's warehouses" (a preposition, a verb after) is
 * no cleft: NEGATED is read there.
 */
const CLEFT = /\bit\s*(?:is|was|['’]s)\s*(?:not|n['’]t|never)$/iu;
const CLEFT_FOCUS = /^\s+(?:my|his|her|their|our|your|the|a|an|this|that|\p{Lu})/u;
/**
 * A negation corrected at once ("Catiline never paid for a campaign out of his own purse; it was Crassus' money behind
 * every one of them": held-out corpus 101, cs18): it denies one part, and the correction tells the rest.
 */
const CORRECTED = /^\s*[;,:—–]?\s*(?:(?:but|instead|rather)\b|(?:it|that|this)\s*(?:was|is|['’]s)\b)/iu;
/** A negation limited to a part, or one that only ranks ("not only … but", "not just", "never merely"): the rest is still told. */
const LIMITED = /^\s*(?:only|merely|just|simply|solely|all|quite|yet)\b/iu;
/** Words that end what a negation scopes over: a clause's start after it. */
const SCOPE_END = /[,;:—–.!?"“”]|\b(?:but|and|because|though|although|until|unless|when|while|that)\b/iu;

/** The spans of `text` a negation denies, each the clause it scopes over. */
function deniedSpans(text: string, assertable: (words: string) => boolean): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  // Clauses a frame calls false that deny in turn: their negation is undone, not read again below.
  const undone: Array<[number, number]> = [];
  for (const m of text.matchAll(FRAME_BEFORE)) {
    const from = m.index! + m[0].length;
    const clause = clauseAt(text, from);
    const end = clauseEnd(text, from, clause.start + clause.text.length);
    const said = text.slice(from, end);
    // "not true that he only means to …" denies the "only"; "not true that they do not mean …" affirms.
    if ([...said.matchAll(NEGATED)].length || new RegExp(NEGATIVE_SUBJECT.source, 'iu').test(said.trimStart())) undone.push([from, end]);
    else if (!/\b(?:only|merely|just|simply|solely)\b/iu.test(said)) out.push([m.index!, end]);
  }
  for (const m of text.matchAll(FRAME_AFTER)) {
    const clause = clauseAt(text, Math.max(0, m.index! - 1));
    out.push([clause.start, m.index! + m[0].length]);
  }
  for (const re of [NEGATED, NEGATIVE_SUBJECT]) {
    for (const m of text.matchAll(re)) {
      const scope = m[1]!.split(SCOPE_END)[0]!;
      if (LIMITED.test(scope) || (CLEFT.test(text.slice(0, m.index! + m[0].length - m[1]!.length)) && CLEFT_FOCUS.test(m[1]!)) || !assertable(scope) || undone.some(([a, b]) => m.index! >= a && m.index! < b)) continue;
      const clause = clauseAt(text, m.index! + m[0].length - m[1]!.length);
      if (CORRECTED.test(text.slice(clause.start + clause.text.length))) continue;
      out.push([clause.start, clause.start + clause.text.length]);
    }
  }
  return out;
}

/** Where the clause after a frame ends: its clause's end, or a closing quotation mark before it. */
function clauseEnd(text: string, from: number, end: number): number {
  const close = text.slice(from, end).search(/["”]/u);
  return close < 0 ? end : from + close;
}

/**
 * The fact's words a negation can deny, and those of its own negations and comparisons ("more than he could repay in
 * three lifetimes", "never sank", "terms no matron should put on a tablet"): a negation in the prose that says any of
 * the latter echoes the fact ("he could not repay it", "it did not sink", "lines a matron would never put on wax",
 * held-out play set 5, pi16) and denies nothing.
 */
function polarRoots(sig: FactSignature, idx: PersonIndex): { assertable: Set<string>; echoed: Set<string> } {
  // A phrase the fact quotes is a so-called ('The grain "lost off Sardinia"'): "the grain that was never lost" echoes
  // it (held-out corpus 63, bj18).
  const NEG = /\b(?:than|not|never|no|nobody|nothing)\b[^,;:.]*|"[^"]*"|“[^”]*”/giu;
  const own = signature(sig.text.replace(NEG, ' '), idx).roots;
  const negative = signature([...sig.text.matchAll(NEG)].map((m) => m[0]).join('. '), idx).roots;
  return { assertable: new Set([...sig.roots].filter((r) => own.has(r) && !negative.has(r))), echoed: negative };
}

const NEGATION_WORD = /n['’]t\b|\b(?:not|never|no\s+longer|nobody|no\s+one|no\s+man|none|untrue|false|lie|slander|nonsense|fable|fiction|falsehood|fabrication|invention)\b/iu;

/**
 * Whether a passage (a sentence, two joined, an exchange's statement) mentions the fact only to deny it: a clause of it
 * is denied, and without its denied clauses the passage no longer tells the fact.
 */
export function deniesFact(text: string, sig: FactSignature, idx: PersonIndex): boolean {
  if (!NEGATION_WORD.test(text)) return false;
  let roots: ReturnType<typeof polarRoots> | undefined;
  const assertable = (words: string) => {
    roots ??= polarRoots(sig, idx);
    const said = [...signature(words, idx).roots];
    return said.some((r) => roots!.assertable.has(r)) && !said.some((r) => roots!.echoed.has(r));
  };
  const spans = deniedSpans(text, assertable);
  if (!spans.length) return false;
  let rest = '';
  let at = 0;
  for (const [a, b] of spans.sort((x, y) => x[0] - y[0])) {
    if (a > at) rest += `${text.slice(at, a)} `;
    at = Math.max(at, b);
  }
  rest += text.slice(at);
  const m = factMatch(rest, sig, idx);
  return !m || 1.5 * m.entities + m.roots < 5;
}

/** A word that denies on its own: "No.", "Never.", "Nonsense.", "Not so.", "A lie." */
const BARE_NO = String.raw`(?:no|nay|never|not\s+so|not\s+at\s+all|not\s+true|untrue|false|nonsense|a\s+lie|lies)`;
/** The subject of an echoing denial: a pronoun for the thing said before, not a new one. */
const ECHO_SUBJECT = String.raw`(?:it|that|this|they|he|she|those|these|there)`;
const ECHO_AUX = String.raw`(?:is|are|was|were|do|does|did|has|have|had)`;
/**
 * A sentence that only denies the one before it, with no words of its own: "It is not.", "They are not.", "She never
 * did.", "No, it isn't.", "That is a lie.", "No." It says nothing but the denial, so what it denies is the sentence
 * before. "It is not safe there." or "They are not Caesar's." say something of their own; "It is true." affirms.
 */
const ECHO_DENIAL = new RegExp(
  String.raw`^[\s"“”'‘’*_(—–-]*(?:${BARE_NO}\s*[,.;:!—–]+\s*)?` +
    String.raw`(?:${BARE_NO}|${ECHO_SUBJECT}\s+(?:${ECHO_AUX}\s*(?:not\b|n['’]t\b)|never\b(?:\s+${ECHO_AUX}\b)?|${ECHO_AUX}\s+never\b)(?:\s+(?:so|true|did|do|does|is|are|was|were|been|be|had|have|at\s+all|either|ever|now))*` +
    String.raw`|${ECHO_SUBJECT}\s*(?:is|was|['’]s)\s+(?:(?:simply|plainly|all|just)\s+)?(?:an?\s+)?(?:lie|false|untrue|nonsense|slander|fable|not\s+so|not\s+true))` +
    String.raw`[\s"“”'‘’*_)]*[,.!]?[\s"“”'‘’*_)]*$`,
  'iu',
);
/** The sentences denial reads across: a reading's, with their kind and line. */
interface Said {
  text: string;
  kind: 'narration' | 'speech';
  line: number;
}

/**
 * Whether the sentence at `i` is denied by the next one in the same voice, a bare denial (ECHO_DENIAL) that can deny
 * only what was just said: "Some say the ships are Caesar's. They are not."; '"Servilia holds the notes?" "No. She
 * never did."'. The same voice: narration after narration (a character's "It is not" does not undo what the narrator
 * tells), speech after speech (a beat of narration between), within two lines. A narration sentence holding a
 * quotation is read as its quotation's last sentence.
 */
export function deniedByNext(ss: readonly Said[], i: number): boolean {
  let s = ss[i];
  if (!s || s.line <= 0) return false;
  if (s.kind === 'narration' && /["“]/u.test(s.text)) {
    while (ss[i + 1]?.kind === 'speech' && ss[i + 1]!.line === s.line) i++;
    if (ss[i] === s) return false;
    s = ss[i]!;
  }
  const kind = s.kind;
  const next = ss.slice(i + 1).find((x) => x.kind === kind);
  if (!next || next.line <= 0 || next.line - s.line > 2 || (kind === 'narration' && /["“]/u.test(next.text))) return false;
  return ECHO_DENIAL.test(next.text);
}
