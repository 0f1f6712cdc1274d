import { Allow, parse as parsePartial } from 'partial-json';
import type { LlmTextSink } from '../ports/llm.js';
import { stripControl } from '../diagnostics/sanitize.js';
import { extractDirectives } from './directives.js';

/**
 * A model turn's line as it arrives (issue 15: "a model turn streams its dialogue as it arrives").
 * The Actor answers in JSON, so the raw stream is a growing, unfinished JSON object (maybe behind a
 * preamble or a ```json fence). Each time text arrives, the unfinished object is read by a partial
 * JSON parser (partial-json: an unfinished string is read as far as it goes, escapes included) for
 * `action` and `dialogue`; the visible
 * line so far, `CUE: *action* "dialogue…`, is rendered exactly as the final line is (renderAnswer),
 * and only its new part is told to `show`.
 *
 * What is held back, so nothing shown has to be taken back: the last, possibly unfinished word; an
 * opened `[` that may still become a directive (directives never reach the user, not even for a
 * moment); and the action until the dialogue has started after it (the schema asks for the action
 * first). A stream that restarts (a retry, a re-ask) starts over with `reset`. When the answer is
 * complete, `finish` tells the rest of the final line if it continues what was shown; otherwise the
 * caller's renderer replaces the shown line with the final one (message_complete is the authority).
 */
export class LineStream implements LlmTextSink {
  private raw = '';
  private shown = '';
  private reset = false;

  constructor(
    private readonly cue: string,
    private readonly show: (delta: string, reset: boolean) => void,
  ) {}

  text(delta: string): void {
    this.raw += delta;
    const line = visibleLine(this.raw, this.cue);
    if (line === null || line.length <= this.shown.length || !line.startsWith(this.shown)) return;
    this.tell(line.slice(this.shown.length));
    this.shown = line;
  }

  restart(): void {
    this.raw = '';
    if (this.shown) this.reset = true;
    this.shown = '';
  }

  /** The final line: tell what is left of it, when it continues what was shown. */
  finish(content: string): void {
    if (this.shown && content.startsWith(this.shown) && content.length > this.shown.length) this.tell(content.slice(this.shown.length));
  }

  /** Whether anything was shown (a provider that does not stream never calls text()). */
  get streamed(): boolean {
    return this.shown.length > 0;
  }

  private tell(delta: string): void {
    this.show(delta, this.reset);
    this.reset = false;
  }
}

const DIRECTIVE_HEAD = '[DIRECTIVE:';

/** The stable visible line so far, or null when nothing can be shown yet. */
export function visibleLine(raw: string, cue: string): string | null {
  const f = partialFields(raw);
  if (!f || f.dialogue === undefined) return null;
  // Control characters, terminal escapes and bidi overrides go before anything reaches the screen,
  // as the final answer loses them (actor.ts): streamed text is written to the terminal as it is.
  const dialogue = stableWords(withoutDirectives(stripControl(f.dialogue).text));
  if (!dialogue) return null;
  const action = f.actionFirst && f.action ? extractDirectives(stripControl(f.action).text).clean : '';
  return `${cue}: ${action ? `*${action}* ` : ''}"${dialogue}`;
}

/** `action` and `dialogue` of an unfinished JSON answer; `actionFirst` when the action came (whole) before the dialogue. */
export function partialFields(raw: string): { action?: string; dialogue?: string; actionFirst: boolean } | null {
  const start = raw.indexOf('{');
  if (start < 0) return null;
  let v: unknown;
  try {
    v = parsePartial(raw.slice(start), Allow.ALL);
  } catch {
    return null; // mid-escape or mid-key: the next piece will do
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
  const o = v as Record<string, unknown>;
  const str = (x: unknown) => (typeof x === 'string' ? x : undefined);
  const keys = Object.keys(o);
  return { action: str(o.action), dialogue: str(o.dialogue), actionFirst: keys.indexOf('action') >= 0 && keys.indexOf('action') < keys.indexOf('dialogue') };
}

/** Directives removed; an opened `[` that may still become one is cut with what follows. */
function withoutDirectives(text: string): string {
  const open = text.lastIndexOf('[');
  let t = text;
  if (open >= 0 && !text.includes(']', open)) {
    const tail = text.slice(open).toUpperCase();
    if (DIRECTIVE_HEAD.startsWith(tail) || tail.startsWith(DIRECTIVE_HEAD)) t = text.slice(0, open);
  }
  return extractDirectives(t).clean;
}

/** Up to the last whitespace: the word being written may still change. */
function stableWords(text: string): string {
  const cut = Math.max(text.lastIndexOf(' '), text.lastIndexOf('\n'));
  return cut > 0 ? text.slice(0, cut) : '';
}
