import { describe, expect, it } from 'vitest';
import { builtCli, cli, copyRepo } from '../pipeline/world.js';
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
    expect(next.stdout).toContain('session cicero-003 saved (1 turn);');
    expect(records(w, 'cicero-003').filter((r) => r.type === 'user').map((r) => r.text)).toEqual(['Where were you?']);
    expect(records(w, 'cicero-002').filter((r) => r.type === 'user')).toEqual([]);
  });

  it('--resume with a flag of the scene it keeps (--turns, --as …) is a usage error, not silently ignored', async () => {
    const w = copyRepo(base(), 'play-ids-resume-flags');
    const first = await playScript([...scene, '--session', 'r1', '--mode', 'open'], w, 'Where were you?\n');
    expect(first.code, first.stderr).toBe(0);
    const before = records(w, 'r1').length;
    for (const extra of [['--turns', '12'], ['--as', 'caesar'], ['--mode', 'turn_limited'], ['--seed', 'alt']]) {
      const r = await playScript(['play', '--resume', 'r1', ...extra], w, 'Answer me.\n');
      expect(r.code, `${extra.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(`AUR7012 ${extra[0]} cannot be used with --resume`);
      expect(records(w, 'r1')).toHaveLength(before);
    }
    const json = await cli(['play', '--resume', 'r1', '--turns', '12', '--json'], w);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout).error).toMatchObject({ exit_code: 2, codes: ['AUR7012'] });
    // The flags a resume does take still work with it.
    const ok = await playScript(['play', '--resume', 'r1', '--max-input', '500', '--brief-budget', '400'], w, 'Answer me.\n/end\n');
    expect(ok.code, ok.stderr).toBe(0);
    expect(records(w, 'r1').filter((r) => r.type === 'user').map((r) => r.text)).toEqual(['Where were you?', 'Answer me.']);
  });
});
