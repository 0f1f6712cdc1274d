/**
 * A dead man's body lying somewhere is not the dead man acting: "Catiline, who was carried home,
 * lies in the next room" says where his body is. These tell the words after a name that say only
 * where or how a body lies from the deeds that share its verbs: telling lies ("lies to the
 * senate", "lies about the money"), lying in wait or low, resting a hand on something.
 */

/** A body's verb: it lies, rests or sleeps, is lying or resting, is laid out or buried. */
const BODY_VERB = /^\s*(?:\w+ly\s+)?(?:lies|lay|rests|sleeps|is (?:lying|resting|sleeping|laid out|stretched out|buried))\b/i;
/** How long a body lies: "for hours", "for three days", "through the night", "all night". */
const SPAN = String.raw`(?:for\s+(?:(?:a|an|the|many|some|several|few|two|three|four|five|six|seven|eight|nine|ten|whole|long)\s+){0,3}(?:moments?|hours?|days?|nights?|weeks?|months?|years?|while|time|ever|long)|(?:through|all)\s+(?:the\s+)?(?:night|day|morning|afternoon|evening|hours|dark|heat))\b`;
/** Lying that is a deed: telling lies (to, about, for someone, through his teeth), lying in wait, lying low; not lying for a time. */
export const LYING_DEED = new RegExp(String.raw`^\s*(?:\w+ly\s+)?(?:lies|lay|is lying)\s+(?!${SPAN})(?:to|about|in wait|low|for|through)\b`, 'i');
/** What follows a body's verb: a pause or the end, where it lies, how (dead, still, in state) or how long; not an object ("rests his hand"). */
const BODY_HOW = new RegExp(String.raw`^(?:\s*(?:[,.;:!?—–]|$)|\s+(?:in|on|at|upon|beneath|under|below|among|by|beside|across|along|inside|within|behind|there|here|where|dead|still|cold|stiff|silent|unburied|buried|face|stretched|wrapped|covered|alone|quiet|yet)\b|\s+${SPAN})`, 'i');

/** The words after a body's verb when `after` (the words after a name) begins with one that says where or how a body lies; else null. */
export function bodyRest(after: string): string | null {
  const v = BODY_VERB.exec(after);
  if (!v || LYING_DEED.test(after)) return null;
  const rest = after.slice(v[0].length);
  return BODY_HOW.test(rest) ? rest : null;
}
