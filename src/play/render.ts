import { plural } from '../core/readable.js';
import type { Diagnostic } from '../diagnostics/index.js';
import { escapeControl } from '../diagnostics/sanitize.js';
import type { PlayEvent, PlayNotice } from './types.js';

/**
 * What the user sees for each event. Text: the rendered line only (`CUE: *action* "dialogue"`);
 * --json: one seed-000 stream event per line. Neither ever contains the brief: events carry no
 * brief field, and the Actor's fields were stripped of directives before the event was built.
 */
export function renderText(e: PlayEvent): { out?: string; err?: string } {
  switch (e.type) {
    case 'chunk':
      return {};
    case 'message_complete':
      return { out: `${e.content}\n` };
    case 'notice':
      // The hint under the notice, as a warning's is printed (cli/io.ts), and as --json gives it.
      return { err: `aureus: ${e.message}\n${e.hint && !e.message.includes(e.hint) ? `  hint: ${e.hint}\n` : ''}` };
    case 'canonized': {
      const same = e.unchanged.length ? `; unchanged ${e.unchanged.join(', ')} (nothing to write: already so, or kept as the scene's word)` : '';
      const head = e.commit
        ? `\n[canon] commit ${e.commit.slice(0, 10)}: accepted ${e.accepted.join(', ') || 'none'}; rejected ${Object.entries(e.rejected).map(([k, v]) => `${k} (${v})`).join(', ') || 'none'}${same}\n`
        : e.unchanged.length
          ? `\n[canon] ${e.unchanged.join(', ')}: no change to the world (already so, or kept as the scene's word); nothing to commit\n`
          : `\n[canon] nothing to canonize\n`;
      // Findings about the scene that bind no proposal: the user still sees what stage F found.
      return { out: head + e.scene_findings.map((f) => `[canon] scene finding (no proposal rejected): ${f}\n`).join('') };
    }
    case 'episode_complete': {
      const ev = e.evaluation;
      const lines = [
        '',
        `— Scene complete (${e.trigger}) —`,
        `Evaluation: ${ev.summary}`,
        'Key moments:',
        ...(ev.key_moments.length ? ev.key_moments.map((m) => `  - ${m}`) : ['  (none)']),
        `Your play style: ${ev.play_style}`,
        'What changed:',
        ...ev.world_changes.map((c) => `  - ${c}`),
        `Next: ${e.next_suggestion.command}  (${e.next_suggestion.reason})`,
      ];
      return { out: lines.join('\n') + '\n' };
    }
    case 'done':
      return { out: `\nsession ${e.session} saved (${e.turns} ${plural(e.turns, 'turn')}); show it with \`aureus session show ${e.session}\`\n` };
  }
}

/**
 * A diagnostic said as a notice (`message`: the words the caller says it in): its code, and its hint
 * whenever it has one. Text mode prints the hint under the warning; --json gave the code and message
 * alone, so a program reading the stream lost what to do about it (the hint of a damaged run-log line,
 * AUR4499, is the only place that says how the budget and the trailers count it).
 */
export function diagnosticNotice(d: Diagnostic, message: string): PlayNotice {
  return { type: 'notice', code: d.code, message, ...(d.hint ? { hint: d.hint } : {}) };
}

export function renderJson(e: PlayEvent): string {
  return JSON.stringify(e) + '\n';
}

export interface TextSink {
  out: (t: string) => void;
  err: (t: string) => void;
  /** A terminal: a streamed line is shown as it arrives, and replaced when the final one differs. */
  live: boolean;
  /** The terminal's width; 0 or NaN: unknown (80). */
  columns: () => number;
}

/**
 * The text renderer with its one piece of state: the part of a streamed line already on screen.
 * When the final line continues it exactly, only the newline is left to write; otherwise (the
 * model started over, or the action came after the dialogue) the shown rows are erased and the
 * final line written in their place. Off a terminal, chunks are not shown: the final line is.
 */
export function textRenderer(o: TextSink): (e: PlayEvent) => void {
  // What is shown carries world text (names, places, a scene's lines) and the model's: its control
  // characters are shown escaped, never obeyed; the renderer's own cursor moves (erase) are not text.
  const safe = (e: PlayEvent): PlayEvent => ('content' in e && typeof e.content === 'string' ? { ...e, content: escapeControl(e.content) } : e);
  let shown: string | null = null;
  const erase = (t: string) => {
    // A terminal that reports no width (0 columns: a 0×0 pty, or none at all) is taken as 80 wide, not
    // as 1 column: that would count a row per character and move the cursor up over the whole screen.
    const columns = o.columns() || 80;
    const rows = t.split('\n').reduce((n, l) => n + Math.max(1, Math.ceil([...l].length / columns)), 0);
    o.out('\r' + '\u001b[1A'.repeat(rows - 1) + '\u001b[J');
  };
  return (raw) => {
    const e = safe(raw);
    if (e.type === 'chunk') {
      if (!o.live) return;
      if (e.reset && shown) {
        erase(shown);
        shown = '';
      }
      shown = (shown ?? '') + e.content;
      return o.out(e.content);
    }
    if (e.type === 'message_complete' && shown !== null) {
      if (shown === e.content) o.out('\n');
      else {
        erase(shown);
        o.out(`${e.content}\n`);
      }
      shown = null;
      return;
    }
    // A notice while a line streams (a retry's wait): the line so far is left above it and the
    // stream goes on below, on a row of its own (it was glued to the partial line, and a reset then
    // erased the wrong rows).
    if (e.type === 'notice' && o.live && shown) {
      o.out('\n');
      shown = '';
    }
    const r = renderText(e);
    if (r.out) o.out(escapeControl(r.out));
    if (r.err) o.err(escapeControl(r.err));
  };
}
