import { AureusError, ExitCode } from '../errors.js';
import { diag } from '../diagnostics/index.js';
import { parseJsonTextSafe } from '../store/read.js';

/**
 * What `export --format html` reads of a committed episode's JSON files, checked before it renders:
 * a hand-edited file that is JSON but of another shape (`[]`, a string where the report has a list)
 * is exit 3 (AUR6024) with the file, the JSON pointer and its line:col, not an internal error in the
 * renderer. Only the fields html.ts reads are checked, and only their type, so an episode any
 * version of aureus committed, whose report the renderer reads today, still exports.
 */
type Need = 'object' | 'array' | 'string' | 'number';

/** field → its type; `each`: a list whose every element is of that shape; `optionalEach`: absent, or a list of that type. */
interface Shape {
  [field: string]: Need | { each: Shape } | { optionalEach: Need };
}

const FINDING: Shape = { code: 'string', severity: 'string', rule: 'string' };

const HTML_SHAPES: Record<string, Shape> = {
  'episode_metrics.json': {
    tension_curve: { each: { scene: 'string', act: 'number', tension: 'number' } },
    acts: { each: { act: 'number', pacing: 'number', volatility: 'number' } },
  },
  'verifier_report.json': {
    verdict: 'string',
    scenes: { each: { attempts: { each: { findings: { each: FINDING } } } } },
    episode_findings: { each: FINDING },
    budget: 'object',
  },
  'episode_plan.json': { threads_advanced: { optionalEach: 'string' } },
};

function typeOk(v: unknown, need: Need): boolean {
  if (need === 'array') return Array.isArray(v);
  if (need === 'object') return v !== null && typeof v === 'object' && !Array.isArray(v);
  return typeof v === need;
}

/** The first place `value` breaks `shape`: its pointer and what was expected there. */
function firstBreak(value: unknown, shape: Shape, at: string): { pointer: string; expected: string } | null {
  if (!typeOk(value, 'object')) return { pointer: at || '/', expected: 'an object' };
  const o = value as Record<string, unknown>;
  for (const [field, need] of Object.entries(shape)) {
    const p = `${at}/${field}`;
    const v = o[field];
    if (typeof need === 'string') {
      if (!typeOk(v, need)) return { pointer: p, expected: `a ${need}` };
    } else if ('optionalEach' in need) {
      if (v === undefined) continue;
      if (!Array.isArray(v)) return { pointer: p, expected: `a list of ${need.optionalEach}s` };
      const i = v.findIndex((x) => !typeOk(x, need.optionalEach));
      if (i >= 0) return { pointer: `${p}/${i}`, expected: `a ${need.optionalEach}` };
    } else {
      if (!Array.isArray(v)) return { pointer: p, expected: 'a list' };
      for (let i = 0; i < v.length; i++) {
        const b = firstBreak(v[i], need.each, `${p}/${i}`);
        if (b) return b;
      }
    }
  }
  return null;
}

/** Throws AUR6024 (exit 3) when the parsed `value` of `file` (read from `text`) is not of the shape the html report reads. */
export function requireHtmlShape(file: string, rel: string, text: string, value: unknown, hint: string): void {
  const shape = HTML_SHAPES[file];
  // null reads as no such file (the report says "No metrics recorded"), as it always has.
  const b = shape && value !== null ? firstBreak(value, shape, '') : null;
  if (!b) return;
  const at = parseJsonTextSafe(text, rel).locate?.(b.pointer);
  throw new AureusError(`${rel} is not of the shape the html report reads`, {
    exitCode: ExitCode.INVALID_WORLD,
    diagnostics: [diag('AUR6024', { expected: b.expected }, { file: rel, pointer: b.pointer, ...(at ? { line: at.line, column: at.column } : {}), hint })],
  });
}
