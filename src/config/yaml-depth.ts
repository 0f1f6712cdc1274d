import { Parser, type CST } from 'yaml';

/**
 * aureus.config.yaml nests four levels (models.overrides.<stage>.<key>); deeper than this is
 * refused before the document is composed. yaml's composer (and toJS) recurse once per level: an
 * unclosed `{a: ` repeated 1,000 times overflowed the stack, which yaml reported as a "YAML syntax
 * error: Maximum call stack size exceeded" among 800 copies of another error at the same place.
 */
export const MAX_CONFIG_DEPTH = 64;

/**
 * The offset of the first collection nested deeper than `max`, or null. yaml's CST parser keeps
 * its own stack (it read 250,000 unclosed levels), and the walk here keeps an explicit one too, so
 * neither depends on the call stack.
 */
export function firstTooDeep(text: string, max = MAX_CONFIG_DEPTH): number | null {
  const stack: [CST.Token | undefined, number][] = [];
  for (const top of new Parser().parse(text)) {
    stack.push([top, 0]);
    while (stack.length) {
      const [t, depth] = stack.pop()!;
      if (!t) continue;
      if (t.type === 'document') {
        stack.push([t.value, depth]);
        continue;
      }
      if (t.type !== 'block-map' && t.type !== 'block-seq' && t.type !== 'flow-collection') continue;
      if (depth + 1 > max) return t.offset;
      for (const item of t.items as { key?: CST.Token | null; value?: CST.Token }[]) {
        if (item.key) stack.push([item.key, depth + 1]);
        if (item.value) stack.push([item.value, depth + 1]);
      }
    }
  }
  return null;
}
