import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, cli, git, makeWorld } from '../pipeline/world.js';

/**
 * A world repository reads well in git: run artifacts are generated (no line diffs, collapsed on
 * GitHub) and world diffs name the entity in each hunk header.
 */
let root: string;
let first: string;
beforeAll(async () => {
  root = await makeWorld('attrs');
  first = git(root, 'rev-parse', 'HEAD');
  const r = await cli(['episode', 'run'], root);
  if (r.code !== 0) throw new Error(r.stderr);
});
afterAll(cleanup);

describe('world repository .gitattributes and the entity diff driver', () => {
  it('init commits a .gitattributes and configures the aureus-json driver', () => {
    expect(git(root, 'ls-files', '.gitattributes')).toBe('.gitattributes');
    expect(git(root, 'config', '--get', 'diff.aureus-json.xfuncname')).toContain('"id"');
  });

  it('marks the run artifacts generated and keeps the script and recap readable', () => {
    const ep = 'seasons/season_01/episode_01';
    const attr = (file: string, name: string) => git(root, 'check-attr', name, '--', `${ep}/${file}`).split(': ').pop();
    for (const f of ['packets/SC01.json', 'run_log.jsonl', 'verifier_report.json', 'episode_context.json']) {
      expect(attr(f, 'linguist-generated'), f).toBe('set');
      expect(attr(f, 'diff'), f).toBe('unset');
    }
    for (const f of ['episode_script.md', 'recap.md', 'cliffhanger_constraints.json']) expect(attr(f, 'diff'), f).toBe('unspecified');
    // The episode commit's diff: packets count as binary (no lines), the script as text.
    const numstat = git(root, 'diff', '--numstat', first, 's01e01');
    expect(numstat).toMatch(/^-\t-\tseasons\/season_01\/episode_01\/packets\/SC01\.json$/m);
    expect(numstat).toMatch(/^\d+\t\d+\tseasons\/season_01\/episode_01\/episode_script\.md$/m);
  });

  it('world diffs name the entity in each hunk header', () => {
    // world.json holds the calendar and global metrics, no entities: its hunks have no id to name.
    const diff = git(root, 'diff', first, 's01e01', '--', 'world/', ':!world/world.json');
    const headers = diff.split('\n').filter((l) => l.startsWith('@@'));
    expect(headers.length).toBeGreaterThan(0);
    const named = headers.filter((h) => /@@ .* @@ +"id": "[a-z0-9_]+"/.test(h));
    expect(named.length / headers.length).toBeGreaterThan(0.5);
  });
});
