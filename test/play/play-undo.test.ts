import { describe, expect, it } from 'vitest';
import { builtCli, copyRepo } from '../pipeline/world.js';
import { useWorld } from '../support/use-world.js';
import { replay } from '../../src/play/state.js';
import type { ActorAnswer, SceneSetup, TurnRecord } from '../../src/play/types.js';
import { playScript, records } from './support.js';

/**
 * /undo takes back the last turn and its answer, and only what they alone caused: a /beat given
 * before it stays (beats only move forward), a beat, note or character the model's answer brought
 * goes with the answer.
 */
const SETUP: SceneSetup = { scene: 'PLAY', episode: null, location: 'forum', principal: 'cicero', cast: ['catiline'], mode: 'open', turn_budget: 8, objective: null, season: 1 };
const answer: ActorAnswer = { speaker: 'catiline', dialogue: 'No.', action: 'smiles', internal: 'x', mood: 'cold', tension_shift: 0 };
const exchange = (u: number, beat?: 'establishment'): TurnRecord[] => [
  { type: 'user', id: `t000${u}`, text: 'Hello', truncated: false },
  { type: 'actor', id: `t000${u + 1}`, reply_to: `t000${u}`, answer, content: 'CATILINE: *smiles* "No."', ...(beat ? { beat } : {}) },
];

describe('the /undo reducer', () => {
  it('keeps a /beat given before the undone turn and drops what the undone answer directed', () => {
    const log: TurnRecord[] = [
      { type: 'start', session: 's', seed: 's', setup: SETUP },
      ...exchange(1, 'establishment'),
      { type: 'command', id: 't0003', name: 'beat', args: 'pivot', effect: 'beat pivot reached' },
      ...exchange(4, 'establishment'),
      { type: 'command', id: 't0006', name: 'beat', args: 'resolution', effect: 'beat resolution reached (model directive)' },
      { type: 'command', id: 't0007', name: 'note', args: 'Crassus pays', effect: 'staged note for the season notes (model directive)' },
      { type: 'command', id: 't0008', name: 'character', args: 'crassus', effect: 'crassus enters (model directive)' },
      { type: 'undo', id: 't0009', target: 't0004' },
    ];
    const { state } = replay(log);
    expect(state.exchanges.map((e) => e.user_id)).toEqual(['t0001']);
    expect(state.director.current_beat).toBe('pivot');
    expect(state.director.beats_completed).toContain('pivot');
    expect(state.director.turn_count).toBe(1);
    expect(state.notes).toEqual([]);
    expect(state.cast).toEqual(['catiline']);
    expect(state.seq).toBe(9);
  });
});

describe.skipIf(!builtCli())('aureus play /undo', () => {
  const base = useWorld('play-undo');

  it('takes back the last turn only: the /beat before it stays, and a resume agrees', async () => {
    const w = copyRepo(base(), 'play-undo-beat');
    const args = ['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--session', 'u1', '--json'];
    const r = await playScript(args, w, 'Hello\n/beat pivot\nAgain\n/undo\n/status\n/beat complication\n');
    expect(r.code, r.stderr).toBe(0);
    const notices = r.stdout.trim().split('\n').map((l) => JSON.parse(l)).filter((e) => e.type === 'notice').map((e) => e.message as string);
    expect(notices.some((n) => /^took back t\d{4} and its answer$/.test(n))).toBe(true);
    expect(notices.find((n) => n.startsWith('session u1'))).toContain('turn 1/8 · beat pivot');
    expect(notices.at(-1)).toBe('/beat: the scene is already at pivot, past complication; nothing changed');
    expect(records(w, 'u1').filter((x) => x.type === 'command').map((x) => x.args)).toEqual(['pivot']);
    const again = await playScript(['play', '--resume', 'u1', '--json'], w, '/status\n');
    expect(again.stdout).toContain('turn 1/8 · beat pivot');
  });
});
