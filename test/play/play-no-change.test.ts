import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtCli, copyRepo, git } from '../pipeline/world.js';
import { useWorld } from '../support/use-world.js';
import { playScript, records } from './support.js';

/**
 * A proposal the canon gate judges fine but that changes nothing (a weight already at its limit, a
 * death spoken of that stays the scene's word) is resolved with nothing committed, and reported as
 * unchanged: not pending (an audit found it left pending: every later checkpoint said "nothing to
 * canonize" and `session show` kept it `[pending]` for good), and not canon either (an audit found
 * "What changed" listing as canon what was never written, and `"commit":null,"accepted":["p1"]`).
 */
describe.skipIf(!builtCli())('aureus play: a proposal that changes nothing', () => {
  const base = useWorld('play-no-change');

  it('is resolved as unchanged, no commit is made, and nothing reports it as canon', async () => {
    const w = copyRepo(base(), 'play-no-change');
    const file = path.join(w, 'world/relationships.json');
    const rel = JSON.parse(fs.readFileSync(file, 'utf8')) as { relationships: { from: string; to: string; weights: Record<string, number> }[] };
    for (const r of rel.relationships) if (r.from === 'catiline' && r.to === 'cicero') r.weights.rivalry = 1;
    fs.writeFileSync(file, JSON.stringify(rel, null, 2) + '\n');
    git(w, 'commit', '-qam', 'rivalry at its limit');
    const head = git(w, 'rev-parse', 'HEAD');
    const r = await playScript(['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--session', 'nc1'], w, 'Where were you?\n/end\n');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\[canon\] p1: no change to the world \(already so, or kept as the scene's word\); nothing to commit/);
    expect(r.stdout).toContain("  - no change (nothing written): catiline's rivalry toward cicero moved with the exchange");
    expect(r.stdout).not.toMatch(/^ {2}- canon:/m);
    expect(git(w, 'rev-parse', 'HEAD')).toBe(head);
    const canon = records(w, 'nc1').filter((x) => x.type === 'canonized');
    expect(canon).toEqual([expect.objectContaining({ commit: null, accepted: [], unchanged: ['p1'] })]);
    const shown = JSON.parse((await playScript(['session', 'show', 'nc1', '--json'], w, '')).stdout) as { proposals: { id: string; status: string }[] };
    expect(shown.proposals.map((p) => [p.id, p.status])).toEqual([['p1', 'unchanged']]);
  });

  it('a death spoken of that stays the scene\'s word: --json says unchanged, and the evaluation no change', async () => {
    const w = copyRepo(base(), 'play-no-change-rumor');
    const head = git(w, 'rev-parse', 'HEAD');
    const r = await playScript(['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--mode', 'open', '--session', 'nc2', '--json'], w, 'They say a slave was murdered at the Subura last night.\n/end\n');
    expect(r.code, r.stderr).toBe(0);
    const events = r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string; commit?: string | null; accepted?: string[]; unchanged?: string[]; evaluation?: { world_changes: string[] } });
    expect(events.find((e) => e.type === 'canonized')).toMatchObject({ commit: null, accepted: [], unchanged: ['p1'] });
    expect(events.find((e) => e.type === 'episode_complete')!.evaluation!.world_changes).toEqual(['no change (nothing written): a death spoken of in the scene (kept as rumor unless canon agrees) [t0002]']);
    expect(git(w, 'rev-parse', 'HEAD')).toBe(head);
  });
});
