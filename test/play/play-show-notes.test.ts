import { describe, expect, it } from 'vitest';
import { builtCli, cli, copyRepo } from '../pipeline/world.js';
import { useWorld } from '../support/use-world.js';
import { playScript } from './support.js';

/**
 * `session show` gives the session's notes and proposed threads, each with the canonization that
 * committed it (tag play/<session>/<n>) or pending; a canonization no longer wipes them from the state.
 */
describe.skipIf(!builtCli())('aureus session show: notes and threads', () => {
  const base = useWorld('play-show-notes');

  it('lists every note and thread, canonized (in which canonization) or pending, in text and --json', async () => {
    const w = copyRepo(base(), 'show-notes');
    const input = ['Catiline, where were you last night?', '/note Catiline lies about Faesulae', '/commit', '/thread Will Crassus pay?', '/note Ask Crassus'].join('\n') + '\n';
    const r = await playScript(['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--mode', 'open', '--session', 'sn'], w, input);
    expect(r.code, r.stderr).toBe(0);
    const text = await cli(['session', 'show', 'sn'], w);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/\nnotes:\n {2}t\d{4} \[canonized: play\/sn\/1\] Catiline lies about Faesulae\n {2}t\d{4} \[pending\] Ask Crassus\n/);
    expect(text.stdout).toMatch(/\nproposed threads:\n {2}t\d{4} \[pending\] Will Crassus pay\?\n/);
    const j = JSON.parse((await cli(['session', 'show', 'sn', '--json'], w)).stdout) as { notes: unknown[]; proposed_threads: unknown[] };
    expect(j.notes).toEqual([
      { text: 'Catiline lies about Faesulae', turn: expect.stringMatching(/^t\d{4}$/), status: 'canonized', canonization: 1 },
      { text: 'Ask Crassus', turn: expect.stringMatching(/^t\d{4}$/), status: 'pending', canonization: null },
    ]);
    expect(j.proposed_threads).toEqual([{ question: 'Will Crassus pay?', turn: expect.stringMatching(/^t\d{4}$/), status: 'pending', canonization: null }]);

    // Ending the scene commits the pending ones (canonization 2), the first is not written again.
    expect((await playScript(['play', '--resume', 'sn'], w, '/end\n')).code).toBe(0);
    const after = JSON.parse((await cli(['session', 'show', 'sn', '--json'], w)).stdout) as { notes: { canonization: number }[]; proposed_threads: { canonization: number }[] };
    expect(after.notes.map((n) => n.canonization)).toEqual([1, 2]);
    expect(after.proposed_threads.map((n) => n.canonization)).toEqual([2]);
  });
});
