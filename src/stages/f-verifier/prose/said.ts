/**
 * The verbs of a said-tag, in the present the Writer is asked for and in the past a real model tells
 * most scenes in ('"Sit down," Cicero murmured': a past-tense tag was read as a speaker only for
 * "said" until session 23, so an uncast man's murmured line in a past-tense scene put nobody on
 * stage). One list for every reader of who speaks: the speaker of a line (reader.ts, whose reading
 * the asker of a handing in receiver.ts uses) and a quotation's tag in talk of money (money.ts).
 *
 * "calls" stays present only: "called" names more often than it speaks ("a freedman called Tiro").
 */
const FORMS = [
  'says', 'said', 'asks', 'asked', 'replies', 'replied', 'answers', 'answered', 'mutters', 'muttered',
  'whispers', 'whispered', 'murmurs', 'murmured', 'adds', 'added', 'snaps', 'snapped', 'growls', 'growled',
  'shouts', 'shouted', 'cries', 'cried', 'laughs', 'laughed', 'calls',
];

/** A said-tag's verb, as a regular expression source (a non-capturing group, no word boundaries). */
export const SAID_VERB = `(?:${FORMS.join('|')})`;

/**
 * The past "called" as a said-tag's verb (held-out corpus 127, dw20: '"You're wasting your breath, Publius," Varo called
 * from the door of his warehouse'): only where nothing follows it but the clause's end, an adverb or a word of where
 * the voice goes ("called out", "called from the door", "called across the yard", "called to him", "called back").
 * The naming and the summoning senses take an object after it ("a freedman called Tiro", "what they called the
 * Subura", "called him a fool", "called the steward"), so they never fit. Before the speaker ('"…," called Varo') it
 * is read only right after a quotation (reader.ts), where "called Tiro" cannot name.
 */
export const CALLED_TAG = String.raw`called(?=\s*(?:$|[,.;:!?—–"“”])|\s+(?:[a-z]+ly\s+)?(?:out|from|across|to|back|up|down|over|after|through|along|into)\b)`;

/**
 * A tag whose verb takes the hearer ("tells the praetor", "told her", "asked Crassus"): said after its speaker only,
 * as the name after it is who hears ('"Sell it," Curius told Fulvia': Curius speaks; '"Sell it," he told her': he
 * does), never before it: a name may follow "says" as its speaker ('says Cato'), but "told Fulvia" never makes
 * Fulvia the speaker. A regular expression source for the `u` flag (with `i` too, the hearer is any word).
 */
export const TOLD = String.raw`(?:tells|told|asks|asked)\s+(?:him|her|them|me|us|the\s+\p{Ll}+|\p{Lu}\p{Ll}+)`;
