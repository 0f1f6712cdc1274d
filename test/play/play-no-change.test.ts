import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtCli, copyRepo, git } from '../pipeline/world.js';
import { useWorld } from '../support/use-world.js';
import { playScript, records } from './support.js';

/**
 * A proposal the canon gate accepts but that changes nothing (a weight already at its limit) is
 * accepted, with nothing committed. An audit found it left pending: every later checkpoint said
 * "nothing to canonize" and `session show` kept it `[pending]` for good.
 */
describe.skipIf(!builtCli())('aureus play: an accepted proposal that changes nothing', () => {
  const base = useWorld('play-no-change');

  it('is accepted, no commit is made, and it is not pending afterwards', async () => {
    const w = copyRepo(base(), 'play-no-change');
    const file = path.join(w, 'world/relationships.json');
    const rel = JSON.parse(fs.readFileSync(file, 'utf8')) as { relationships: { from: string; to: string; weights: Record<string, number> }[] };
    for (const r of rel.relationships) if (r.from === 'catiline' && r.to === 'cicero') r.weights.rivalry = 1;
    fs.writeFileSync(file, JSON.stringify(rel, null, 2) + '\n');
    git(w, 'commit', '-qam', 'rivalry at its limit');
    const head = git(w, 'rev-parse', 'HEAD');
    const r = await playScript(['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--session', 'nc1'], w, 'Where were you?\n/end\n');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\[canon\] accepted p1: no change to the world/);
    expect(git(w, 'rev-parse', 'HEAD')).toBe(head);
    const canon = records(w, 'nc1').filter((x) => x.type === 'canonized');
    expect(canon).toEqual([expect.objectContaining({ commit: null, accepted: ['p1'] })]);
    const shown = JSON.parse((await playScript(['session', 'show', 'nc1', '--json'], w, '')).stdout) as { proposals: { id: string; status: string }[] };
    expect(shown.proposals.map((p) => [p.id, p.status])).toEqual([['p1', 'accepted']]);
  });
});
