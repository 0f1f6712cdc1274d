import nlp from 'compromise';

/**
 * Early-modern English read as today's (held-out corpus 116, an answer in the manner of an old
 * translation of Plutarch): the readers know the verbs of giving, paying and travelling in their
 * modern forms, so "he writeth out an order … and delivereth it unto Varo, for one hundred thousand
 * denarii" paid nobody, "delivered unto Terentia a tablet" handed nothing over and "He hath ridden
 * since cockcrow from Tusculum" came from nowhere. Each archaic form is read as the one a reader
 * knows: "-eth" verbs as "-s" ("delivereth" → "delivers", "taketh" → "takes", "crieth" → "cries"),
 * "hath" / "doth" / "saith" as "has" / "does" / "says", "thou" with its "-est" verb as "you" with
 * the bare verb ("thou givest" → "you give"), "unto" as "to", "whereupon" as "then", "ere" as
 * "before", "'twas" as "it was". Only narration is rewritten, and only for reading, as plain-order.ts
 * does (the spans quote the text as written); a sentence with no archaic form is returned as it is.
 */
export function modernForms(text: string): string {
  if (!ARCHAIC.test(text)) return text;
  return text
    .replace(THOU_VERB, (_m, thou: string, verb: string) => `${cased(thou, 'you')} ${secondPerson(verb)}`)
    .replace(WORD, (w) => {
      const fixed = FIXED[w.toLowerCase().replace('’', "'")];
      if (fixed !== undefined) return cased(w, fixed);
      const eth = /^(\p{L}{2,}?)eth$/u.exec(w);
      return eth && !NOT_VERBS.has(w.toLowerCase()) ? cased(w, thirdPerson(eth[1]!.toLowerCase())) : w;
    });
}

/** Any archaic form this module reads (a cheap test first: most sentences have none). */
const ARCHAIC = /\b(?:\p{L}{2,}eth|hath|doth|dost|saith|quoth|thou|thee|thy|thine|ye|unto|whereupon|ere|hast|art|wilt|shalt|canst|didst|hadst|wast|wert)\b|['’]t(?:is|was|were)\b/iu;
const WORD = /(?<![\p{L}'’])(?:['’]t(?:is|was|were)|\p{L}+)(?![\p{L}])/giu;
/** "thou" and the verb after it ("thou givest", "Thou art"), read together. */
const THOU_VERB = /\b(thou)\s+(\p{L}+)/giu;

/** Words with one modern reading whatever their place. */
const FIXED: Record<string, string> = {
  hath: 'has', doth: 'does', saith: 'says', quoth: 'said', thee: 'you', thy: 'your', thine: 'your', ye: 'you', thou: 'you',
  seeth: 'sees', fleeth: 'flees', agreeth: 'agrees', unto: 'to', whereupon: 'then', ere: 'before', "'tis": 'it is', "'twas": 'it was', "'twere": 'it were', whilst: 'while',
};

/** "-eth" words that are no verb: ordinals ("twentieth"), "beneath", "teeth", names. */
const NOT_VERBS = new Set(['beneath', 'underneath', 'teeth', 'seth', 'beth', 'japheth', 'nazareth', 'elizabeth', 'macbeth', 'shibboleth', 'twentieth', 'thirtieth', 'fortieth', 'fiftieth', 'sixtieth', 'seventieth', 'eightieth', 'ninetieth']);

/** The verbs of "thou" with their modern form after "you". */
const SECOND: Record<string, string> = { art: 'are', hast: 'have', dost: 'do', wilt: 'will', shalt: 'shall', canst: 'can', didst: 'did', hadst: 'had', wast: 'were', wert: 'were', mayst: 'may', wouldst: 'would', couldst: 'could', shouldst: 'should', knowest: 'know' };

function secondPerson(verb: string): string {
  const lower = verb.toLowerCase();
  const known = SECOND[lower];
  if (known) return known;
  const est = /^(\p{L}{2,}?)est$/u.exec(lower);
  return est ? stem(est[1]!) : verb;
}

/** "deliver" → "delivers", "tak" → "takes", "pass" → "passes", "cri" → "cries", "putt" → "puts". */
function thirdPerson(x: string): string {
  const base = stem(x);
  if (/(?:s|sh|ch|x|z|o)$/.test(base)) return `${base}es`;
  if (/[^aeiou]y$/.test(base)) return `${base.slice(0, -1)}ies`;
  return `${base}s`;
}

/**
 * The infinitive an "-eth" or "-est" ending was joined to: the silent "e" put back where only the
 * form with it is a verb compromise knows ("tak" → "take", "writ" → "write"), a doubled final
 * consonant undone the same way ("putt" → "put"), "i" back to "y" ("cri" → "cry").
 */
function stem(x: string): string {
  if (x.endsWith('i')) return `${x.slice(0, -1)}y`;
  const undoubled = /([b-df-hj-np-tv-z])\1$/.test(x) ? [x.slice(0, -1)] : [];
  // A verb first ("ow" is an interjection, "owe" the verb), then any word compromise knows.
  for (const known of [isVerb, (w: string) => lexicon()[w] !== undefined]) {
    const hit = [x, `${x}e`, ...undoubled].find(known);
    if (hit) return hit;
  }
  return x;
}

const lexicon = (): Record<string, unknown> => (nlp.model() as { one: { lexicon: Record<string, unknown> } }).one.lexicon;
const isVerb = (w: string): boolean => lexicon()[w] === 'Infinitive';

/** `modern` spelt with `w`'s first capital ("Whereupon" → "Then"). */
function cased(w: string, modern: string): string {
  return /^['’]?\p{Lu}/u.test(w) ? modern[0]!.toUpperCase() + modern.slice(1) : modern;
}
