import type { Exchange } from './actor.js';
import { initialDirector, observeExchange, reachBeat } from './director.js';
import type { Beat, ContextBrief, DirectorState, Evaluation, NextSuggestion, Proposal, SceneSetup, TurnRecord } from './types.js';

/**
 * The one session state (seed 001) and the reducer that rebuilds it from turns.jsonl. Resume is
 * this reducer over the log: nothing lives only in memory, so a kill loses at most the turn in flight.
 */
export interface PlayState {
  session: string;
  seed: string;
  setup: SceneSetup;
  cast: string[];
  exchanges: (Exchange & { user_id: string; actor_id: string; content: string; beat?: Beat })[];
  director: DirectorState;
  brief: ContextBrief | null;
  proposals: Proposal[];
  /** Every note and thread of the session; `canonization`: the one that committed it (1, 2, …), null while pending. */
  notes: { id: string; text: string; turn: string; canonization: number | null }[];
  threads: { id: string; question: string; turn: string; canonization: number | null }[];
  seq: number;
  canonizations: number;
  complete: { trigger: string; evaluation: Evaluation; next: NextSuggestion } | null;
  /** The records this state is the reduction of, less what /undo took back: an undo replays them without the undone exchange. */
  kept: TurnRecord[];
}

export function emptyState(session: string, seed: string, setup: SceneSetup): PlayState {
  return { session, seed, setup, cast: [...setup.cast], exchanges: [], director: initialDirector(), brief: null, proposals: [], notes: [], threads: [], seq: 0, canonizations: 0, complete: null, kept: [] };
}

export const turnId = (n: number) => `t${String(n).padStart(4, '0')}`;

/** Apply one record. Commands carry their effect as data, so replay never re-validates against a changed world. */
export function reduce(s: PlayState, r: TurnRecord, pendingUser: { id: string; text: string } | null): { state: PlayState; pendingUser: { id: string; text: string } | null } {
  const seq = 'id' in r ? Math.max(s.seq, Number(r.id.slice(1)) || 0) : s.seq;
  const st = { ...s, seq, kept: r.type === 'undo' ? s.kept : [...s.kept, r] };
  switch (r.type) {
    case 'start':
      return { state: st, pendingUser: null };
    case 'user':
      return { state: st, pendingUser: { id: r.id, text: r.text } };
    case 'actor': {
      const user = pendingUser ?? { id: r.reply_to, text: '' };
      return {
        state: { ...st, exchanges: [...st.exchanges, { user: user.text, answer: r.answer, user_id: user.id, actor_id: r.id, content: r.content, beat: r.beat }], director: observeExchange(st.director, st.setup, user.text, r.answer, r.beat, r.objective_met) },
        pendingUser: null,
      };
    }
    case 'brief':
      return { state: { ...st, brief: r.brief }, pendingUser };
    case 'proposal':
      return { state: { ...st, proposals: [...st.proposals.filter((p) => p.id !== r.proposal.id), r.proposal] }, pendingUser };
    case 'command':
      return { state: applyEffect(st, r), pendingUser };
    case 'undo':
      return { state: undo(st, r.target, seq), pendingUser: null };
    case 'canonized':
      return {
        state: {
          ...st,
          canonizations: st.canonizations + 1,
          proposals: st.proposals.map((p) => (r.accepted.includes(p.id) ? { ...p, status: 'accepted' } : r.unchanged?.includes(p.id) ? { ...p, status: 'unchanged' } : p.id in r.rejected ? { ...p, status: 'rejected', rejection: r.rejected[p.id] } : p)),
          notes: st.notes.map((x) => (x.canonization === null ? { ...x, canonization: st.canonizations + 1 } : x)),
          threads: st.threads.map((x) => (x.canonization === null ? { ...x, canonization: st.canonizations + 1 } : x)),
        },
        pendingUser,
      };
    case 'complete':
      return { state: { ...st, complete: { trigger: r.trigger, evaluation: r.evaluation, next: r.next }, director: { ...st.director, completion_trigger: r.trigger } }, pendingUser };
  }
}

function applyEffect(s: PlayState, r: Extract<TurnRecord, { type: 'command' }>): PlayState {
  if (r.effect.startsWith('error:')) return s;
  if (r.name === 'note') return { ...s, notes: [...s.notes, { id: `${s.session}/${r.id}`, text: r.args, turn: r.id, canonization: null }] };
  if (r.name === 'thread') return { ...s, threads: [...s.threads, { id: `${s.session}/${r.id}`, question: r.args, turn: r.id, canonization: null }] };
  if (r.name === 'character') return { ...s, cast: [...s.cast, r.args] };
  // Written by a resume (session.ts leave) for a character who died while the session was paused.
  if (r.name === 'leave') return { ...s, cast: s.cast.filter((id) => id !== r.args) };
  if (r.name === 'beat') return { ...s, director: reachBeat(s.director, r.args as Beat) };
  return s;
}

/**
 * Take back the last exchange and only what it alone caused: its user and actor records and what
 * was appended with the answer (the model's directives, the proposals it staged, the brief it
 * prompted), by replaying the kept records without them. Everything recorded before the undone
 * turn, or after it by the user (a /beat, a /note, a /character), stays: beats only move forward.
 */
function undo(s: PlayState, target: string, seq: number): PlayState {
  const gone = new Set<TurnRecord>();
  const at = s.kept.findIndex((r) => r.type === 'actor' && r.reply_to === target);
  if (at < 0) return s;
  for (const r of s.kept) if (r.type === 'user' && r.id === target) gone.add(r);
  gone.add(s.kept[at]!);
  for (const r of s.kept.slice(at + 1)) {
    const byAnswer = (r.type === 'command' && r.effect.endsWith('(model directive)')) || r.type === 'brief' || (r.type === 'proposal' && r.proposal.turns.includes(target));
    if (!byAnswer) break;
    gone.add(r);
  }
  let st = emptyState(s.session, s.seed, s.setup);
  let pending: { id: string; text: string } | null = null;
  for (const r of s.kept) if (!gone.has(r)) ({ state: st, pendingUser: pending } = reduce(st, r, pending));
  // Ids are never given twice: the next record is numbered past everything ever written.
  return { ...st, seq };
}

export function replay(records: TurnRecord[]): { state: PlayState; pending: { id: string; text: string } | null } {
  const start = records[0];
  if (!start || start.type !== 'start') throw new Error('turns.jsonl does not begin with a start record');
  let state = emptyState(start.session, start.seed, start.setup);
  let pending: { id: string; text: string } | null = null;
  for (const r of records) ({ state, pendingUser: pending } = reduce(state, r, pending));
  return { state, pending };
}
