import type { LlmRequest } from '../../ports/llm.js';
import type { ResolvedDelta } from '../../domain/delta.js';
import type { SceneEvent } from '../../domain/scene.js';
import type { CriticPayload, CriticVerdict } from '../../stages/e-writer/types.js';
import { describeDelta } from '../../stages/e-writer/prompt.js';
import { HOOK_MAX_WORDS } from '../../domain/hook.js';
import { sameDelta } from '../../stages/f-verifier/rules/deltas.js';
import type { OfflineRealizer } from './index.js';

/**
 * The offline critic (spec §6.4), deterministic: plan compliance (every planned application has an
 * aligned event, every required delta is covered) and the hook (the scene ends on a short button
 * line). It sees only what a model critic sees: the packet, the text, the claims and the events.
 */
export function offlineCritique(request: LlmRequest): { text: string; json: CriticVerdict } {
  const p = request.payload as CriticPayload | undefined;
  if (!p || p.task !== 'critique_scene') throw new Error('offline critic: request has no critique_scene payload');
  const v = critique(p);
  return { text: JSON.stringify(v), json: v };
}

export function critique(p: CriticPayload): CriticVerdict {
  const v: CriticVerdict = { verdict: 'PASS', violations: [], warnings: [], fix_instructions: [] };
  const events = (Array.isArray(p.events) ? p.events : []) as SceneEvent[];
  for (const ins of p.packet.director_instructions.sequence) {
    if (!events.some((e) => e.application_id === ins.application_id)) {
      v.violations.push({ type: 'plan_compliance', rule: 'beat_depicted', message: `the beat ${ins.beat_id} (${ins.operator_name}) is not depicted` });
      v.fix_instructions.push(`Depict ${ins.operator_name}: ${ins.narrative_directive}`);
    }
  }
  for (const d of p.packet.constraints.required_deltas) {
    const covered = events.some((e) => e.application_id === d.application_id && (e.deltas ?? []).some((x: ResolvedDelta) => sameDelta(x, d)));
    if (!covered) {
      v.violations.push({ type: 'delta_coverage', rule: 'required_delta', message: `required delta ${describeDelta(d)} is not depicted` });
      v.fix_instructions.push(`Show ${describeDelta(d)} on screen and list it under ${d.application_id}.`);
    }
  }
  const lines = p.scene_text.split('\n').map((l) => l.trim()).filter(Boolean);
  const last = (lines.at(-1) ?? '').replace(/^>\s*/, '');
  if (!last || last.split(/\s+/).length > HOOK_MAX_WORDS || !/[.!?…—–"'’”)*]$/.test(last)) {
    v.violations.push({ type: 'hook', rule: 'button_line', message: 'the scene trails off instead of ending on a button line' });
    v.fix_instructions.push(`End on one short line that turns the scene: ${p.packet.constraints.hook_requirement}`);
  }
  const formal = ['court', 'villa', 'senate', 'temple'].includes(p.packet.setting.kind);
  if (formal && !/^>/m.test(p.scene_text)) v.warnings.push('a formal scene without dialogue loses its rhetoric');
  if (v.violations.length) v.verdict = 'FAIL';
  return v;
}

/** Registry entry point (offline/index.ts loads `realize` from ./critic.js). */
export const realize: OfflineRealizer = (req) => offlineCritique(req);
