/**
 * A writer's closing note at the tail of SCENE_TEXT (prose audit, session 41, finding 7): real models
 * end the scene, then talk to the user about it before the next section: a `---` rule and
 * "**Note:** I avoided modern words such as "clock"…", "*(Author's note: the packet says … so I left
 * that out.)*", "[Word count: ~90 | Beats covered: …]", "Let me know if you'd like it longer." Read as
 * scene text, such a note trips the rules (the anachronisms it lists, the secret it says it left out)
 * and would be committed into the script. It is dropped here, like a preamble, and recorded.
 *
 * Conservative by construction: only a trailing run of paragraphs, each plainly addressed to the user
 * or about the writing (a note label, or an address to the reader together with a word about the
 * writing), a list under them, or a rule before them. A line of speech (quoted, or a speaker's cue),
 * narration that merely uses such a word, or a scene break followed by narration is never a note.
 */

/** A rule line: a thematic break or a scene break (`---`, `***`, `* * *`, `___`). */
const RULE = /^[ \t]*(?:([-*_])[ \t]*){3,}$/;
/** A markdown list item (a checklist of beats under a "Notes:" label). */
const LIST_ITEM = /^[ \t]*(?:[-*+•]|\d{1,2}[.)]|\[[ xX✓]?\])[ \t]+\S/;
/** Decoration a model puts before a note's label: emphasis, an opening bracket or parenthesis. */
const LEAD = String.raw`^[ \t]*(?:[*_]{1,3}[ \t]*)?[([]?[ \t]*(?:[*_]{1,3}[ \t]*)?`;
/**
 * Labels that only ever open a note about the writing: whatever follows them is about the scene,
 * never in it ("Word count: ~90", "Beats covered:", "Author's note:", "P.S.").
 */
const STRONG = new RegExp(
  `${LEAD}(?:(?:author|writer|editor|translator)['’]?s[ \\t]+notes?|notes?[ \\t]+(?:to|for)[ \\t]+(?:the[ \\t]+)?(?:reader|editor|director|you)|(?:approximate[ \\t]+)?word[ \\t-]*count|beats?[ \\t]+(?:covered|hit|used|included)|self[ \\t-]*check|checklist|revision[ \\t]+notes?|continuity[ \\t]+notes?)[ \\t]*(?:[*_]{1,3}[ \\t]*)?(?:[:—–|]|[ \\t]-[ \\t]|\\)|\\]|$)|${LEAD}(?:p\\.[ \\t]?s|n\\.[ \\t]?b)\\.[ \\t]*(?:[*_]{1,3})?[ \\t:]`,
  'i',
);
/**
 * A plain "Note:" / "Notes —" label: a note unless what follows it opens a quotation (an insert of a
 * written note: `Note: "Meet me at the Temple of Saturn."`).
 */
