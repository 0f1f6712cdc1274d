import { diag, type Diagnostic } from '../diagnostics/index.js';
import { CONFIG_FILE } from '../paths.js';
import { LLM_ROLES, type LlmRole } from '../ports/llm.js';
import { CURRENT_LINEUP, knownModels, modelInfo } from '../providers/models.js';
import type { AureusConfig, ModelSlot } from './types.js';

/**
 * The checks that keep a config from failing on its first real call: every model routing can reach
 * is a known id, has a price, and is asked only what it accepts (max_tokens within its limit, effort
 * only where the model takes it). Offline and replay runs never call a model, so they skip these.
 */
export function modelDiagnostics(config: AureusConfig): Diagnostic[] {
  if (config.provider === 'offline' || config.provider.startsWith('replay:')) return [];
  const pinned = config.provider.startsWith('anthropic:') ? config.provider.slice('anthropic:'.length) : undefined;
  const out: Diagnostic[] = [];
  const where = (pointer: string) => ({ file: CONFIG_FILE, pointer });
  // Every route: slot → [key that names the model, model].
  const routes: Array<{ slot: string; key: string; model: string; role?: LlmRole }> = [];
  if (pinned) routes.push({ slot: 'every role', key: 'provider', model: pinned });
  else {
    for (const [slot, model] of Object.entries(config.models) as [ModelSlot, string][])
      routes.push({ slot, key: `models.${slot}`, model, ...(slot !== 'escalation' ? { role: slot } : {}) });
    for (const [role, model] of Object.entries(config.escalations) as [LlmRole, string][])
      routes.push({ slot: `${role} escalation`, key: `escalations.${role}`, model, role });
  }
  const byModel = new Map<string, string[]>();
  for (const r of routes) byModel.set(r.model, [...(byModel.get(r.model) ?? []), r.slot]);
  for (const [model, slots] of byModel) {
    const info = modelInfo(model);
    const key = routes.find((r) => r.model === model)!.key;
    if (!info) out.push(diag('AUR4007', { model, key, known: knownModels().join(', ') }, where('/' + key.replace('.', '/'))));
    if (!config.prices[model] && !config.prices[model.replace(/-\d{8}$/, '')]) out.push(diag('AUR4004', { model, slots: slots.join(', ') }, where('/prices')));
    if (info?.end_of_life) out.push(diag('AUR4010', { model, slots: slots.join(', '), date: info.end_of_life, lineup: CURRENT_LINEUP }, where('/' + key.replace('.', '/'))));
  }
  // What each role's own model (and its escalation) will be sent.
  const said = new Set<string>();
  const once = (key: string, d: Diagnostic) => {
    if (said.has(key)) return;
    said.add(key);
    out.push(d);
  };
  for (const role of LLM_ROLES) {
    const targets = pinned ? [pinned] : [config.models[role], config.escalations[role] ?? config.models.escalation];
    for (const model of new Set(targets)) {
      const info = modelInfo(model);
      if (!info) continue;
      const max = config.max_tokens[role];
      if (max > info.max_output_tokens) once(`max_tokens.${role}`, diag('AUR4008', { key: `max_tokens.${role}`, value: max, model, max: info.max_output_tokens }, where(`/max_tokens/${role}`)));
      const effort = config.effort[role];
      if (effort && !info.effort) once(`effort.${role}`, diag('AUR4009', { key: `effort.${role}`, effort, model, role }, where(`/effort/${role}`)));
    }
  }
  return out;
}
