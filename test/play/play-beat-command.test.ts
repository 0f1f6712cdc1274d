import { describe, expect, it } from 'vitest';
import { builtCli, copyRepo } from '../pipeline/world.js';
import { useWorld } from '../support/use-world.js';
import { playScript, records } from './support.js';

/** /beat answers as the other commands do: a beat reached is said, one the scene is past is refused. */
describe.skipIf(!builtCli())('aureus play, /beat', () => {
  const base = useWorld('play-beat');

  it('says the beat reached; a beat at or before the current one changes nothing and says so', async () => {
    const w = copyRepo(base(), 'play-beat-order');
    const r = await playScript(['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--mode', 'open', '--session', 'bt1', '--json'], w, '/beat pivot\n/beat establishment\n/beat pivot\n/status\n/end\n');
    expect(r.code, r.stderr).toBe(0);
    const notices = r.stdout.trim().split('\n').map((l) => JSON.parse(l)).filter((e) => e.type === 'notice').map((e) => e.message);
    expect(notices[0]).toBe('beat pivot reached');
    expect(notices[1]).toBe('/beat: the scene is already at pivot, past establishment; nothing changed');
    expect(notices[2]).toBe('/beat: the scene is already at pivot; nothing changed');
    expect(notices[3]).toContain('beat pivot');
    // Only the beat that moved the scene is in the log.
    expect(records(w, 'bt1').filter((x) => x.type === 'command').map((x) => [x.name, x.args])).toEqual([['beat', 'pivot'], ['end', '']]);
  });
});
