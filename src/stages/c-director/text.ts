import type { Beat, MandatoryBeat, OperatorApplication } from '../../domain/plan.js';
import type { World } from '../../domain/world.js';
import { ACT_PHASE, type SceneSlotPlan } from './shape.js';

/** The plan's words: beat summaries, scene purposes and the episode title. */
const nameOf = (world: World, id: string): string => world.characters.characters.find((c) => c.id === id)?.name ?? id;

export function summarize(world: World, a: OperatorApplication): string {
  const op = world.operators.operators.find((o) => o.id === a.operator_id);
  const others = Object.entries(a.bindings).filter(([r]) => r !== 'actor').map(([r, id]) => `${r} ${nameOf(world, id)}`);
  return `${nameOf(world, a.bindings.actor!)}: ${op?.name ?? a.operator_id}${others.length ? ` (${others.join(', ')})` : ''} — ${a.outcome}.`;
}

export function purposeOf(world: World, sc: SceneSlotPlan, tag: MandatoryBeat | null, apps: OperatorApplication[]): string {
  const what = apps.map((a) => world.operators.operators.find((o) => o.id === a.operator_id)?.name ?? a.operator_id).join(' + ');
  const threads = [...new Set(apps.flatMap((a) => a.threads_advanced))];
  return `${tag ? tag.toUpperCase() + ': ' : ''}${what}${threads.length ? `; advances ${threads.join(', ')}` : ''} (act ${sc.act}, ${ACT_PHASE[sc.act]})`;
}

export function titleOf(world: World, beats: Beat[]): string {
  const rev = beats.find((b) => b.tag === 'reversal')?.applications[0];
  const cliff = beats.find((b) => b.tag === 'cliffhanger')?.applications[0];
  const opName = (a?: OperatorApplication) => world.operators.operators.find((o) => o.id === a?.operator_id)?.name ?? '';
  // The name the audience knows (the cue: "Clodius", not "Pulcher").
  const who = cliff?.bindings.target ? world.characters.characters.find((c) => c.id === cliff.bindings.target) : undefined;
  const target = who ? who.cue.charAt(0).toUpperCase() + who.cue.slice(1).toLowerCase() : cliff?.bindings.target ? nameOf(world, cliff.bindings.target).split(' ').slice(-1)[0] : '';
  const nameWords = new Set(world.characters.characters.flatMap((c) => [...c.name.split(/\s+/), c.cue].map((w) => w.toLowerCase())));
  const parts = [opName(rev), target ? `${opName(cliff)} for ${target}` : opName(cliff)].filter(Boolean);
  // Sentence case after the comma ("An omen at the altar, a letter under seal for Caesar"); a name keeps its capital.
  return parts.map((p, i) => (i > 0 && !nameWords.has(p.split(/[\s']/)[0]!.toLowerCase()) ? p.charAt(0).toLowerCase() + p.slice(1) : p)).join(', ');
}

