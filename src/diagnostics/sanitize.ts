/**
 * What reaches a reader's terminal from data Aureus does not control (world files, model and
 * server answers) is made safe at the one place messages are formatted:
 * - control and invisible characters are shown escaped (`\x1b`, `\u202e`, `\u200b`), so a hostile id
 *   or name cannot drive the terminal (colours, cursor moves, title changes, bidi reordering) and
 *   an invisible one is seen (escapeControl);
 * - secrets are redacted, so a server that echoes the API key in its error message never gets it
 *   printed (issue 12). This covers every provider: it works on the text, not on the provider.
 * Model text bound for a committed file has the same characters removed instead (stripControl).
 */
import { escapePointerSegment } from '../core/json-pointer.js';

// C0 controls except tab and newline, DEL, C1 controls, and the Unicode bidi overrides/isolates
// (the "Trojan Source" characters: they reorder what a reader sees in a terminal or a diff).
const STRIPPED = String.raw`\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069`;

// What a name may not hold (validation, store/limits.ts): every control character (C0 with tab and
// newline, DEL, C1), every invisible format character (bidi marks and overrides, zero-width
// characters, the BOM, soft hyphen, tag characters) and the line and paragraph separators. A name is
// one line of visible text that the terminal, the prompts and the committed script all show.
const UNSEEN = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;

/** How a message shows an unseen character: `\x1b`, `\u200b`, `\u{e0041}`. */
function shown(ch: string): string {
  const code = ch.codePointAt(0)!;
  const hex = code.toString(16);
  return code <= 0xff ? `\\x${hex.padStart(2, '0')}` : code <= 0xffff ? `\\u${hex.padStart(4, '0')}` : `\\u{${hex}}`;
}

const PICTOGRAPH_BEFORE = /\p{Extended_Pictographic}[\u{fe0f}\u{1f3fb}-\u{1f3ff}]?$/u;
const PICTOGRAPH_AFTER = /^\p{Extended_Pictographic}/u;

/**
 * A message's text with every character a name may not hold (UNSEEN) shown escaped, so a hostile id
 * or name cannot drive the terminal (colours, cursor moves, bidi reordering), and an invisible one
 * (a zero-width space, a soft hyphen, a BOM) is seen: two names that look the same and are not say
 * why ("no character \"cato\u200b\""). Two differences from the names' rule, both about layout,
 * not hiding: tab and newline stay (a message has lines), and so does a zero-width joiner between
 * two pictographs, which draws one emoji (👨‍👩‍👧), not an invisible mark.
 */
export function escapeControl(text: string): string {
  return text.replace(UNSEEN, (ch, at: number, all: string) => {
    if (ch === '\n' || ch === '\t') return ch;
    if (ch === '\u200d' && PICTOGRAPH_BEFORE.test(all.slice(Math.max(0, at - 4), at)) && PICTOGRAPH_AFTER.test(all.slice(at + 1, at + 3))) return ch;
    return shown(ch);
  });
}

/**
 * Text bound for a terminal that is not a message (world text printed by `status`, `query`, `diff`,
 * `recap`, `play`): every string of `v` escaped as messages are (escapeControl: newline and tab kept,
 * so a description keeps its lines), keys too, since ids and names are keys there. A copy; other
 * values as they are. Escaped, not stripped: a reader sees that something is there, and what.
 */
export function escapeControlIn<T>(v: T): T {
  if (typeof v === 'string') return escapeControl(v) as T;
  if (Array.isArray(v)) return v.map((x) => escapeControlIn(x)) as T;
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [escapeControl(k), escapeControlIn(x)])) as T;
  return v;
}

/** The characters of `text` a name may not hold, each once, as escapeControl shows them (`\x1b`, `\u200b`). */
export function unseenIn(text: string): string[] {
  return [...new Set(Array.from(text.matchAll(UNSEEN), ([ch]) => shown(ch)))];
}

