import { SAID_VERB, TOLD } from './said.js';
import { formTense, type Tense } from './tense.js';
import { sentencesOf, termsOf } from './parse.js';

/**
 * Dialogue set with no quotation marks at all, as some novelists set it and a model asked to write like
 * them does (held-out corpus 103: "Catiline is dead, Crassus said. You are charging me with a corpse.";
 * "Cato got up from the back bench … and said, in the flat voice he used for oaths, Write it large, …").
 * Read as narration, its speech made deeds of what it names ("When the consul comes to open the
 * granaries, I trust …" put Cicero on stage), told its futures as done and swayed the scene's tense.
 * So the words said are found here and set in curly quotation marks, sentence by sentence, as
 * reader.ts's `doubled` does for single quotes, and every reader after takes them as words said. What
 * marks speech, surest first:
 * - a said-tag after the words that open the sentence ("Nothing, said Varo.", "Why, he said at last.");
 *   what follows the tag is speech again when it opens on a capital ("Fathers, Cicero began, I had
 *   hoped …") or speaks in the first or second person ("The Republic, Crassus said, owes me money."),
 *   else narration (", sitting down heavily", ", and closed it");
 * - a said-tag, then a comma or a colon and a capital ("Then Clodius said, Not today.");
 * - a colon, then a capital word that is no name, after a word of saying, writing or thinking, or
 *   before words in the first or second person ("… a hand on his shoulder: You are the only man …");
 * - a dialogue dash opening the sentence;
 * - after speech in the same paragraph, each sentence that does not open on a third person ("He did not
 *   raise his voice." is narration again; "The road. The carts." is more of the speech); after
 *   narration, once the scene has shown a tag (turn-taking: "I said I might."), a sentence in the first or
 *   second person or a question.
 * A sentence that fits none of these stays narration, as it was read before.
 */

export interface SpeechMarks {
  /** The paragraph's sentences, each with its speech in curly quotation marks; paragraphs are given in order. */
  paragraph(sentences: readonly string[]): readonly string[];
}

