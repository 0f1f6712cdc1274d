import type { PacketInstruction, ScenePacket } from '../../../domain/packet.js';
import { contentRoots } from './roots.js';
import type { ProseSentence } from './reader.js';

/** Which planned application a sentence depicting success belongs to, and how sure that is. */
export interface BeatOwner {
  app: PacketInstruction;
  sure: boolean;
}

/** How much of an application a sentence tells: the bound people it names, then its directive's words. */
function score(s: ProseSentence, app: PacketInstruction): [number, number] {
  const bound = new Set(Object.values(app.bindings));
  const named = new Set(s.mentions.map((m) => m.id).filter((id) => bound.has(id))).size;
  const roots = contentRoots(s.text);
  const told = [...contentRoots(app.narrative_directive)].filter((r) => roots.has(r)).length;
  return [named, told];
}

const better = (a: [number, number], b: [number, number]) => a[0] - b[0] || a[1] - b[1];

/**
 * The fail application a success depiction contradicts, or null when it belongs to an application
 * planned to succeed. A scene may carry both ("the bribe lands, the informer loses his nerve"): the
 * depiction goes to the application whose bound people it names most, then whose directive it
 * shares most words with. With no success application in the scene it is the fail one's, surely;
 * a tie between a fail and a success application is doubtful.
 */
export function failOwner(s: ProseSentence, p: ScenePacket): BeatOwner | null {
  const seq = p.director_instructions.sequence;
  const fails = seq.filter((a) => a.outcome === 'fail');
  if (!fails.length) return null;
  const wins = seq.filter((a) => a.outcome === 'success');
  if (!wins.length) return { app: fails[0], sure: true };
  const best = (apps: PacketInstruction[]) => apps.map((a) => ({ a, sc: score(s, a) })).sort((x, y) => better(y.sc, x.sc))[0];
  const f = best(fails);
  const w = best(wins);
  const d = better(f.sc, w.sc);
  if (d < 0) return null;
  return { app: f.a, sure: d > 0 };
}
