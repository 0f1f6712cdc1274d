import type { ScenePacket } from '../../domain/packet.js';
import type { Finding } from '../../domain/scene.js';
import type { AttemptMode } from '../e-writer/types.js';

/** Codes answered by restating the required deltas (plan compliance, spec §9.4). */
export const PLAN_CODES = new Set(['AUR5030', 'AUR5031', 'AUR5032', 'AUR5033', 'AUR5034']);
/** Codes answered by stricter JSON-only instructions (schema/format, spec §9.4). */
export const FORMAT_CODES = new Set(['AUR5001', 'AUR5002', 'AUR5004', 'AUR5005']);

export interface RepairPlan {
  mode: AttemptMode;
  prohibitions: string[];
  prohibited_codes: string[];
  restate_deltas: boolean;
  strict_json: boolean;
  escalate: boolean;
  /** Punch-up: how many opening lines of the previous scene text to keep verbatim. */
  keep_fraction?: number;
  /** Regeneration (spec §9.4): each hard finding's quoted span with its fix, shown with the previous draft. */
  spans: { line: number; text: string; fix: string }[];
}

/** Share of the scene kept verbatim by a punch-up: the last 30-40% is rewritten. */
export const PUNCH_UP_KEEP = 0.65;

/**
 * Decides the next attempt from the last one's findings (spec §5.2 G, §7.2, §9.4):
 * - a hard finding regenerates with explicit prohibitions at the top of the prompt, plus the
 *   required deltas restated for plan failures and JSON-only instructions for format failures;
 * - only soft findings (quality: hook, critic) get a punch-up of the scene's ending;
 * - from the 3rd attempt the writer escalates; the attempt after the per-scene budget is the
 *   simplified fallback (optional applications and risks dropped, required deltas kept).
 */
export function planRepair(findings: Finding[], nextAttempt: number, perScene: number): RepairPlan {
  const hard = findings.filter((f) => f.severity === 'hard');
  const codes = [...new Set(hard.map((f) => f.code))].sort();
  const prohibitions = [...new Set(hard.map((f) => `${f.message}. ${f.fix}`))];
  const escalate = nextAttempt >= 3;
  const spans = hard.filter((f) => f.span).map((f) => ({ line: f.span!.line, text: f.span!.text, fix: f.fix }));
  if (nextAttempt > perScene + 1) {
    return { mode: 'simplified', prohibitions, prohibited_codes: codes, restate_deltas: true, strict_json: true, escalate: true, spans };
  }
  if (!hard.length) {
    const soft = [...new Set(findings.map((f) => f.code))].sort();
    return { mode: 'punch_up', prohibitions: [...new Set(findings.map((f) => f.fix))], prohibited_codes: soft, restate_deltas: false, strict_json: false, escalate, keep_fraction: PUNCH_UP_KEEP, spans: [] };
  }
  return {
    mode: 'regenerate',
    prohibitions,
    prohibited_codes: codes,
    restate_deltas: codes.some((c) => PLAN_CODES.has(c)),
    strict_json: codes.some((c) => FORMAT_CODES.has(c)),
    escalate,
    spans,
  };
}

/** The opening of a scene text that a punch-up keeps (never cutting inside the heading block). */
export function keepOpening(text: string, fraction = PUNCH_UP_KEEP): string {
  const lines = text.split('\n');
  const n = Math.max(Math.min(4, lines.length), Math.floor(lines.length * fraction));
  return lines.slice(0, n).join('\n');
}

/**
 * A punch-up's scene text with the kept opening enforced (issue 13: the rest is kept byte for
 * byte). `verbatim`: the model kept it. `spliced`: it retouched the opening but its new ending can
 * be placed after it (the ending follows the last kept line, or it sent the ending alone), so the
 * kept opening is put back. null: it rewrote the scene, and the punch-up is refused.
 */
export function enforceKept(keep: string, text: string): { text: string; how: 'verbatim' | 'spliced' } | null {
  if (text === keep || text.startsWith(keep + '\n')) return { text, how: 'verbatim' };
  const kept = keep.split('\n');
  const lines = text.split('\n');
  const lastKept = [...kept].reverse().find((l) => l.trim());
  const at = lastKept === undefined ? -1 : lines.map((l) => l.trim()).lastIndexOf(lastKept.trim());
  const tail = (from: number) => lines.slice(from).join('\n').replace(/^\n+/, '');
  if (at >= 0 && tail(at + 1).trim()) return { text: `${keep}\n\n${tail(at + 1)}`, how: 'spliced' };
  // No kept line at all and no scene heading: the model sent the new ending alone.
  const keptLines = new Set(kept.map((l) => l.trim()).filter(Boolean));
  if (!lines.some((l) => keptLines.has(l.trim()) || /^#{1,3} /.test(l)) && text.trim()) return { text: `${keep}\n\n${text.replace(/^\n+/, '')}`, how: 'spliced' };
  return null;
}

/** The first line (1-based, within the scene text) where a text stops matching the kept opening. */
export function firstChangedLine(keep: string, text: string): number {
  const a = keep.split('\n');
  const b = text.split('\n');
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i + 1;
}

/**
 * The simplified operator set for a scene's last-chance rewrite (spec §7.2): only the applications
 * that carry required deltas, no triggered risks or visual flourishes, no inventions. The required
 * deltas themselves are untouched: the plan still has to happen.
 */
export function simplifyPacket(pk: ScenePacket): ScenePacket {
  const needed = new Set(pk.constraints.required_deltas.map((d) => d.application_id));
  return {
    ...pk,
    director_instructions: {
      purpose: pk.director_instructions.purpose,
      sequence: pk.director_instructions.sequence.filter((s) => needed.has(s.application_id)).map((s) => ({ ...s, triggered_risks: [], visual_cues: [] })),
    },
    constraints: { ...pk.constraints, allowed_inventions: { max: 0, kinds: [] } },
  };
}
