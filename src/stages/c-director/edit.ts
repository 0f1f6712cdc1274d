import type { Beat, EpisodePlan, PlannedScene } from '../../domain/plan.js';

/**
 * The Director model's answer: a small edit of the symbolic plan, never a whole plan. The symbolic
 * Director owns every move, binding, outcome and delta; the model may
 *   - name the episode (`title`),
 *   - reorder scenes within an act (`act_order`: per act, that act's scene ids in the new order),
 *   - state each scene's purpose (`scenes[].purpose`).
 * About 40 output tokens per scene: an 18–24-scene episode answers in well under 3k tokens.
 * The edit is applied here and the result re-checked with every acceptance rule (llm.ts).
 */
export interface DirectorEdit {
  title: string;
  act_order?: Array<{ act: number; scenes: string[] }>;
  scenes: Array<{ id: string; purpose: string }>;
}

/** The JSON schema of the answer: in src/schemas so the build precompiles its validator. */
export { DIRECTOR_EDIT_SCHEMA } from '../../schemas/director-edit.js';

/** The edit that changes nothing (what the offline provider answers). */
export function identityEdit(plan: EpisodePlan): DirectorEdit {
  return { title: plan.title, scenes: plan.scenes.map((s) => ({ id: s.id, purpose: s.purpose })) };
}

/** The edit applied to the plan, or the reasons it cannot be (unknown ids, an order that is not a permutation). */
export function applyEdit(plan: EpisodePlan, edit: DirectorEdit): { plan: EpisodePlan } | { errors: string[] } {
  const errors: string[] = [];
  const byId = new Map(plan.scenes.map((s) => [s.id, s]));
  const seen = new Set<string>();
  for (const s of edit.scenes) {
    if (!byId.has(s.id)) errors.push(`scenes: ${s.id} is not a scene of this plan`);
    else if (seen.has(s.id)) errors.push(`scenes: ${s.id} is given twice`);
    seen.add(s.id);
  }
  const order = sceneOrder(plan, edit, errors);
  if (errors.length) return { errors };
  const purposes = new Map(edit.scenes.map((s) => [s.id, s.purpose.trim()]));
  return { plan: renumber({ ...plan, title: edit.title.trim() || plan.title }, order, purposes) };
}

/** The scenes in their new order: per act, the answer's permutation or the plan's own order. */
function sceneOrder(plan: EpisodePlan, edit: DirectorEdit, errors: string[]): PlannedScene[] {
  const out: PlannedScene[] = [];
  const acts = [...new Set(plan.scenes.map((s) => s.act))];
  const given = new Map<number, string[]>();
  for (const a of edit.act_order ?? []) {
    if (given.has(a.act)) errors.push(`act_order: act ${a.act} is given twice`);
    given.set(a.act, a.scenes);
  }
  for (const act of acts) {
    const own = plan.scenes.filter((s) => s.act === act);
    const ids = given.get(act);
    if (!ids) {
      out.push(...own);
      continue;
    }
    const want = own.map((s) => s.id).sort().join(',');
    if ([...ids].sort().join(',') !== want) {
      errors.push(`act_order: act ${act} must list exactly its scenes (${own.map((s) => s.id).join(', ')}) in a new order, got ${ids.join(', ') || 'none'}`);
      continue;
    }
    out.push(...ids.map((id) => own.find((s) => s.id === id)!));
  }
  return out;
}

/** Scene and beat ids follow the new order (SC01…, b01…); beats, drama responses and purposes follow their scenes. */
function renumber(plan: EpisodePlan, order: PlannedScene[], purposes: Map<string, string>): EpisodePlan {
  const sceneId = new Map(order.map((s, i) => [s.id, `SC${String(i + 1).padStart(2, '0')}`]));
  const beatsOf = new Map<string, Beat[]>();
  for (const b of plan.beats) beatsOf.set(b.scene, [...(beatsOf.get(b.scene) ?? []), b]);
  const beats: Beat[] = [];
  const beatId = new Map<string, string>();
  for (const s of order) {
    for (const b of beatsOf.get(s.id) ?? []) {
      const id = `b${String(beats.length + 1).padStart(2, '0')}`;
      beatId.set(b.id, id);
      beats.push({ ...b, id, scene: sceneId.get(s.id)! });
    }
  }
  const scenes = order.map((s, i) => ({
    ...s,
    id: sceneId.get(s.id)!,
    number: i + 1,
    beats: s.beats.map((b) => beatId.get(b) ?? b),
    purpose: purposes.get(s.id) || s.purpose,
  }));
  const drama_responses = plan.drama_responses.map((r) => ({ ...r, at: sceneId.get(r.at) ?? r.at }));
  return { ...plan, scenes, beats, drama_responses };
}
