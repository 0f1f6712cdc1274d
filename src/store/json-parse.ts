/**
 * A strict JSON parser that reports what JSON.parse cannot: the line and column of a syntax
 * error (Node 20's messages carry no position), duplicate keys (JSON.parse silently keeps the
 * last one) and prototype-polluting keys. Forbidden keys are reported and left out of the value,
 * so no caller ever sees an own `__proto__` property. Pure: text in, value + findings out.
 */

export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Deeper nesting than this is refused instead of overflowing the stack. */
export const MAX_DEPTH = 256;

export interface JsonPosition {
  offset: number;
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units. */
  column: number;
}

export interface JsonSyntaxError extends JsonPosition {
  message: string;
}

export interface JsonKeyFinding extends JsonPosition {
  kind: 'forbidden' | 'duplicate';
  key: string;
  /** RFC 6901 pointer of the offending member. */
  pointer: string;
}

export type JsonParseResult =
  | { ok: true; value: unknown; keys: JsonKeyFinding[] }
  | { ok: false; error: JsonSyntaxError; keys: JsonKeyFinding[] };

/** RFC 6901 escaping of one pointer segment. */
export function escapePointerSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function pointerOf(segments: readonly (string | number)[]): string {
  return segments.map((s) => '/' + escapePointerSegment(String(s))).join('');
}

export function positionOf(text: string, offset: number): JsonPosition {
  return new LineIndex(text).position(offset);
}

/** Line starts, computed once, so many positions in a large file cost log(n) each. */
class LineIndex {
  private starts: number[] | undefined;
  constructor(private readonly text: string) {}
  position(offset: number): JsonPosition {
    if (!this.starts) {
      this.starts = [0];
      for (let i = 0; i < this.text.length; i++) if (this.text.charCodeAt(i) === 10) this.starts.push(i + 1);
    }
    const at = Math.min(offset, this.text.length);
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= at) lo = mid;
      else hi = mid - 1;
    }
    return { offset, line: lo + 1, column: at - this.starts[lo]! + 1 };
  }
}

/** At most this many key findings are kept (a hostile file could hold millions). */
export const MAX_KEY_FINDINGS = 100;

class Fail {
  constructor(
    readonly message: string,
    readonly offset: number,
  ) {}
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

function describe(text: string, at: number): string {
  if (at >= text.length) return 'the end of the file';
  const c = text[at]!;
  if (c === '\n' || c === '\r') return 'a line break';
  return JSON.stringify(c);
}

class Parser {
  pos = 0;
  readonly keys: JsonKeyFinding[] = [];
  readonly lines: LineIndex;
  constructor(private readonly text: string) {
    this.lines = new LineIndex(text);
  }

  private finding(kind: JsonKeyFinding['kind'], key: string, pointer: string, at: number): void {
    if (this.keys.length < MAX_KEY_FINDINGS) this.keys.push({ kind, key, pointer, ...this.lines.position(at) });
  }

  parse(): unknown {
    const v = this.value('', 0);
    this.ws();
    if (this.pos < this.text.length) throw new Fail(`unexpected ${describe(this.text, this.pos)} after the end of the JSON value`, this.pos);
    return v;
  }

  private ws(): void {
    const t = this.text;
    while (this.pos < t.length) {
      const c = t.charCodeAt(this.pos);
      if (c === 32 || c === 10 || c === 13 || c === 9) this.pos++;
      else break;
    }
  }

  private value(pointer: string, depth: number): unknown {
    this.ws();
    const t = this.text;
    if (this.pos >= t.length) throw new Fail('unexpected end of the file, expected a value', this.pos);
    const c = t[this.pos]!;
    if (c === '{') return this.object(pointer, depth + 1);
    if (c === '[') return this.array(pointer, depth + 1);
    if (c === '"') return this.string();
    if (c === '-' || (c >= '0' && c <= '9')) return this.number();
    for (const [word, v] of [['true', true], ['false', false], ['null', null]] as const) {
      if (t.startsWith(word, this.pos)) {
        this.pos += word.length;
        return v;
      }
    }
    if (c === "'") throw new Fail("strings must use double quotes, found ' (single quote)", this.pos);
    if (c === '}' || c === ']') throw new Fail(`unexpected ${describe(t, this.pos)}, expected a value (a trailing comma?)`, this.pos);
    throw new Fail(`unexpected ${describe(t, this.pos)}, expected a value`, this.pos);
  }