const STRIP = new RegExp(`[${STRIPPED}]`, 'g');
const KEPT = new RegExp(`[^${STRIPPED}]`, 'g');
/**
 * A terminal escape sequence, removed whole rather than only its ESC, as ECMA-48 (5th ed.) delimits it:
 * - a control string (§5.6): OSC `ESC ]`, DCS `ESC P`, SOS `ESC X`, PM `ESC ^` or APC `ESC _`, its
 *   printable payload, and ST `ESC \` (or BEL, which xterm and its followers accept after an OSC).
 *   The payload (`0;title`, a hyperlink's address) is part of the sequence, never shown, so it goes too.
 *   One that is never terminated loses only its opener: a terminal would swallow the rest of the text,
 *   but cleaning a file must not delete prose on a guess;
 * - CSI `ESC [` (§5.4): parameter bytes 0x30–0x3F (digits and `:;<=>?`, so `\x1b[38:2:0:0:0m` and
 *   `\x1b[>c` go whole), intermediate bytes 0x20–0x2F, one final byte 0x40–0x7E;
 * - any other Fe escape (§5.3): ESC and one byte 0x40–0x5F, the 7-bit form of a C1 control. An ESC
 *   before a capital letter is one (`ESC N` is SS2, `ESC M` is RI, `ESC D` is IND): a terminal takes
 *   the letter as part of the control and never shows it, so stray ESC + `N` in `\x1bNone` removes
 *   the `N` as well. Deliberate: the letter is what a reader of that text in a terminal would not have
 *   seen, and the 8-bit form of the same control (U+008E) is removed whole by STRIPPED alike.
 * ESC before anything else (a lower-case letter, a digit, a space) starts no Fe escape, so only the
 * ESC goes: the Fs/Fp/nF escapes those begin (`ESC c`, `ESC 7`, `ESC ( B`) are harmless once their ESC is gone.
 */
// eslint-disable-next-line no-control-regex
export const ANSI = /\u001b\][ -~\u00a0-\uffff]*(?:\u0007|\u001b\\)|\u001b[PX^_][ -~\u00a0-\uffff]*\u001b\\|\u001b\[[0-?]*[ -/]*[@-~]|\u001b[@-_]/g;

/** A text with its control and bidi characters removed, and which ones were (`\u001b`, once each, in order met). */
export interface Stripped {
  text: string;
  removed: string[];
}

/**
 * Model-written text bound for a committed file (canon, the episode script, the plan): the
 * characters of STRIPPED (and the rest of an escape sequence an ESC starts) removed, not escaped,
 * since the file is read as text, not as a message. Newline and tab stay (fields that allow them keep their lines). Ordinary non-ASCII text
 * (macrons, dashes, Greek, emoji) is untouched.
 */
export function stripControl(text: string): Stripped {
  const removed = new Set<string>();
  // A sequence keeps its control characters (ESC, BEL) until STRIP, so `removed` names them.
  const out = text.replace(ANSI, (seq) => seq.replace(KEPT, '')).replace(STRIP, (ch) => {
    removed.add(`\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
    return '';
  });
  return { text: out, removed: [...removed] };
}

/**
 * stripControl over every string of a parsed JSON value (a copy; keys and other values as they
 * are); `report` is told each string's JSON pointer below `at` and what was removed from it.
 */
export function stripControlIn(v: unknown, at: string, report: (field: string, removed: string[]) => void): unknown {
  if (typeof v === 'string') {
    const s = stripControl(v);
    if (s.removed.length) report(at, s.removed);
    return s.text;
  }
  if (Array.isArray(v)) return v.map((x, i) => stripControlIn(x, `${at}/${i}`, report));
  if (typeof v === 'object' && v !== null) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, stripControlIn(x, `${at}/${escapePointerSegment(k)}`, report)]));
  }
  return v;
}

/** Anthropic-style keys anywhere in a text, even one we were not told about (a key from a config file). */
const KEY_PATTERN = /sk-ant-[A-Za-z0-9_-]{8,}/g;
export const REDACTED = '[REDACTED]';

/** The secrets of an environment worth redacting: the provider API keys that are set. */
export function secretsOf(env: NodeJS.ProcessEnv): string[] {
  return Object.entries(env)
    .filter(([k, v]) => /(^|_)(API_KEY|AUTH_TOKEN|SECRET)$/.test(k) && typeof v === 'string' && v.length >= 8)
    .map(([, v]) => v as string);
}

export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 8) out = out.split(s).join(REDACTED);
  return out.replace(KEY_PATTERN, REDACTED);
}
