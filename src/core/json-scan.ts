/**
 * Where a JSON value that opens at `open` ends in a text that goes on after it (a model's answer: a
 * trailing note, brackets and all): the index just past its closing bracket, or -1 when the text ends
 * first. Bracket matching only, strings and escapes respected; JSON.parse and jsonrepair read the value.
 * Strict (the default) also gives -1 at a closer of the wrong kind (`[1, 2}`): the Writer's sections are
 * then repaired whole. `lenient` counts brackets of either kind, for finding candidates in prose.
 */
export function valueEnd(s: string, open: number, o: { lenient?: boolean } = {}): number {
  const stack: string[] = [];
  let inString = false;
  for (let i = open; i < s.length; i++) {
    const ch = s[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '[' || ch === '{') stack.push(ch === '[' ? ']' : '}');
    else if (ch === ']' || ch === '}') {
      if (stack.pop() !== ch && !o.lenient) return -1;
      if (!stack.length) return i + 1;
    }
  }
  return -1;
}
