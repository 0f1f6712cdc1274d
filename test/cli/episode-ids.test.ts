import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, cli, git, makeWorld } from '../pipeline/world.js';

/**
 * README: "Episode ids are `sNNeNN`; anything else … is a usage error". Before, `note --episode s1e1`
 * and `recap s1e1` took s1e1 as s01e01, `cost s1e1` said it had "no run log at s1e1", and `note
 * --episode 5` was refused: one parser (season/episode-id.ts) now reads them for every command, strictly.
 */
afterAll(cleanup);

describe('episode ids on the command line', () => {
  it('only sNNeNN is an episode id, for every command that takes one (AUR6005, exit 2, nothing written)', async () => {
    const w = await makeWorld('episode-ids');
    const run = await cli(['episode', 'run'], w);
    expect(run.code, run.stderr).toBe(0);
    const head = git(w, 'rev-parse', 'HEAD');
    const cases: [string[], string][] = [];
    for (const id of ['s1e1', 'S01E01', 's001e01', '5']) {
      const argvs = [['note', 'Cato sulks', '--episode', id], ['recap', id], ['cost', id], ['export', id], ['diff', id, 's01e01'], ['rollback', id], ['branch', `b-${id}`, '--from', id]];
      cases.push(...argvs.map((a): [string[], string] => [a, id]));
    }
    for (const [argv, id] of cases) {
      if (argv[0] !== 'note' && id === '5') continue; // a bare number is a path or a ref there, not an episode id written otherwise
      const r = await cli(argv, w);
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr, argv.join(' ')).toContain(`error AUR6005 not an episode id: "${id}"`);
    }
    const json = await cli(['cost', 's1e1', '--json'], w);
    expect(JSON.parse(json.stdout).error.codes).toEqual(['AUR6005']);
    expect(git(w, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(w, 'status', '--porcelain')).toBe('');
    for (const argv of [['recap', 's01e01'], ['cost', 's01e01'], ['export', 's01e01']]) {
      const r = await cli(argv, w);
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(0);
    }
  }, 120_000);
});
