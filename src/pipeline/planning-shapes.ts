import path from 'node:path';
import { validatorFor } from '../schemas/validators.js';
import { schemaDiagnostics } from '../store/schema.js';
import type { PlanningOutput } from './planning-adapter.js';

/**
 * The planning checkpoint's texts (checkpoints/planning/…: context, proposals, plan, packets) are
 * the very files stage H commits, and the scenes index them freely: one of another shape (a hand
 * edit, a disk error) crashed the resumed run (`plan.scenes` of a plan `{}`), or was committed as
 * it stood (a context `{}`). Each is checked against the schema planning validated it with when it
 * was made; a damaged one makes the whole checkpoint ignored, so planning is redone (same seed,
 * same texts). `names`: the texts' file names under `dir`, in the order of `output`'s parts.
 */
export function damagedPlanningPart(dir: string, names: string[], output: PlanningOutput): { file: string; detail: string } | null {
  const parts: [unknown, string][] = [
    [output.context, 'episode_context'],
    [output.proposals, 'agent_proposals'],
    [output.plan, 'episode_plan'],
    ...output.packets.map((p): [unknown, string] => [p, 'scene_packet']),
  ];
  for (const [i, [value, schema]] of parts.entries()) {
    const file = path.join(dir, names[i] ?? '');
    const problems = schemaDiagnostics(validatorFor(`planning/${schema}`), value, file, `schemas/${schema}.schema.json`);
    const first = problems[0];
    if (first) return { file, detail: `${first.pointer ? `at ${first.pointer}: ` : ''}${first.message}` };
  }
  return null;
}
