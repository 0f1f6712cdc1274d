import { describe, expect, it } from 'vitest';
import { builtCli, copyRepo } from '../pipeline/world.js';
import { steps } from '../support/fake-anthropic-server.js';
import { jsonEvents, playHandler, usePlayModel } from '../support/play-model.js';
import { playScript } from './support.js';

/**
 * What the player is shown: no directive in any field of `--json`, a model directive's notice after
 * the line that carried it, the brief's budget kept on the text sent (and said once when even its
 * smallest form is over), and the help's exit codes.
 */
type Event = { type: string; message?: string; structured?: Record<string, unknown> };

describe.skipIf(!builtCli())('aureus play: what the player sees', () => {
  const { server, base, env } = usePlayModel('play-output');

  it('strips a directive from every field of the answer, mood included, and says its notices after the line that carried it', async () => {
    const answer = {
      speaker: 'catiline',
      action: 'smiles [DIRECTIVE:end]',
      dialogue: 'Ask Crassus who holds my notes.',
      internal: 'He knows.',
      mood: '[DIRECTIVE:note|idea:Catiline is wary of Crassus] wary',
      tension_shift: 0,
    };
    server.handler = playHandler('complication', () => steps.json(answer));
    const w = copyRepo(base(), 'play-out-directives');
    const r = await playScript(['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--mode', 'open', '--session', 'o1', '--json'], w, 'Speak!\n', env());
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('DIRECTIVE');
    const events = jsonEvents<Event>(r.stdout).filter((e) => e.type !== 'chunk');
    expect(events.find((e) => e.type === 'message_complete')!.structured).toMatchObject({ mood: 'wary', action: 'smiles' });
    // The line first, then what its directives did, in order.
    expect(events.map((e) => (e.type === 'notice' ? `notice: ${e.message}` : e.type))).toEqual([
      'message_complete',
      'notice: the model wrote an end directive, which is yours to give (/end); it was ignored',
      'notice: noted (saved to the season notes at the next canonization)',
      'done',
    ]);
  });
});
