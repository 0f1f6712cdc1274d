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
    expect(git(root, 'config', '--get', 'diff.aureus-json.xfuncname')).toBe('^  "[^"]+": [[{]');
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

  it('world diffs name, in each hunk header, the list the hunk\'s first change is in (never another entity)', () => {
    // Before: the `"id"` pattern named the element above (keys are sorted: "denarii" comes before
    // "id"), e.g. "caesar" over a change to Crassus' denarii in world/assets.json.
    const files = git(root, 'diff', '--name-only', first, 's01e01', '--', 'world/').split('\n');
    let checked = 0;
    for (const file of files) {
      const lines = git(root, 'show', `s01e01:${file}`).split('\n');
      const section = (upTo: number) => {
        for (let n = upTo; n >= 1; n--) if (/^  "[^"]+": [[{]/.test(lines[n - 1])) return { n, text: lines[n - 1] };
        return null;
      };
      const diff = git(root, 'diff', first, 's01e01', '--', file).split('\n');
      for (let k = 0; k < diff.length; k++) {
        const m = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@ ?(.*)$/.exec(diff[k]);
        if (!m) continue;
        const start = Number(m[1]);
        let at = start;
        for (let q = k + 1; q < diff.length && /^[ +-]/.test(diff[q]) && !/^[+-]/.test(diff[q]); q++) at++;
        const owner = section(at);
        if (!owner || owner.n >= start) continue; // the list opens inside the hunk: shown there
        expect(m[2], `${file} ${diff[k]}`).toBe(owner.text);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10);
  });
});
