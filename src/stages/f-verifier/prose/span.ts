/** A finding's quoted span: the sentence and its line; text outside the scene (a claim, an event) has line 0 and no span. */
export function spanOf(s: { line: number; text: string }): { line: number; text: string } | undefined {
  return s.line > 0 ? { line: s.line, text: s.text } : undefined;
}
