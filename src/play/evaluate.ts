import type { ScenePacket } from '../domain/packet.js';
import { threadsInPlay } from './director.js';
import type { PlayState } from './state.js';
import type { Evaluation, NextSuggestion } from './types.js';
import { compareText } from '../core/text-order.js';

/**
 * The Director's evaluation on completion (seed 000, "episode_summary") and the next suggestion
 * (seed 000: every episode type gets one). Symbolic and deterministic: built from the log.
 */
export function evaluate(s: PlayState, packet: ScenePacket): Evaluation {
  const name = (id: string) => packet.retrieved_subgraph.characters.find((c) => c.id === id)?.name ?? id;
  const curve = s.director.tension_curve;
  const first = curve[0] ?? 0.3;
  const last = curve.at(-1) ?? first;
  const moments = s.exchanges
    .map((e, i) => ({ e, i, w: Math.abs(e.answer.tension_shift) }))
    .filter((x) => x.w > 0)
    .sort((a, b) => b.w - a.w || a.i - b.i)
    .slice(0, 3)
    .sort((a, b) => a.i - b.i)
    .map((x) => `${x.e.user_id}: ${name(s.setup.principal)} — "${clip(x.e.user)}"; ${x.e.content.length > 90 ? x.e.content.slice(0, 87) + '...' : x.e.content}`);
  const signals = Object.entries(s.director.user_signals).sort((a, b) => b[1] - a[1] || compareText(a[0], b[0]));
  const style = signals.length ? `${signals[0]![0]}${signals[1] ? `, then ${signals[1][0]}` : ''} (${signals.map(([k, v]) => `${k} ${v}`).join(', ')})` : 'reserved (no strong signals)';
  // Only what was written is canon; a proposal judged but changing nothing says so.
  const said = { accepted: 'canon', unchanged: 'no change (nothing written)', pending: 'staged' } as const;
  const changes = s.proposals.filter((p) => p.status !== 'rejected').map((p) => `${said[p.status as keyof typeof said]}: ${p.reason} [${p.turns.join(', ')}]`);
  return {
    summary: `${name(s.setup.principal)} played ${s.director.turn_count} turn(s) at ${packet.setting.location_name} ${s.cast.length ? `with ${s.cast.map(name).join(', ')}` : 'alone'}; tension ${first} → ${last}; beat reached: ${s.director.current_beat}.`,
    key_moments: moments,
    play_style: style,
    world_changes: changes.length ? changes : ['none'],
  };
}

function clip(t: string): string {
  return t.length > 60 ? t.slice(0, 57) + '...' : t;
}

export function suggestNext(s: PlayState, packet: ScenePacket): NextSuggestion {
  const moved = threadsInPlay(packet, s.exchanges);
  if (moved.length || s.proposals.some((p) => p.status === 'accepted') || s.threads.length) {
    return { kind: 'compile_episode', command: 'aureus episode run', reason: `the next episode picks up what this scene moved${moved.length ? ` (${moved.join(', ')})` : ''}`, threads: moved };
  }
  const other = packet.retrieved_subgraph.characters.find((c) => c.status === 'alive' && c.id !== s.setup.principal && !s.cast.includes(c.id))?.id ?? s.cast[0];
  // Nobody else within the scene's reach (a scene played alone, no living neighbour): there is no one
  // to name in a `--with`, so the next step is the episode (it was `--with undefined`).
  if (other === undefined) return { kind: 'compile_episode', command: 'aureus episode run', reason: 'nobody else is within this scene\'s reach: the next episode moves the world on', threads: [] };
  return {
    kind: 'play_scene',
    command: `aureus play --as ${s.setup.principal} --at ${packet.setting.location} --with ${other}`,
    reason: 'nothing reached canon yet: play another scene with a character close to this one',
    threads: [],
  };
}
