import { describe, expect, it } from 'vitest';
import { builtCli, copyRepo } from '../pipeline/world.js';
import { useWorld } from '../support/use-world.js';
import { playScript, records } from './support.js';

/** The session a play gets without --session, and what --resume does with the flags of a new session. */
describe.skipIf(!builtCli())('aureus play, session ids', () => {
  const base = useWorld('play-ids');
  const scene = ['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline'];

  it('the default <principal>-NNN skips an id a --session already took', async () => {
    const w = copyRepo(base(), 'play-ids-taken');
    const named = await playScript([...scene, '--session', 'cicero-002'], w, '/end\n');
    expect(named.code, named.stderr).toBe(0);
    // One session so far: the next default would be cicero-002, which is taken.
    const next = await playScript(scene, w, 'Where were you?\n/end\n');
    expect(next.code, next.stderr).toBe(0);
    expect(next.stdout).toContain('session cicero-003 saved (1 turn(s))');
    expect(records(w, 'cicero-003').filter((r) => r.type === 'user').map((r) => r.text)).toEqual(['Where were you?']);
    expect(records(w, 'cicero-002').filter((r) => r.type === 'user')).toEqual([]);
  });
});
