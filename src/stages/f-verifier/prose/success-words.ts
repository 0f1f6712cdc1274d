import type { PacketInstruction } from '../../../domain/packet.js';
import type { VerifyContext } from '../context.js';
import { termsOf, transforms } from './parse.js';
import { contentRoots } from './roots.js';
import { conjugated, toInfinitive } from './word-transforms.js';
import { MODAL_AUX } from './moods.js';
import { MOTION, TRANSFER } from './compliance-verbs.js';
import { BoundedMemo } from '../../../core/bounded-memo.js';
import { clauseAt, clausesOf } from './clauses.js';
import { clauseHead } from './compliance.js';
import { failOwner } from './owner.js';
import type { ProseSentence, Reading } from './reader.js';
import type { BeatSuccess } from './beats.js';
import { failureTurnedIn, turnedFailure } from './turned-failure.js';

/**
 * An operator's own words for its success, read from the operator's data, so a beat planned to fail shown
 * succeeding in them ("Murena's grain is seized" for a failing op_seize_warehouses, "They embrace …, reconciled"
 * for a failing op_reconciliation) is found in any world, not only the starter's. The words come from what names
 * the act (the operator's id and name: "seize", "Reconciliation" → "reconcile") and from its success directive
 * (writer_guidance.success_beat: its verbs, and an event noun with a verb reading, "an embrace"). Left out:
 * whatever the failure is told in too (the fail directive: "seal" in "a contract that makes actor's seal illegal",
 * so a seal shown is no sign either way), light verbs that say nothing of an outcome ("speak", "set", "see"), and
 * verbs of handing a thing, which compliance.ts reads with who receives it. The operator's effects are paths and
 * numbers (`characters.target.stats.wealth`), no words a scene is written in, so they give none.
 */
export interface SuccessLexicon {
  /** Each success verb's infinitive and its inflected forms. */
  verbs: ReadonlyMap<string, VerbForms>;
  /** Content roots only the fail directive has: a later sentence with one shows the failure planned. */
  failRoots: ReadonlySet<string>;
  /** The success directive's content roots: a sentence sharing one beside the verb is about the beat ("tears the shutter down"). */
  successRoots: ReadonlySet<string>;
}

interface VerbForms {
  /** Third person present ("seizes"), the bare form ("seize": "they seize"), the past and the participle ("seized", "sworn"). */
  present3: string;
  bare: string;
  past: string;
  participle: string;
}

/**
 * Verbs that tell an act, not its outcome: saying, seeing, moving, holding, and the commonest light verbs. General
 * English, not any operator's: a directive's "speak the old grievances aloud, then set them aside" succeeds by what
 * follows, not by speaking.
 */
const LIGHT = new Set(
  'be have do say speak tell see look come go put set take give make know get hold let leave stand sit fall find hear turn bring show call read answer keep begin end move open close run meet watch want think feel seem become stay lie walk use try start ask need mean work change switch cut lay love corner flip include matter cost lead order name return reach follow carry wait talk fan date time rate seat coat fund market interest arm cover doubt belong own'.split(' '),
);
/**
 * Handing a thing on: compliance.ts reads these with their receiver (receiver.ts), which a bare word cannot; so
 * "belong" and "own" (LIGHT), whose owner outcome.ts belongingsIn weighs ("belongs to someone else" is no prize won).
 */
const HANDING = new Set([...TRANSFER, ...MOTION, 'take', 'receive'].filter((v) => !v.includes(' ')));
/** Nominalisations and the verb they come from: "reconciliation" → "reconcile", "betrayal" → "betray", "confession" → "confess". */
const DENOMINAL: [RegExp, string[]][] = [
  [/iation$/, ['e', 'iate']],
  [/ication$/, ['y']],
  [/ation$/, ['e', 'ate', '']],
  [/ction$/, ['ce', 'ct']],
  [/ion$/, ['', 'e']],
  [/ment$/, ['']],
  [/al$/, ['']],
];
/** Tags of words that are no verb of the act whatever compromise guesses. */
const NOT_VERB = new Set(['Pronoun', 'Auxiliary', 'Copula', 'Modal', 'Determiner', 'ProperNoun', 'Preposition', 'Particle', 'Adverb', 'Conjunction']);


