import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSeasonGoals } from '../../../src/stages/planning.js';
import { AureusError } from '../../../src/errors.js';
import { cleanup, cli, makeWorld, tempDir } from '../../pipeline/world.js';

afterAll(cleanup);

/**
 * The committed inputs planning reads beside the world files: the previous episode's cliffhanger
 * (AUR3003) and the season goals (AUR3009). One that cannot be read stops the plan with exit 3,
 * naming the file, instead of planning from half an input.
 */
describe('planning inputs that cannot be read', () => {
  it('a previous cliffhanger that is not JSON: episode plan exits 3 with AUR3003 naming the file', async () => {
    const w = await makeWorld('inputs-cliff');
    const run = await cli(['episode', 'run', '--seed', '7'], w);
    expect(run.code, run.stderr.slice(-800)).toBe(0);
    const rel = 'seasons/season_01/episode_01/cliffhanger_constraints.json';
    fs.writeFileSync(path.join(w, rel), '{"kind": "political", "location": ');
    const r = await cli(['episode', 'plan'], w);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain(`${rel}\n  error AUR3003 cannot read the previous cliffhanger: invalid JSON: `);
    // Of the right syntax but not a cliffhanger: said as such.
    fs.writeFileSync(path.join(w, rel), '{"kind": "lunar"}\n');
    const shape = await cli(['episode', 'plan', '--json'], w);
    expect(shape.code).toBe(3);
    expect(JSON.parse(shape.stdout).error.codes).toEqual(['AUR3003']);
    expect(shape.stderr).toContain('it needs kind, location and characters');
  }, 240_000);

  it('season goals that are not JSON, or lack their fields: AUR3009 naming the file', async () => {
    const root = tempDir('inputs-goals');
    const rel = 'seasons/season_01/season_goals.json';
    fs.mkdirSync(path.join(root, path.dirname(rel)), { recursive: true });
    expect(await readSeasonGoals(root, 2)).toBeNull(); // no goals for that season: nothing to pace
    for (const [text, detail] of [['{"episodes_planned": 6,', 'invalid JSON'], ['{"episodes_planned": "six"}', 'it needs episodes_planned and finale_threads']]) {
      fs.writeFileSync(path.join(root, rel), text);
      const err = (await readSeasonGoals(root, 1).catch((e: unknown) => e)) as AureusError;
      expect(err).toBeInstanceOf(AureusError);
      expect(err.exitCode).toBe(3);
      expect(err.diagnostics.map((d) => [d.code, d.file])).toEqual([['AUR3009', rel]]);
      expect(err.diagnostics[0]!.message).toContain(detail);
    }
  });
});
