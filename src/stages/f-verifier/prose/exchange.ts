import type { ProseSentence } from './reader.js';
import { affirmsAll } from './affirms.js';

/**
 * A question answered in dialogue, read as the statement it makes (prose audit, session 41, finding 6):
 * '"Who holds Caesar's notes?" / "Crassus."' says "Crassus holds Caesar's notes", and '"And if he loses
 * the priesthood?" / "His creditors take everything."' says "if he loses the priesthood his creditors
 * take everything". A forbidden fact told across such a short exchange is told as fact, as it is in one
 * speech. The answer's ellipsis ("Crassus.") is completed by its question's words: an exchange is read
 * as its questions and answers together, each answered question's "?" no longer a doubt.
 *
 * Not an answer: one that denies or does not know ("No one holds them.", "Nobody.", "I don't know"), one
 * that only supposes ("Then he would be ruined."), one that asks in turn, or the same speaker's next line
 * (an orator's run of questions). Such a question keeps its "?", and a hedge in the question or the answer
 * ("they say", "suppose", "perhaps") still hedges the exchange.
 */
export interface Exchange {
  /** The exchange's sentences joined by U+2063 (as a window of adjacent sentences is), for matching. */
  window: string;
  /** Indices into the reading's sentences of every sentence of the exchange. */
  sentences: number[];
  /** Its questions and their answers. */
  pairs: QA[];
}

/**
 * A question and its answer. An open question (who, what, where…, or a bare "And if …?") is answered by
 * what the answer supplies: its words carry into the answer only when the answer says something of the
 * fact itself (the caller's test). A yes-or-no question carries only into an answer that affirms it
 * ("Yes.", "He does."): "Will you tell us next that …?" answered "I will tell the court what I can prove"
 * states nothing.
 */
export interface QA {
  question: number;
  answer: number[];
  open: boolean;
}

/** Lines between two turns of one exchange at most: the next paragraph, or one paragraph of narration between. */
const MAX_GAP = 4;
/** Answered questions one exchange reads together at most. */
const MAX_PAIRS = 3;

/** An answer that denies, or does not know: the question stays a question. */
const DENIES = /^[\W_]*(?:no|nobody|no one|none|never|not|nothing|neither|nor)\b|\b(?:(?:do|does|did)\s+not|don['’]t|doesn['’]t|didn['’]t|cannot|can['’]t)\s+(?:know|say|tell)\b|\bwho knows\b|\bno idea\b/i;
/** An answer that supposes: its first words put it under "would", "might" ("Then he would be ruined."). */
const SUPPOSES = /^[\W_]*(?:then\s+)?(?:[\p{L}'’]+\s+){0,3}(?:would|might|could|should|may)\b/iu;
/** An open question: it asks who, what, where… or puts a condition ("And if he loses the priesthood?"). */
const OPEN = /^[\W_]*(?:(?:and|but|so|then|or)\s+)?(?:who|whom|whose|what|which|where|when|why|how|if)\b/i;
/** A question sentence: it ends on "?" (a closing quotation mark or bracket after it at most). */
const ASKS = /\?[\s"”'’)\]]*$/;

interface Turn {
  line: number;
  idx: number[];
}

/** The speech sentences by line: one turn of the dialogue per line. */
function turnsOf(ss: readonly ProseSentence[]): Turn[] {
  const turns: Turn[] = [];
  ss.forEach((s, i) => {
    if (s.kind !== 'speech' || s.line <= 0) return;
    const last = turns.at(-1);
    if (last && last.line === s.line) last.idx.push(i);
    else turns.push({ line: s.line, idx: [i] });
  });
  return turns;
}

/**
 * The question-and-answer pair of turn `q` and turn `a`, when `a` answers the question `q` ends on. An answer
 * asks nothing itself: a turn that goes on asking ("Three ships lost off Sardinia, they tell you. … Did the grain
 * go to the bottom of the sea?") is an orator's run of questions, not an answer; nor is the same speaker's next line.
 */
function pairOf(ss: readonly ProseSentence[], q: Turn, a: Turn | undefined, speakerAt: (line: number) => string | undefined): QA | null {
  const question = q.idx.at(-1)!;
  if (!a || a.line - q.line > MAX_GAP || !ASKS.test(ss[question]!.text)) return null;
  if (a.idx.some((i) => /\?/.test(ss[i]!.text))) return null;
  const who = speakerAt(q.line);
  if (who !== undefined && who === speakerAt(a.line)) return null;
  const first = ss[a.idx[0]!]!.text;
  if (DENIES.test(first) || SUPPOSES.test(first)) return null;
  const open = OPEN.test(ss[question]!.text);
  // A yes-or-no question carries only into an answer that affirms it, whole ("He does.", not "Yes, but not the notes").
  return open || affirmsAll(a.idx.map((i) => ss[i]!.text.replace(/,\s*$/, '.')).join(' ')) ? { question, answer: a.idx, open } : null;
}

/**
 * Every short exchange of the scene's dialogue that holds an answered question: a run of one to
 * MAX_PAIRS question-and-answer pairs, each next pair's question asked right after the answer before.
 * `speakerAt`: who speaks a line, when the scene says (a cue, a said-tag), so that no one answers themself.
 */
export function answeredExchanges(ss: readonly ProseSentence[], speakerAt: (line: number) => string | undefined = () => undefined): Exchange[] {
  const turns = turnsOf(ss);
  const pairs: { t: number; qa: QA }[] = [];
  for (let t = 0; t + 1 < turns.length; t++) {
    const qa = pairOf(ss, turns[t]!, turns[t + 1], speakerAt);
    if (qa) pairs.push({ t, qa });
  }
  const out: Exchange[] = [];
  for (let k = 0; k < pairs.length; k++) {
    for (let n = 1; n <= MAX_PAIRS && k + n <= pairs.length; n++) {
      const run = pairs.slice(k, k + n);
      // Each next question is the turn right after the answer before, and close enough.
      const joined = run.every((p, j) => j === 0 || (p.t - run[j - 1]!.t === 2 && turns[p.t]!.line - turns[run[j - 1]!.t + 1]!.line <= MAX_GAP));
      if (!joined) break;
      const idx = turns.slice(run[0]!.t, run.at(-1)!.t + 2).flatMap((t) => t.idx);
      out.push({ window: idx.map((i) => ss[i]!.text).join('\u2063'), sentences: idx, pairs: run.map((p) => p.qa) });
    }
  }
  return out;
}

/** The exchange read as statements: the question of each carried pair with its "?" made a full stop, every other sentence as said. */
export function statementOf(ss: readonly ProseSentence[], x: Exchange, carried: readonly QA[]): string {
  const asked = new Set(carried.map((p) => p.question));
  return x.sentences.map((i) => (asked.has(i) ? ss[i]!.text.replace(/\?([\s"”'’)\]]*)$/, '.$1') : ss[i]!.text)).join(' ');
}
