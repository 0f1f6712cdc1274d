import type { Claim, SceneEvent } from '../../domain/scene.js';
import { SECTION, type LexiconEntry } from '../../stages/e-writer/types.js';
import { findAnachronisms } from '../../style/lexicon.js';
import { cycled } from './writer.js';

/** The offline writer's draft and its serialisation in the spec §6.3 format, with the lexicon scrub. */

export interface Draft {
  lines: string[];
  claims: Claim[];
  events: SceneEvent[];
  hookIndex: number;
  claimsText?: string;
  dropEvents?: boolean;
  /** A planted anachronism line, exempt from the lexicon scrub. */
  planted?: string;
}

export interface SceneState {
  /** A thread question has been quoted in full in this scene. */
  quoted: boolean;
  /** The episode seed, for stock lines cycled across the episode's scenes. */
  seed?: string;
  /** Next variant index per phrase pool used in this scene. */
  used?: Map<readonly string[], number>;
  /** Secrets whose words have been said in this scene (or, via the packet's `told`, earlier in the episode). */
  secrets?: Set<string>;
}

export function serialize(d: Draft, lexicon: LexiconEntry[]): string {
  const text = scrub(d.lines.join('\n').replace(/\n{3,}/g, '\n\n').trim(), lexicon, d);
  const claims = d.claimsText ?? jsonArray(d.claims.map((c) => ({ ...c, text: scrubPlain(c.text, lexicon) })));
  let out = `${SECTION.text}\n${text}\n\n${SECTION.claims}\n${claims}\n`;
  if (!d.dropEvents) out += `\n${SECTION.events}\n${jsonArray(d.events)}\n`;
  return out;
}

export function jsonArray(items: unknown[]): string {
  if (!items.length) return '[]';
  return `[\n${items.map((i) => `  ${JSON.stringify(i)}`).join(',\n')}\n]`;
}

/** Replaces lexicon words with their Roman replacements, except a planted anachronism. */
export function scrub(text: string, lexicon: LexiconEntry[], d: Draft): string {
  const planted = d.planted;
  if (!planted) return scrubPlain(text, lexicon);
  return text
    .split('\n')
    .map((l) => (l === planted ? l : scrubPlain(l, lexicon)))
    .join('\n');
}

/**
 * Replaces every lexicon hit (the verifier's own matcher) with the first Roman alternative,
 * keeping an initial capital. Repeated in case a replacement itself contains a forbidden word.
 */
export function scrubPlain(text: string, lexicon: readonly LexiconEntry[]): string {
  let out = text;
  for (let pass = 0; pass < 3; pass++) {
    const hits = findAnachronisms(out, lexicon);
    if (!hits.length) return out;
    for (const h of [...hits].reverse()) {
      const alt = (h.replacement.split(';')[0] ?? '').trim().replace(/\s*\([^)]*\)/g, '') || 'that';
      const rep = /^\p{Lu}/u.test(h.word) ? cap(alt) : alt;
      out = out.slice(0, h.index) + rep + out.slice(h.index + h.word.length);
    }
  }
  return out;
}

export function sentence(s: string): string {
  const t = s.trim();
  if (!t) return '';
  return /[.!?…"”]$/.test(t) ? cap(t) : `${cap(t)}.`;
}
export function cap(s: string): string {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}
export function trimDot(s: string): string {
  return s.trim().replace(/[.]+$/, '');
}
export function fmt(n: unknown): string {
  const v = Number(n);
  return Number.isFinite(v) ? v.toLocaleString('en-US') : String(n);
}
