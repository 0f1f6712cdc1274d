import type { ResolvedDelta } from '../../domain/delta.js';
import type { ScenePacket } from '../../domain/packet.js';
import { isBookkeeping } from './normalise/index.js';

/**
 * The required deltas as the Writer reads them (issue 13): one readable fact per change, with its
 * application id and the exact path/op/value it lists in SCENE_EVENTS, e.g.
 *   "a02: relationships.cato.varo.trust add 0.1 (Cato's trust in Varo rises)".
 * Bookkeeping (when a thread last progressed) is derived by Aureus and never asked of the model.
 * A line is shorter than the delta's JSON, so the prompt does not grow.
 */

export function exactDelta(d: ResolvedDelta): string {
  if (d.op === 'transfer') return `${d.path} transfer ${d.amount} from ${d.from} to ${d.to}`;
  return `${d.path} ${d.op} ${typeof d.value === 'string' ? d.value : JSON.stringify(d.value)}`;
}

type Named = (id: string) => string;

function namer(pk: ScenePacket): Named {
  const names = new Map<string, string>();
  for (const c of pk.retrieved_subgraph.characters) names.set(c.id, c.name.split(/\s+/).slice(-1)[0]!);
  for (const c of pk.cast) names.set(c.id, c.cue.charAt(0) + c.cue.slice(1).toLowerCase());
  for (const c of pk.dead) names.set(c.id, c.cue.charAt(0) + c.cue.slice(1).toLowerCase());
  return (id) => names.get(id) ?? id;
}

/** What the change means on screen, for the shapes a scene changes; undefined for the rest. */
function meaning(d: ResolvedDelta, n: Named): string | undefined {
  const p = d.path.split('.');
  const way = d.op === 'subtract' ? 'falls' : d.op === 'add' ? 'rises' : d.op === 'multiply' ? 'changes' : 'is set';
  if (d.op === 'transfer') return `${d.amount} denarii pass from ${n(d.from ?? '?')} to ${n(d.to ?? '?')}`;
  if (p[0] === 'relationships' && p.length === 4) return `${n(p[1]!)}'s ${p[3]} toward ${n(p[2]!)} ${way}`;
  if (p[0] === 'characters' && p[2] === 'stats') return `${n(p[1]!)}'s ${p[3]} ${way}`;
  if (p[0] === 'characters' && p[3] === 'intentions' && d.op === 'add') return `${n(p[1]!)} now means to ${String(d.value).toLowerCase().replace(/_/g, ' ')}`;
  if (p[0] === 'secrets' && p[2] === 'holders' && d.op === 'add') return `${n(String(d.value))} learns this secret`;
  if (p[0] === 'threads' && p[2] === 'progress') return `this thread moves on`;
  return undefined;
}

/** The packet's required deltas as Writer lines, bookkeeping left out. */
export function readableDeltas(pk: ScenePacket): string[] {
  const n = namer(pk);
  return pk.constraints.required_deltas
    .filter((d) => !isBookkeeping(d.path))
    .map((d) => {
      const m = meaning(d, n);
      return `${d.application_id}: ${exactDelta(d)}${m ? ` (${m})` : ''}`;
    });
}