const NOTE_LABEL = new RegExp(`${LEAD}(?:a[ \\t]+)?notes?[ \\t]*(?:[*_]{1,3}[ \\t]*)?(?::|[ \\t]*[—–][ \\t]*)[ \\t]*(?:[*_]{1,3}[ \\t]*)?(.*)$`, 'i');
/** A line of speech: it opens on a quotation mark or an em dash, or with a speaker's cue (`> CATO:`, `**CATO:**`, `CATO:`, a cue alone in capitals). */
const SPEECH = /^[ \t]*(?:["“”'‘’«»—]|>|\*\*[\p{Lu}][\p{Lu} .'’-]*(?:\([^)]*\))?[ \t]*:?\*\*|[\p{Lu}][\p{Lu} .'’-]{1,40}(?:\([^)]*\))?[ \t]*(?::|$))/u;
/**
 * The writer offering the user something: a reply asked for, a revision offered. Needs a word about
 * the writing beside it (META): "Let me know if the grain arrives" is a line of a scene, "Let me know
 * if you'd like it longer" is not.
 */
const OFFER = new RegExp(
  [
    String.raw`\blet me know\b`,
    String.raw`\bfeel free\b`,
    String.raw`\b(?:i['’]?d be|i am|i['’]m) (?:happy|glad) to\b`,
    String.raw`\bif you(?: would|['’]d)? (?:like|prefer|want)\b`,
    String.raw`\bif you['’]d rather\b`,
    String.raw`\bwould you (?:like|prefer)\b`,
    String.raw`\bi (?:can|could|will|['’]ll|would|['’]d) (?:also |happily |gladly )?(?:expand|revise|adjust|shorten|lengthen|rewrite|tweak|extend|redo|trim|tighten)\b`,
  ].join('|'),
  'i',
);
/** An offer that is about the writing by itself: "I hope this helps", "Would you like me to expand it?" */
const OFFER_ALONE = /\bi hope (?:this|that|it) helps\b|\b(?:would you like|do you want|want) me to (?:expand|revise|adjust|shorten|lengthen|rewrite|tweak|extend|redo|trim|tighten|continue|write)\b/i;
/** A word about the writing rather than the story. */
const META = /\b(?:scene|packet|beats?|draft|versions?|word ?count|words|revis(?:e|ion|ions)|expand(?:ed)?|longer|shorter|length|tone|pacing|brief|prompt|instructions|claims|scene_events|deltas|anachronis(?:m|ms|tic)|dialogue|format|changes|tweaks|adjustments|edits|rewrite|screenplay)\b/i;
/**
 * The writer's account of what they did, "I" with a verb of writing ("I avoided modern words", "I've
 * kept the scene to ninety words"). A scene may be narrated in the first person ("I kept the tablet"),
 * so this needs a word that only the writing has (WRITING), not merely "words" or "changes".
 */
const ACCOUNT = /\bi(?:['’]ve| have)? (?:deliberately |also |carefully |intentionally |tried to |have )?(?:avoided|kept|included|omitted|left out|left (?:it|that|this|them) out|stuck to|followed|made sure|aimed|focused|chose|went with|trimmed|covered|steered)\b/i;
const WRITING = /\b(?:the packet|beats?|draft|word ?count|\d+ words|(?:hundred|ninety|eighty|seventy|sixty|fifty|thousand) words|modern words|anachronis(?:m|ms|tic)|(?:this|the) scene(?:['’]s)? (?:to|at|under|within|short|tight|length|focused)|the brief|the prompt|the instructions|scene_events|the claims|the tone|the pacing)\b/i;

/** Paragraphs of the text: split at blank lines, and around a rule line (a rule is its own paragraph). */
function paragraphs(lines: string[]): { from: number; to: number }[] {
  const out: { from: number; to: number }[] = [];
  let from = -1;
  const close = (to: number) => {
    if (from >= 0) out.push({ from, to });
    from = -1;
  };
  lines.forEach((l, i) => {
    if (!l.trim()) return close(i);
    if (RULE.test(l)) {
      close(i);
      out.push({ from: i, to: i + 1 });
      return;
    }
    // A note label opens its own paragraph even right under the last line of the scene.
    if (from >= 0 && labelled(l)) close(i);
    if (from < 0) from = i;
  });
  close(lines.length);
  return out;
}

function labelled(line: string): boolean {
  if (STRONG.test(line)) return true;
  const m = NOTE_LABEL.exec(line);
  return !!m && !/^["“'‘«]/.test(m[1]!.trim());
}

/** A paragraph plainly addressed to the user about the writing. */
function isNote(par: string[]): boolean {
  if (labelled(par[0]!)) return true;
  if (SPEECH.test(par[0]!)) return false;
  // What is quoted inside the paragraph is someone's speech (or a word the note cites): not the writer's address.
  const text = par.join(' ').replace(/"[^"]*"|“[^”]*”/g, ' ');
  return OFFER_ALONE.test(text) || (OFFER.test(text) && META.test(text)) || (ACCOUNT.test(text) && WRITING.test(text));
}

export interface ClosingNote {
  /** The text without the note (and without the rule and blank lines before it). */
  text: string;
  /** How many lines that are not blank were dropped. */
  dropped: number;
  /** The note's first line, as written (not the rule before it). */
  quote: string;
}

/**
 * The scene text with a trailing writer's note dropped, or null when it ends in the scene. The note
 * starts at the earliest note paragraph of the trailing run of note, list and rule paragraphs (a rule
 * or a list before it is dropped with it only when the run opens on a rule); something of the scene
 * must remain before it.
 */
export function dropClosingNote(text: string): ClosingNote | null {
  const lines = text.split('\n');
  const pars = paragraphs(lines);
  const body = (p: { from: number; to: number }) => lines.slice(p.from, p.to);
  const kind = (p: { from: number; to: number }) => {
    const b = body(p);
    if (b.length === 1 && RULE.test(b[0]!)) return 'rule';
    if (isNote(b)) return 'note';
    return b.every((l) => LIST_ITEM.test(l) || /^[ \t]{2,}\S/.test(l)) ? 'list' : 'scene';
  };
  const kinds = pars.map(kind);
  let run = kinds.length;
  while (run > 0 && kinds[run - 1] !== 'scene') run--;
  const first = kinds.indexOf('note', run);
  if (first < 0) return null;
  const start = kinds[run] === 'rule' ? run : first;
  // Nothing of the scene would remain: the "note" is the scene, or the answer is all note; leave it to the rules.
  if (start === 0 || run === 0) return null;
  const cut = pars[start]!.from;
  let end = cut;
  while (end > 0 && !lines[end - 1]!.trim()) end--;
  return { text: lines.slice(0, end).join('\n'), dropped: lines.slice(cut).filter((l) => l.trim()).length, quote: lines[pars[first]!.from]! };
}
