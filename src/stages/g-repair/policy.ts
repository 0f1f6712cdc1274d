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
  if (nextAttempt > perScene + 1) {
    return { mode: 'simplified', prohibitions, prohibited_codes: codes, restate_deltas: true, strict_json: true, escalate: true };
  }
  if (!hard.length) {
    const soft = [...new Set(findings.map((f) => f.code))].sort();
    return { mode: 'punch_up', prohibitions: [...new Set(findings.map((f) => f.fix))], prohibited_codes: soft, restate_deltas: false, strict_json: false, escalate, keep_fraction: PUNCH_UP_KEEP };
  }
  return {
    mode: 'regenerate',
    prohibitions,
    prohibited_codes: codes,
    restate_deltas: codes.some((c) => PLAN_CODES.has(c)),
    strict_json: codes.some((c) => FORMAT_CODES.has(c)),
    escalate,
  };
}

/** The opening of a scene text that a punch-up keeps (never cutting inside the heading block). */
export function keepOpening(text: string, fraction = PUNCH_UP_KEEP): string {
  const lines = text.split('\n');
  const n = Math.max(Math.min(4, lines.length), Math.floor(lines.length * fraction));
  return lines.slice(0, n).join('\n');
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
