import type { Beat, MandatoryBeat, OperatorApplication } from '../../domain/plan.js';
import type { WorldIndex } from '../../core/world-index.js';
import { ACT_PHASE, type SceneSlotPlan } from './shape.js';

/**
 * The plan's words: beat summaries, scene purposes and the episode title, from the input world's
 * index (the attempt's: made once). Its maps hold the first entity of each id, as a scan finds it;
 * a scan of the cast per name cost the DPRR plan (3,450 characters) ~10 ms per attempt.
 */
const nameOf = (index: WorldIndex, id: string): string => index.characters.get(id)?.name ?? id;
const opNameOf = (index: WorldIndex, id: string | undefined): string | undefined => (id === undefined ? undefined : index.operators.get(id)?.name);

export function summarize(index: WorldIndex, a: OperatorApplication): string {
  const others = Object.entries(a.bindings).filter(([r]) => r !== 'actor').map(([r, id]) => `${r} ${nameOf(index, id)}`);
  return `${nameOf(index, a.bindings.actor!)}: ${opNameOf(index, a.operator_id) ?? a.operator_id}${others.length ? ` (${others.join(', ')})` : ''} — ${a.outcome}.`;
}

export function purposeOf(index: WorldIndex, sc: SceneSlotPlan, tag: MandatoryBeat | null, apps: OperatorApplication[]): string {
  const what = apps.map((a) => opNameOf(index, a.operator_id) ?? a.operator_id).join(' + ');
  const threads = [...new Set(apps.flatMap((a) => a.threads_advanced))];
  return `${tag ? tag.toUpperCase() + ': ' : ''}${what}${threads.length ? `; advances ${threads.join(', ')}` : ''} (act ${sc.act}, ${ACT_PHASE[sc.act]})`;
}

export function titleOf(index: WorldIndex, beats: Beat[]): string {
  const rev = beats.find((b) => b.tag === 'reversal')?.applications[0];
  const cliff = beats.find((b) => b.tag === 'cliffhanger')?.applications[0];
  const opName = (a?: OperatorApplication) => opNameOf(index, a?.operator_id) ?? '';
  // The name the audience knows (the cue: "Clodius", not "Pulcher").
  const who = cliff?.bindings.target ? index.characters.get(cliff.bindings.target) : undefined;
  const target = who ? who.cue.charAt(0).toUpperCase() + who.cue.slice(1).toLowerCase() : cliff?.bindings.target ? nameOf(index, cliff.bindings.target).split(' ').slice(-1)[0] : '';
  const parts = [opName(rev), target ? `${opName(cliff)} for ${target}` : opName(cliff)].filter(Boolean);
  // Sentence case after the comma ("An omen at the altar, a letter under seal for Caesar"); a name keeps its capital.
  return parts.map((p, i) => (i > 0 && !isNameWord(index, p.split(/[\s']/)[0]!.toLowerCase()) ? p.charAt(0).toLowerCase() + p.slice(1) : p)).join(', ');
}

/**
 * Whether a word is one of a character's names or cue (lowercased): asked for one word, so the cast
 * is scanned, not collected into a set, and only a name holding the word is split into its words.
 */
function isNameWord(index: WorldIndex, word: string): boolean {
  return index.world.characters.characters.some((c) => c.cue.toLowerCase() === word || (c.name.toLowerCase().includes(word) && c.name.split(/\s+/).some((w) => w.toLowerCase() === word)));
}

