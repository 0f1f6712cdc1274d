import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readPreviousCliffhanger, readSeasonGoals } from '../../../src/stages/planning.js';
import { episodeRef } from '../../../src/domain/context.js';
import { AureusError } from '../../../src/errors.js';
import { BIN, builtCli, cleanup, cli, git, makeWorld, tempDir } from '../../pipeline/world.js';

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
    // At its line:column, as `aureus validate` places a syntax error.
    expect(r.stderr).toContain(`${rel}\n  1:34: error AUR3003 cannot read the previous cliffhanger: invalid JSON: unexpected end of the file`);
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
    // A syntax error is placed at its line:column, as `aureus validate` places it (was JSON.parse's bare message).
    fs.writeFileSync(path.join(root, rel), '{\n  "episodes_planned": 6,\n}\n');
    const err = (await readSeasonGoals(root, 1).catch((e: unknown) => e)) as AureusError;
    expect(err.diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([['AUR3009', 3, 1]]);
  });
});

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const withBom = (file: string): void => fs.writeFileSync(file, Buffer.concat([BOM, fs.readFileSync(file)]));

/**
 * Planning read its inputs with JSON.parse: a BOM `aureus validate` passes (AUR1040, a warning) was
 * AUR3009 or AUR3003 with JSON.parse's message, the raw BOM in it, and a FIFO hung the plan. They
 * now go through the store's reader, as validate does.
 */
describe('planning inputs read as the store reads them', () => {
  it('season goals with a BOM: readSeasonGoals reads them; validate and episode plan agree (exit 0)', async () => {
    const w = await makeWorld('inputs-goals-bom');
    const rel = 'seasons/season_01/season_goals.json';
    const goals = await readSeasonGoals(w, 1);
    withBom(path.join(w, rel));
    expect(await readSeasonGoals(w, 1)).toEqual(goals);
    expect((await cli(['validate'], w)).code).toBe(0);
    const r = await cli(['episode', 'plan'], w);
    expect(r.code, r.stderr).toBe(0);
  }, 120_000);

  it.skipIf(!builtCli())('a previous cliffhanger with a BOM plans and runs; a FIFO there is AUR3003, not a hang', async () => {
    const w = await makeWorld('inputs-cliff-bom');
    expect((await cli(['episode', 'run', '--seed', '7'], w)).code).toBe(0);
    const rel = 'seasons/season_01/episode_01/cliffhanger_constraints.json';
    const cliff = await readPreviousCliffhanger(w, episodeRef(1, 2));
    withBom(path.join(w, rel));
    git(w, 'commit', '-qam', 'BOM');
    expect(await readPreviousCliffhanger(w, episodeRef(1, 2))).toEqual(cliff);
    const plan = await cli(['episode', 'plan'], w);
    expect(plan.code, plan.stderr).toBe(0);
    const run = await cli(['episode', 'run'], w);
    expect(run.code, run.stderr.slice(-800)).toBe(0);
    git(w, 'reset', '-q', '--hard', 's01e01');
    git(w, 'tag', '-d', 's01e02');
    fs.rmSync(path.join(w, rel));
    execFileSync('mkfifo', [path.join(w, rel)]);
    // The FIFO is an uncommitted change of a planning input: a plain run refuses it first (exit 8,
    // AUR6001, read by git, never opened); --allow-dirty goes on to read it.
    const refused = spawnSync(process.execPath, [BIN, 'episode', 'run'], { cwd: w, encoding: 'utf8', timeout: 60_000, killSignal: 'SIGKILL', env: { ...process.env, NO_COLOR: '1', ANTHROPIC_API_KEY: '' } });
    expect(refused.status, refused.stderr).toBe(8);
    expect(refused.stderr).toContain(`error AUR6001 uncommitted changes to the episodes' files: ${rel}`);
    for (const args of [['episode', 'plan'], ['episode', 'run', '--allow-dirty']]) {
      // The limit only ends a hang (the bug), so the test fails instead of sticking; a process blocked on a FIFO runs no signal handler.
      const p = spawnSync(process.execPath, [BIN, ...args], { cwd: w, encoding: 'utf8', timeout: 60_000, killSignal: 'SIGKILL', env: { ...process.env, NO_COLOR: '1', ANTHROPIC_API_KEY: '' } });
      expect(p.signal, args.join(' ')).toBeNull();
      expect(p.status, p.stderr).toBe(3);
      expect(p.stderr).toContain(`error AUR3003 cannot read the previous cliffhanger: cannot read ${rel}: it is a named pipe (FIFO)`);
    }
  }, 240_000);
});