/** Whether the scene sets its dialogue with no quotation marks: none double, no guillemet, no single one opening a word. */
export function unquotedDialogue(lines: readonly { text: string }[]): boolean {
  return !lines.some((l) => /["“”«»]|(?:^|[\s(—–-])['‘]\p{L}/u.test(l.text));
}

/** A tag's verbs: the said-verbs, and a few more that tag speech but seldom stand alone after a comma. */
const TAG_VERB = `(?:${SAID_VERB}|began|begins|went on|goes on|repeated|repeats|continued|continues|insisted|insists|agreed|agrees|warned|warns)`;
/** A tag's verb as a word of its own. */
const TAG_WORD = new RegExp(`^${TAG_VERB}$`, 'i');
/** Who speaks in a tag: a pronoun, a title ("the consul's wife"), or up to four capitalised words. */
const SPEAKER = String.raw`(?:he|she|they|I|we|(?:the|his|her)\s+\p{Ll}+(?:['’]s\s+\p{Ll}+)?|\p{Lu}[\p{L}'’]*(?:\s+\p{Lu}[\p{L}'’]*){0,3})`;
/**
 * What may follow a tag's verb: the sentence's end or a stop, an adverb, a phrase of place or manner, a
 * clause. Not a noun: "When he had finished, Cicero said the name again" is narration.
 */
const AFTER_TAG = String.raw`(?=\s*$|\s*[,.;:!?—–]|\s+(?:\p{Ll}+ly|to|at|again|aloud|once|when|as|and|then|without|not|in|with|over|into|across|through|from|after|before|until|while|for)\b)`;
const TAG = String.raw`(?:${SPEAKER}\s+(?:\p{Ll}+ly\s+)?(?:${TAG_VERB}${AFTER_TAG}|${TOLD})|${TAG_VERB}\s+${SPEAKER}${AFTER_TAG})`;
/** Words said, a stop, the tag, the rest. */
const TAG_AFTER = new RegExp(String.raw`^(\s*\S.*?)([,?!…]|\s[—–])(\s+${TAG})(.*)$`, 'u');
/**
 * A tag that opens its own sentence: the splitter ends a sentence at a question or an exclamation, so "Why?
 * said Clodius." comes as "Why?" and "said Clodius.".
 */
const TAG_ALONE = new RegExp(String.raw`^\s*(?:(?:he|she|they|I|we)\s+(?:\p{Ll}+ly\s+)?(?:${TAG_VERB}${AFTER_TAG}|${TOLD})|${TAG_VERB}\s+${SPEAKER}${AFTER_TAG})`, 'u');
/** A phrase of manner between a tag and the words said ("said, in the flat voice he used for oaths, Write it large"). */
const MANNER = String.raw`(?:(?:in|with|without)\s[^,]{1,60},\s+)?`;
/** A tag's verb with up to four words after it, a comma or colon (a phrase of manner between), the words said. */
const TAG_BEFORE = new RegExp(String.raw`^(.*?\b${TAG_VERB}(?:[\s,]+(?!nothing\b|no\b|so\b|that\b|yes\b)[\p{L}'’]+){0,4}?\s*[,:]\s+${MANNER})((?:\p{Lu}|I\b).*)$`, 'u');
/**
 * The first word of a clause after a tag that goes on telling, not saying: a participle, an adverb, a
 * conjunction, a preposition, a possessive ("he said, sitting down heavily", ", and closed it", ", his
 * voice low"). Any other clause is the speech going on ("Tomorrow, Crassus went on, the consul speaks …").
 */
const TOLD_ON = /^(?:\p{L}+(?:ing|ly|ed)|and|then|but|or|as|while|when|before|after|until|without|not|never|to|at|in|with|for|from|into|under|over|through|across|by|on|his|her|their|its|half|still|almost|very|too|quite)$/iu;
/** What the rest after a tag opens with when it is speech again: a capital, past a phrase of manner. */
const SPEECH_AGAIN = new RegExp(String.raw`^(\s*[,:]\s+${MANNER})((?:\p{Lu}|I\b).*)$`, 'u');
const COLON = /^(.*?:\s+)((\p{Lu}[\p{L}'’]*|I)\b.*)$/u;
/** Words before a colon that say speech, writing or thought follows. */
const SAYING = new RegExp(String.raw`\b(?:${TAG_VERB}|tells|told|wrote|writes|written|reads|read|words|letter|note|voice)\b`, 'i');
const FIRST_SECOND = /\b(?:me|my|mine|myself|we|us|our|ours|you|your|yours|yourself)\b/i;
const SELF = /\bI\b/;
const DASH = /^\s*[—–]\s*/;
/**
 * A clause of time or cause fronted before its main clause, in the third person: "After Terentia sets down the cup,
 * Caesar laughs." tells two deeds, and "Caesar laughs" is no tag of words said (a said-verb that is also a deed:
 * laughs, cries, shouts, answers). Words said before a tag open so too ("When the consul comes, Crassus said, I trust
 * …"), so only where nothing after the tag is speech again and nothing in the clause speaks in the first or second
 * person.
 */
const FRONTED = /^\s*(?:(?:then|and|but|so|now|just|only|even|long|soon|shortly|right|a\s+moment|moments)\s*,?\s+)*(?:after|when|whenever|as\s+soon\s+as|once|before|while|until|till|since|as|because|though|although)\s+\S/iu;
/** A fronted clause with a verb of its own ("After Terentia sets down the cup"), not a phrase ("After the vote, Crassus said."), none of it in the first or second person. */
function frontedClause(said: string): boolean {
  return FRONTED.test(said) && !FIRST_SECOND.test(said) && !SELF.test(said) && termsOf(said).slice(1).some((t) => t.tags.includes('PresentTense') || t.tags.includes('PastTense'));
}
/** Words that may open a sentence of narration before its subject. */
const LEAD = /^(?:then|and|but|so|now|when|as|while|still)$/i;

function speaks(s: string): boolean {
  return FIRST_SECOND.test(s) || SELF.test(s);
}

const quote = (s: string) => {
  const m = /^(\s*)(.*?)(\s*)$/su.exec(s)!;
  return m[2] ? `${m[1]}“${m[2]}”${m[3]}` : s;
};

export function speechMarks(isPerson: (word: string) => boolean): SpeechMarks {
  const person = (w: string | undefined) => !!w && isPerson(w.replace(/['’]s?$/, ''));
  /**
   * Whether a sentence opens on a third person (he, she, they, his, her, their, or a name), as narration
   * does; not when the speech's tag was told in the past and this is in the present, as speech is
   * ("The consul's informant is Fulvia, Murena said. She carries …").
   */
  const thirdOpen = (s: string, tagTense: Tense | null): boolean => {
    const words = s.replace(DASH, '').match(/[\p{L}'’]+/gu) ?? [];
    const at = LEAD.test(words[0] ?? '') ? 1 : 0;
    const first = words[at];
    if (!first || !(/^(?:he|she|they|his|her|their)$/i.test(first) || person(first))) return false;
    return !(tagTense === 'past' && formTense(words[at + 1] ?? '') === 'present');
  };
  const tagged = (s: string) => TAG_AFTER.test(s) || TAG_BEFORE.test(s);
  /** The tense of a tag's verb ("said": past), for thirdOpen. */
  const tenseOf = (tag: string): Tense | null => {
    for (const w of tag.match(/\p{L}+/gu) ?? []) {
      const t = TAG_WORD.test(w) ? formTense(w) : null;
      if (t) return t;
    }
    return null;
  };
  let tagTense: Tense | null = null;

  /** One sentence: its text with its speech quoted, and whether speech runs on after it. */
  function sentence(s: string, speaking: boolean, near: boolean): { text: string; speaking: boolean } {
    const after = TAG_AFTER.exec(s);
    if (after) {
      const [, said, stop, tag, rest] = after as unknown as [string, string, string, string, string];
      const again = SPEECH_AGAIN.exec(rest);
      const clause = /^(\s*,\s+)(([\p{L}'’]+).*)$/su.exec(rest);
      const more = again ? `${again[1]}${quote(again[2]!)}` : clause && (speaks(rest) || !TOLD_ON.test(clause[3]!)) ? clause[1] + quote(clause[2]!) : rest;
      const dash = said.match(DASH)?.[0] ?? '';
      // A fronted clause and a deed (frontedClause) falls through: narration, unless read as speech below.
      if (!(more === rest && stop === ',' && frontedClause(said))) return (tagTense = tenseOf(tag)), { text: `${dash}${quote(said.slice(dash.length) + stop)}${tag}${more}`, speaking: true };
    }
    const before = TAG_BEFORE.exec(s);
    if (before) {
      tagTense = tenseOf(before[1]!);
      return { text: before[1] + quote(before[2]!), speaking: true };
    }
    const colon = COLON.exec(s);
    if (colon && !person(colon[3]) && colon[3] !== colon[3]!.toUpperCase() && (SAYING.test(colon[1]!) || speaks(colon[2]!))) return { text: colon[1] + quote(colon[2]!), speaking: true };
    if (DASH.test(s)) return { text: s.match(DASH)![0] + quote(s.replace(DASH, '')), speaking: true };
    const third = thirdOpen(s, tagTense);
    if (speaking ? !third || speaks(s) : near && !third && (speaks(s) || /\?\s*$/.test(s))) return { text: quote(s), speaking: true };
    return { text: s, speaking: false };
  }

  let ended = false;
  let seen = false;
  return {
    paragraph(sentences) {
      // Speech runs on inside a paragraph; a new one opens speaking again only on words that speak, once the scene
      // has shown a tag (before its first, a line in the first person may be a narrator's).
      seen ||= sentences.some(tagged);
      const near = ended || seen;
      let speaking = false;
      tagTense = null;
      const out = sentences.map((s, i) => {
        // "Why?" before "said Clodius.": the question is the words said, and the tag's sentence gets an empty
        // quotation before it, so that the readers take its name for the speaker.
        if (/[?!…]\s*$/.test(s) && TAG_ALONE.test(sentences[i + 1] ?? '')) {
          speaking = true;
          return quote(s);
        }
        if (i > 0 && /[?!…]\s*$/.test(sentences[i - 1]!) && TAG_ALONE.test(s)) {
          tagTense = tenseOf(s);
          return `“” ${s.trimStart()}`;
        }
        const r = sentence(s, speaking, near);
        speaking = r.speaking;
        return r.text;
      });
      ended = speaking;
      return out;
    },
  };
}

/**
 * Whether a scene that sets its dialogue with no quotation marks ends on words said ("You have given me nothing,
 * she says to Crassus, and he thinks you have given me everything. …": held-out corpus 107, db12): a last line of
 * dialogue is a button whatever its length, as one in quotation marks is (rules/voice.ts hookRule).
 */
export function endsSpeaking(lines: readonly { text: string }[], isPerson: (word: string) => boolean): boolean {
  if (!unquotedDialogue(lines)) return false;
  const marks = speechMarks(isPerson);
  let last: readonly string[] = [];
  for (const l of lines) last = marks.paragraph(sentencesOf(l.text));
  return /”\s*$/.test(last.at(-1) ?? '');
}
