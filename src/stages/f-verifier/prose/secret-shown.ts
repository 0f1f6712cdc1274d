import type { Reading, ProseSentence } from './reader.js';
import { factMatch, peopleOf, signature, type FactSignature } from './facts.js';
import type { Shown } from './payment-shown.js';

/**
 * Whether the prose puts a secret into words (a required change that moves it: a betrayal's rival,
 * a confession's listener or an eavesdropper now holds it, or a denunciation makes it public;
 * rules/prose-beats.ts). Matched like a forbidden fact (facts.ts factMatch: its people, places and
 * predicate words, paraphrased), in one to four adjacent sentences, said aloud or told in the narration
 * (a tablet read, a letter's words), or named as told ("lays bare the secret about Fulvia"). Questions,
 * refusals ("I will not tell you that …"), a telling broken off and a thought tell nothing; a telling only
 * under a condition, or a writing passed whose words are never given, is a doubtful sign.
 */

/** A telling refused or denied before its words: "I will not tell you", "he cannot say", "never breathe a word". */
const REFUSED = /\b(?:not|never|cannot|can['’]t|won['’]t|will not|would not|wouldn['’]t)\s+(?:\w+\s+){0,2}?(?:tell|say|speak|name|reveal|breathe|write|put it|give (?:it|you|him|her) up)\b/i;
/**
 * A secret told by name, not in its words: "lays bare the secret about Fulvia", "It is out in the open: the
 * secret about Fulvia", "Cato learns the truth about Murena". The packet marks a secret an earlier scene put
 * into words `told` and asks the Writer to refer to it, not quote it again; a telling on stage is the
 * beat's deed whether its words are said or only named.
 */
const SECRET_NAMED = /\bthe\s+(?:whole\s+)?(?:secret|truth)\b/i;
const TELLING = /\b(?:tells?|told|telling|reveals?|revealed|revealing|lays?\s+bare|laid\s+bare|laying\s+bare|learns?|learned|learnt|hears?|heard|overhears?|overheard|exposes?|exposed|confesses?|confessed|spills?|spilled|betrays?|betrayed|hands?\s+over|handed\s+over|gives?\s+away|gave\s+away|pass(?:es|ed)?\s+on|whispers?|whispered|out\s+in\s+the\s+open|spreads?|spread|travels?)\b/i;
/** Doubt around a telling: a condition, a supposition, a possibility. */
const DOUBTED = /\b(?:if|unless|suppose|supposing|whether|perhaps|maybe|might|could|would)\b/i;
/** Where a sentence ends inside a sentence of the reader's (a quotation keeps its sentences together). */
const SUB_END = /(?<=[.!?…]["”]?)\s+/;

/**
 * A sentence's words that may tell: each of its own sentences (a quotation's too) but questions, which ask
 * ('"Who paid Murena's vote-brokers, do you think?" Cato asks.'), and refusals ("I will not tell you who paid
 * Murena's brokers."): '"Then I will say it aloud, so you cannot say you misread. The men who bought the votes
 * for Murena were paid out of my strongbox at Ostia."' still tells (held-out corpus 39, al10).
 */
function telling(text: string): string {
  return text
    .split(SUB_END)
    .filter((t) => !/\?["”]?\s*$/.test(t) && !REFUSED.test(t))
    .join(' ');
}
/** A telling broken off before its end ("…were paid from—"): what it would have named is not said. */
const BROKEN_OFF = /(?:[—–-]{1,2}|\.\.\.|…)["”]?\s*$/;
/**
 * Narration of a thought or a memory, with no quotation and no verb of telling: the secret in someone's
 * mind ("thinks of the receipt in his own hand, lying in the strongbox at Ostia"), not told to anyone.
 */
const THOUGHT = /\b(?:thinks?|thought|thinking|remembers?|remembered|remembering|recalls?|recalled|knows?|knew|wonders?|wondered|imagines?|imagined|pictures?|pictured|dreams?|dreamed|dreamt|broods?|brooded|considers?|considered)\b/i;
const TELLS = /\b(?:tells?|told|says?|said|reveals?|revealed|whispers?|whispered|confesses?|confessed|reads?|shows?|showed|names?|named|spells?\s+out|lays?\s+(?:it\s+)?(?:all\s+)?(?:out|bare))\b/i;
/** A writing handed or read, whose words the prose may never give: a doubtful sign that what it holds was passed on. */
const WRITING = /\b(?:tablets?|letters?|receipts?|scrolls?|documents?|notes?|ledgers?|account-books?|wax)\b/i;
const PASSED_OR_READ = /\b(?:slides?|slid|passes|passed|hands\s+(?:it|them|him|her|over|across|the|a|an|this|that|\p{Lu})|handed|gives?|gave|pushes|pushed|reads?|opens?|opened|unfolds?|unfolded)\b/iu;

/**
 * How many adjacent sentences a telling may run over: a line of speech split at every stop and between
 * narration ('"The brokers," Varo says at last. "The men who carried the tribes for you. I paid them. From
 * my strongbox at Ostia."': held-out corpus 5, w12), or a tablet read a line at a time.
 */
const SPAN = 4;

/**
 * The scene's sentences a telling is read in: narration with its quotations in it, and the lines of
 * speech under a cue (a quotation's own speech sentences would only say the narration's words again).
 */
function units(r: Reading): ProseSentence[] {
  const thought = (s: ProseSentence) => s.kind === 'narration' && !/["“]/.test(s.text) && THOUGHT.test(s.text) && !TELLS.test(s.text);
  return r.sentences.filter((s) => s.line > 0 && !s.imagined && (s.kind === 'narration' || r.cues.has(s.line)) && !thought(s) && !BROKEN_OFF.test(s.text));
}

/** Runs of one to SPAN adjacent sentences, each at most two lines after the one before (as the forbidden-fact rule reads two). */
function windows(ss: readonly ProseSentence[]): { text: string; parts: ProseSentence[] }[] {
  const out: { text: string; parts: ProseSentence[] }[] = [];
  for (let i = 0; i < ss.length; i++) {
    const parts: ProseSentence[] = [];
    for (let j = i; j < ss.length && parts.length < SPAN; j++) {
      const s = ss[j]!;
      if (parts.length && s.line - parts.at(-1)!.line > 2) break;
      parts.push(s);
      out.push({ text: parts.map((p) => telling(p.text)).join('\u2063'), parts: [...parts] });
    }
  }
  return out;
}

/**
 * How the prose shows a secret told: `shown` for a plain telling; `weak` for a telling only doubted, or a
 * writing passed or read; `absent` when nothing says it. `rumour`: the secret is spread as a rumour, so
 * hearsay and doubt are the telling itself.
 */
export function secretShown(r: Reading, secret: { text: string; subject: string }, rumour: boolean): Shown {
  const sig: FactSignature = signature(secret.text, r.index);
  let weak = false;
  const people = new Set([secret.subject, ...[...peopleOf(sig)].map((p) => p.slice(1))]);
  const named = (s: ProseSentence) => s.line > 0 && !s.imagined && SECRET_NAMED.test(s.text) && TELLING.test(s.text) && s.mentions.some((m) => people.has(m.id));
  if (r.sentences.some((s) => named(s) && !REFUSED.test(s.text) && (rumour || !DOUBTED.test(s.text)))) return 'shown';
  for (const w of windows(units(r))) {
    const m = factMatch(w.text, sig, r.index);
    if (!m) continue;
    const doubted = !rumour && w.parts.every((p) => DOUBTED.test(p.text));
    if (!doubted) return 'shown';
    weak = true;
  }
  const handed = (s: ProseSentence) => s.kind === 'narration' && s.line > 0 && !s.imagined && WRITING.test(s.narr ?? s.text) && PASSED_OR_READ.test(s.narr ?? s.text) && !THOUGHT.test(s.narr ?? s.text);
  return weak || r.sentences.some(handed) ? 'weak' : 'absent';
}