  private object(pointer: string, depth: number): Record<string, unknown> {
    if (depth > MAX_DEPTH) throw new Fail(`nesting deeper than ${MAX_DEPTH} levels`, this.pos);
    const t = this.text;
    this.pos++; // {
    const out: Record<string, unknown> = {};
    const seen = new Set<string>();
    this.ws();
    if (t[this.pos] === '}') {
      this.pos++;
      return out;
    }
    for (;;) {
      this.ws();
      if (t[this.pos] !== '"') {
        const trailing = t[this.pos] === '}' ? ' (a trailing comma?)' : '';
        throw new Fail(`expected a double-quoted key, found ${describe(t, this.pos)}${trailing}`, this.pos);
      }
      const keyAt = this.pos;
      const key = this.string();
      this.ws();
      if (t[this.pos] !== ':') throw new Fail(`expected ':' after the key "${key}", found ${describe(t, this.pos)}`, this.pos);
      this.pos++;
      const childPointer = pointer + '/' + escapePointerSegment(key);
      // Findings are recorded before the value is parsed, so they come out in document order.
      const forbidden = FORBIDDEN_KEYS.has(key);
      if (forbidden) this.finding('forbidden', key, childPointer, keyAt);
      else if (seen.has(key)) this.finding('duplicate', key, childPointer, keyAt);
      const v = this.value(childPointer, depth);
      if (!forbidden) {
        seen.add(key);
        out[key] = v;
      }
      this.ws();
      const c = t[this.pos];
      if (c === ',') {
        this.pos++;
        continue;
      }
      if (c === '}') {
        this.pos++;
        return out;
      }
      throw new Fail(`expected ',' or '}' after a member, found ${describe(t, this.pos)}`, this.pos);
    }
  }

  private array(pointer: string, depth: number): unknown[] {
    if (depth > MAX_DEPTH) throw new Fail(`nesting deeper than ${MAX_DEPTH} levels`, this.pos);
    const t = this.text;
    this.pos++; // [
    const out: unknown[] = [];
    this.ws();
    if (t[this.pos] === ']') {
      this.pos++;
      return out;
    }
    for (;;) {
      out.push(this.value(`${pointer}/${out.length}`, depth));
      this.ws();
      const c = t[this.pos];
      if (c === ',') {
        this.pos++;
        continue;
      }
      if (c === ']') {
        this.pos++;
        return out;
      }
      throw new Fail(`expected ',' or ']' after an array item, found ${describe(t, this.pos)}`, this.pos);
    }
  }

  private string(): string {
    const t = this.text;
    const start = this.pos;
    let i = start + 1;
    let escaped = false;
    for (;;) {
      if (i >= t.length) throw new Fail('unterminated string', start);
      const c = t.charCodeAt(i);
      if (c === 34) break; // "
      if (c === 92) {
        escaped = true;
        const e = t[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(t.slice(i + 2, i + 6))) throw new Fail('invalid \\u escape: expected 4 hex digits', i);
          i += 6;
          continue;
        }
        if (e === undefined || !'"\\/bfnrt'.includes(e)) throw new Fail(`invalid escape \\${e ?? ''} in a string`, i);
        i += 2;
        continue;
      }
      if (c < 0x20) throw new Fail(c === 10 ? 'line break inside a string (unterminated string?)' : 'control character inside a string', i);
      i++;
    }
    this.pos = i + 1;
    // Escapes are validated above, so JSON.parse of the literal cannot fail; it decodes them exactly.
    return escaped ? (JSON.parse(t.slice(start, i + 1)) as string) : t.slice(start + 1, i);
  }

  private number(): number {
    NUMBER.lastIndex = this.pos;
    const m = NUMBER.exec(this.text);
    if (!m || m[0] === '-') throw new Fail(`invalid number`, this.pos);
    const next = this.text[this.pos + m[0].length];
    if (next !== undefined && /[0-9.eE+\-]/.test(next)) throw new Fail(`invalid number (leading zero or malformed fraction/exponent)`, this.pos);
    this.pos += m[0].length;
    return Number(m[0]);
  }
}

/** Parse JSON text. Never throws for bad input: syntax errors come back with their position. */
export function parseJson(text: string): JsonParseResult {
  const p = new Parser(text);
  try {
    const value = p.parse();
    return { ok: true, value, keys: p.keys };
  } catch (e) {
    if (e instanceof Fail) return { ok: false, error: { message: e.message, ...p.lines.position(e.offset) }, keys: p.keys };
    throw e;
  }
}
