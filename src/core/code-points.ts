/**
 * `text` at most `max` characters long, counted in code points as a reader counts them and as the
 * schemas' maxLength does (an emoji is one), so a cut never splits a surrogate pair: a UTF-16
 * `.slice` left a lone surrogate in a committed file. `length` is the text's length before the cut.
 * One module for the cut: play's typed lines and /notes, and `aureus note`, all cut here.
 */
export function cutCodePoints(text: string, max: number): { text: string; length: number; cut: boolean } {
  // Under max UTF-16 units is under max code points: no need to split the text.
  if (text.length <= max) return { text, length: [...text].length, cut: false };
  const chars = [...text];
  return chars.length > max ? { text: chars.slice(0, max).join(''), length: chars.length, cut: true } : { text, length: chars.length, cut: false };
}