/** The verbs a text tells: its verbs' infinitives, an event noun's verb ("an embrace"), a nominalisation's (`named`: the act's own name). */
function verbsIn(text: string, named: boolean): string[] {
  const { model } = transforms();
  const lex = (model as { one: { lexicon: Record<string, string> } }).one.lexicon;
  const out: string[] = [];
  const terms = termsOf(text);
  terms.forEach((t, i) => {
    if (t.tags.some((g) => NOT_VERB.has(g))) return;
    const w = t.normal.replace(/['’]s$/, '');
    if (t.tags.includes('Verb')) {
      // The tense compromise tags, then the participle's ("given" tagged a past is a participle).
      const tenses = [...['Gerund', 'PastTense', 'PresentTense'].filter((g) => t.tags.includes(g)), 'Participle'];
      out.push(tenses.map((g) => toInfinitive(w, g)).find((v) => v && v !== w) ?? w);
    } else if (t.tags.includes('Noun')) {
      // An event told by a noun with a verb reading after "a"/"an": "an embrace", "a shout"; not "the seals", a thing.
      if (/^(?:a|an)$/.test(terms[i - 1]?.normal ?? '') && lex[w] === 'Infinitive') out.push(w);
      for (const [re, ends] of DENOMINAL) {
        if (!re.test(w)) continue;
        for (const e of ends) {
          const v = w.replace(re, e);
          if (v.length >= 5 && (named || lex[v] === 'Infinitive')) out.push(v);
        }
        break;
      }
    }
  });
  return out.filter((v) => /^\p{L}{4,}$/u.test(v));
}

function formsOf(inf: string): VerbForms {
  const c = conjugated(inf);
  return { present3: c.PresentTense ?? `${inf}s`, bare: inf, past: c.PastTense ?? `${inf}ed`, participle: c.Participle ?? c.PastTense ?? `${inf}ed` };
}

/** Role words and their {role:pronoun} forms out of a directive: "target" is a person, no word of the act. */
function unroled(text: string, roles: readonly string[]): string {
  const t = text.replace(/\{[a-z_]+:([^}]+)\}/g, '$1');
  return roles.length ? t.replace(new RegExp(String.raw`\b(?:${roles.join('|')})(?:['’]s)?\b`, 'g'), 'someone') : t;
}

const lexicons = new BoundedMemo<string, SuccessLexicon>(500);

/**
 * The success lexicon of a beat's operator. `ctx.operators` gives the world's directives; without them (a packet
 * verified alone) only the act's name speaks for success. The fail directive is the world's and the beat's own
 * (a failing beat's narrative_directive is its fail directive with names in).
 */
export function successLexicon(app: PacketInstruction, ctx: VerifyContext): SuccessLexicon {
  const op = ctx.operators?.find((o) => o.id === app.operator_id);
  const roles = [...new Set([...Object.keys(app.bindings), ...(op?.roles ?? [])])];
  const success = unroled(op?.success ?? '', roles);
  const fail = `${unroled(op?.fail ?? '', roles)} ${app.outcome === 'fail' ? app.narrative_directive : ''}`.trim();
  const key = [app.operator_id, app.operator_name, success, fail].join('\u0001');
  return lexicons.get(key, () => {
    const failWords = new Set([...verbsIn(fail, false), ...termsOf(fail).map((t) => t.normal)]);
    const act = `${app.operator_name}. ${app.operator_id.replace(/^op_/, '').replace(/_/g, ' ')}`;
    const verbs = new Map<string, VerbForms>();
    for (const v of [...verbsIn(act, true), ...verbsIn(success, false)]) {
      if (LIGHT.has(v) || HANDING.has(v) || failWords.has(v) || verbs.has(v)) continue;
      verbs.set(v, formsOf(v));
    }
    const successRoots = contentRoots(success);
    const failRoots = new Set([...contentRoots(fail)].filter((r) => !successRoots.has(r) && !LIGHT.has(r)));
    return { verbs, failRoots, successRoots };
  });
}

/** Denied, hedged, only near or tried: the outcome.ts list, with "nothing" and "no" (a sentence of "nothing is seized"). */
const HELD_OFF = /\b(?:not|never|no|nothing|no one|nobody|neither|none|nor|cannot|can't|won't|doesn't|don't|nearly|almost|seems|as if|as though|would|could|might|will|next time|if|unless|refuses?|fails?|failed|instead|for a moment|whether)\b|\w['’](?:ll|d)\b|\?/i;
/** A turn after the success word in its sentence: the attempt, then what undid it ("…seize the sacks, but the contract…"). */
const TURN = /\b(?:but|yet|only to|until|till|except|though|although)\b/i;
/** A subject that is more than one: the bare form is then the present ("They embrace", "Cicero and Terentia embrace"). */
const PLURAL_SUBJECT = String.raw`(?:\b(?:they|we|both(?:\s+of\s+them)?|(?:the|both)\s+(?:two\s+)?(?:men|women|brothers|sisters|friends|houses)|the\s+two(?:\s+of\s+them)?|all\s+of\s+them)|\p{Lu}\p{L}+\s+and\s+\p{Lu}\p{L}+)\s+(?:\p{L}+ly\s+)?`;
/** Before a participle that tells a state reached: "is seized", "are now reconciled", "stands sealed". */
const STATE = String.raw`\b(?:is|are|stands?|lies?|remains?|has\s+been|have\s+been)\s+(?:(?:now|all|at\s+last|finally|\p{L}+ly)\s+){0,2}`;
const STATE_PAST = String.raw`\b(?:was|were|stood|lay|remained)\s+(?:(?:now|all|at\s+last|finally|\p{L}+ly)\s+){0,2}`;
const esc = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * An embrace in other words, both of them doing it (read as after a plural subject): "they hold each other", "in each
 * other's arms", one letting the other take their hands ("Cicero lets her take his hands"). A subject right before
 * the verb, so "they used to hold each other" is a habit of the past, no embrace now.
 */
function embracedIn(past: boolean): RegExp {
  const hold = past ? 'held' : 'hold';
  const lets = past ? 'let' : 'lets';
  return new RegExp(String.raw`${PLURAL_SUBJECT}(${hold}\s+each\s+other)\b|\b(?:are|were|stand|stood|lie|lay)\s+(in\s+each\s+other['’]s\s+arms)\b|\b(${lets}\s+(?:her|him)\s+take\s+(?:his|her|both\s+(?:his|her))\s+hands?)\b`, 'iu');
}

/** A success verb told as done: where, which verb, and how (a present verb, after a plural subject, a state reached, a participle set off by commas); `start`: where its match begins (a depictive's comma). */
export interface SuccessWord {
  index: number;
  word: string;
  how: 'finite' | 'plural' | 'state' | 'depictive';
  start: number;
}

/** A success verb's four patterns, in the order they are tried. */
interface VerbPatterns {
  inf: string;
  res: { re: RegExp; how: SuccessWord['how'] }[];
}

/**
 * Each lexicon's patterns, for a scene told in the present and in the past, made once: successWordIn is asked for
 * every narration sentence of every failing beat, and compiling four expressions per verb per sentence was most of
 * its time (issue 18: stage F's share of `episode run`). Keyed by the lexicon object, which successLexicon memoises.
 */
const patterns = new WeakMap<SuccessLexicon, { present?: VerbPatterns[]; past?: VerbPatterns[] }>();

function patternsOf(lex: SuccessLexicon, past: boolean): VerbPatterns[] {
  let made = patterns.get(lex);
  if (!made) patterns.set(lex, (made = {}));
  const key = past ? 'past' : 'present';
  return (made[key] ??= [...lex.verbs].map(([inf, f]) => ({
    inf,
    res: [
      ...(inf === 'embrace' ? [{ re: embracedIn(past), how: 'plural' as const }] : []),
      { re: new RegExp(String.raw`\b${esc(past ? f.past : f.present3)}\b`, 'iu'), how: 'finite' as const },
      { re: new RegExp(String.raw`${PLURAL_SUBJECT}(${esc(past ? f.past : f.bare)})\b`, 'iu'), how: 'plural' as const },
      { re: new RegExp(String.raw`(?:${STATE}${past ? `|${STATE_PAST}` : ''})(${esc(f.participle)}|${esc(f.past)})\b`, 'iu'), how: 'state' as const },
      { re: new RegExp(String.raw`,\s*(?:\p{L}+ly\s+)?(${esc(f.participle)}|${esc(f.past)})\s*(?=[,;.!—–]|$)`, 'iu'), how: 'depictive' as const },
    ],
  })));
}

/**
 * Where a narration sentence (its quotations blanked) tells one of the lexicon's verbs as done, or null: a present
 * verb (compromise reads it as one: "Cato seizes", not "Cato's seals"), the bare form after a plural subject, a state
 * reached ("Murena's grain is seized"), or a participle set off by commas ("They embrace, reconciled, …"). `past`: a
 * scene told in the past, whose simple past and "was seized" are its now. Nothing hedged, denied, tried or turned.
 */
export function successWordIn(narr: string, lex: SuccessLexicon, past: boolean): SuccessWord | null {
  if (!lex.verbs.size) return null;
  for (const { inf, res } of patternsOf(lex, past)) {
    for (const { re, how } of res) {
      const m = re.exec(narr);
      if (!m) continue;
      // The embrace's paraphrases (embracedIn) capture in one of three groups.
      const word = m[1] ?? m[2] ?? m[3] ?? m[0];
      const at = m.index + m[0].length - word.length;
      // Denied, hedged, tried or meant up to the end of its clause ("tries to seize", "they might embrace"); a later
      // clause's denial is another matter ("…embrace at last, and neither of them speaks of it"), but for a turn.
      const clause = clauseAt(narr, at);
      if (HELD_OFF.test(narr.slice(0, clause.start + clause.text.length)) || MODAL_AUX.test(narr.slice(0, at)) || TURN.test(narr.slice(at))) continue;
      if (how === 'finite' && !termsOf(narr).some((t) => t.normal === word.toLowerCase() && t.tags.includes('Verb') && !t.tags.includes('Infinitive'))) continue;
      // A past perfect in a scene told in the past is backstory ("the grain had been seized the year before").
      if (past && /\bhad\s+(?:been\s+)?(?:\p{L}+\s+)?$/iu.test(narr.slice(0, at))) continue;
      return { index: at, word: inf, how, start: m.index };
    }
  }
  return null;
}

/** Whether text shows the failure planned: a content root only the fail directive has ("empty", "contract", "refuses"). */
export function showsFailure(text: string, lex: SuccessLexicon): boolean {
  if (!lex.failRoots.size) return false;
  for (const r of contentRoots(text)) if (lex.failRoots.has(r)) return true;
  return false;
}

/**
 * A clause that denies what it says: "She never lowers her voice" says the fail directive's words ("target lowers the
 * voice") and shows no failure. "Nothing but fragments" restricts, as "only" does: no denial.
 */
const DENIED = /\b(?:not|never|no|nor|neither|nothing|nobody|cannot)\b|n['’]t\b/i;
const QUANTITY = /^(?:enough|all|much|more|less|little|few|half|some|every|whole|many)$/;
const ONLY = /\b(?:nothing|no\s+more|not\s+more)\s+(?:but|than)\b/gi;

/** A person pronoun that may stand for the beat's actor, at the end of a clause head (an adverb after it at most). */
const PERSON_PRONOUN_END = /\b(?:he|she|I|we|you)\s+(?:\p{L}+ly\s+)?$/iu;
/** A clause head with no subject of its own: the verb shares one told before, perhaps the actor. */
const NO_SUBJECT = /^[\s,;:—–]*(?:(?:and|then|and then|but|so)\s+)?(?:\p{L}+ly\s+)?$/iu;
/** What may stand between a subject and its verb or participle: adverbs, "now", "at last". */
const TO_VERB = /^\s*(?:(?:now|then|at\s+last|finally|\p{L}+ly)\s+)*$/iu;

/**
 * Whether a success word tells the outcome, not the attempt. The act an operator is named for is done by its actor
 * and is the attempt as much as the success ("Cicero summons Catiline"): a present verb counts only when someone
 * else or something does it ("the crowd chants", "Murena kneels"), never the actor, a "he" or "she" who may be the
 * actor, nor a verb that shares a subject told before it. A state or participle of one person ("Catiline is
 * summoned", "Fulvia, denounced, …") is the attempt done to them; of a thing or of two together ("Murena's grain is
 * seized", "Cicero and Terentia are reconciled") it is the outcome. After a plural subject ("They embrace") it is both.
 */
function outcomeNotAttempt(s: ProseSentence, hit: SuccessWord, app: PacketInstruction): boolean {
  if (hit.how === 'plural') return true;
  const narr = s.narr ?? s.text;
  // The subject stands before the verb, or before "is"/"are" of a state, or before a participle's comma.
  const end = hit.how === 'finite' ? hit.index : hit.start;
  const head = clauseHead(narr, end);
  if (PERSON_PRONOUN_END.test(head) || (hit.how === 'finite' && NO_SUBJECT.test(head))) return false;
  const from = end - head.length;
  // Not a name after "of": "the warehouses of Murena are seized" tells his warehouses' state.
  const subject = s.mentions.filter((m) => m.start >= from && m.end <= end && TO_VERB.test(narr.slice(m.end, end)) && !/\bof\s+$/i.test(narr.slice(from, m.start))).at(-1);
  if (!subject) return true;
  if (hit.how === 'finite') return subject.id !== app.bindings.actor;
  // "Cicero and Terentia are reconciled": two together.
  return s.mentions.some((m) => m !== subject && m.start >= from && /^\s+and\s+$/i.test(narr.slice(m.end, subject.start)));
}

/**
 * Whether a sentence with a success word is about the beat: it names one of the beat's people, its subject is the two
 * of them ("They embrace", "They are reconciled"), or it shares another word with the success directive ("the
 * shutters are torn down"). "…the wind took the smoke and tore it in two" (held-out corpus 95, cp14) tears nothing
 * of a riot.
 */
function aboutBeat(s: ProseSentence, hit: SuccessWord, app: PacketInstruction, lex: SuccessLexicon): boolean {
  const bound = new Set(Object.values(app.bindings));
  if (hit.how === 'plural' || s.mentions.some((m) => bound.has(m.id))) return true;
  if (/\b(?:they|both)\s+(?:\p{L}+\s+){0,2}$/iu.test(clauseHead(s.narr ?? s.text, hit.start))) return true;
  return [...contentRoots(s.text)].some((r) => r !== hit.word && lex.successRoots.has(r));
}

/**
 * A beat planned to fail told coming off in its operator's own words for success (success-words.ts): "Murena's grain
 * is seized" for a failing seizure, "They embrace …, reconciled" for a failing reconciliation. Not when a later
 * sentence tells the failure planned in the fail directive's own words (the attempt shown, then undone: "The seals
 * go on. Then Murena unrolls the contract."), nor in speech, which claims, asks or orders as often as it tells, nor
 * in a general truth (`generalTruth`: beats.ts's "you" of a scene not told in the second person).
 */
export function toldInOperatorWords(r: Reading, ctx: VerifyContext, past: boolean, generalTruth: (s: ProseSentence) => boolean): BeatSuccess | null {
  for (const app of ctx.packet.director_instructions.sequence.filter((a) => a.outcome === 'fail')) {
    const lex = successLexicon(app, ctx);
    for (let i = 0; lex.verbs.size && i < r.sentences.length; i++) {
      const s = r.sentences[i]!;
      if (s.line <= 0 || s.imagined || s.kind !== 'narration' || generalTruth(s)) continue;
      const hit = successWordIn(s.narr ?? s.text, lex, past);
      if (!hit || !outcomeNotAttempt(s, hit, app) || !aboutBeat(s, hit, app, lex) || r.sentences.slice(i + 1).some((t) => t.line > 0 && showsFailure(t.text, lex))) continue;
      // The success goes to its owner when the scene also carries a beat planned to succeed (owner.ts).
      const o = failOwner(s, ctx.packet);
      if (o) return { sentence: s, app, sure: o.sure, how: `"${hit.word}"` };
    }
    // Its fail directive turned over (turned-failure.ts): "hears every word" for "hears only fragments".
    // A quantity word is no sign of failure ("enough to suspect" fails; "proof enough to hang a dozen men" does not),
    // nor the thing that held named again ("The squeeze holds. … the squeeze has doubled his money").
    const held = new Set(turnedFailure(app, ctx).things.flatMap((t) => [...contentRoots(t)]));
    const failLex = { ...lex, failRoots: new Set([...lex.failRoots].filter((w) => !QUANTITY.test(w) && !held.has(w))) };
    const later = (i: number) => r.sentences.slice(i + 1).some((t) => t.line > 0 && clausesOf(t.text).some((c) => showsFailure(c, failLex) && !DENIED.test(c.replace(ONLY, ''))));
    const turned = failureTurnedIn(r, app, ctx, past, generalTruth, later);
    const o = turned && failOwner(turned, ctx.packet);
    if (turned && o) return { sentence: turned, app, sure: o.sure, how: 'its failure turned over' };
  }
  return null;
}
