import { diag } from './catalog.js';
import './codes/llm.js';
import type { Diagnostic } from './diagnostic.js';
import { stripControlIn } from './sanitize.js';

/** What a model's answer lost: each field (a JSON pointer below `at`) and its removed characters, as `\uXXXX`. */
export interface StrippedAnswer {
  value: unknown;
  removed: { field: string; chars: string }[];
  /** One AUR4211 warning per field, naming the role. */
  warnings: Diagnostic[];
}

/**
 * A model's answer (parsed JSON, or one text) with the control characters, terminal escapes and
 * bidi overrides of every string removed (sanitize.ts stripControl), before any of it is committed
 * or shown: the one place the proposals, the Director, the recap, the critic and play's Actor
 * clean their answers and say what they removed. Kept apart from sanitize.ts, which the CLI's
 * start-up loads, so that start-up does not load the diagnostics catalog.
 */
export function stripModelAnswer(value: unknown, role: string, at = ''): StrippedAnswer {
  const removed: StrippedAnswer['removed'] = [];
  const clean = stripControlIn(value, at, (field, chars) => removed.push({ field, chars: chars.join(' ') }));
  return { value: clean, removed, warnings: removed.map((r) => diag('AUR4211', { role, field: r.field, removed: r.chars })) };
}
