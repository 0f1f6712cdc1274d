import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hashTree } from '../cli/helpers.js';
import { cleanup, cli, makeWorld } from '../pipeline/world.js';

afterAll(cleanup);

/**
 * `scene edit --from FILE` reads the file as every text aureus trusts is read (as `scene verify`
 * reads a scene): a missing one is named with why, and one that is not UTF-8 is refused at its first
 * bad byte's line:column, never staged with U+FFFD in place of the author's letters.
 */
describe('scene edit --from', () => {
  it('names a missing file, refuses a file that is not UTF-8 (exit 3, AUR1003 at line:col), and stages nothing', async () => {
    const w = await makeWorld('edit-file');
    const staged = await cli(['episode', 'run', '--review', '--json'], w);
    expect(staged.code, staged.stderr).toBe(0);
    const before = hashTree(path.join(w, '.aureus'));

    const missing = await cli(['scene', 'edit', 'SC03', '--from', 'nope.txt'], w);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read .*nope\.txt: no such file/);
    expect(missing.stderr).not.toMatch(/ENOENT|edit of  /);

    const latin1 = path.join(path.dirname(w), 'sc03.txt');
    const prose = 'Cicero waits in the lane while the crowd thins and the shutters close one by one; nobody speaks his name aloud. '.repeat(3);
    fs.writeFileSync(latin1, Buffer.concat([Buffer.from(`${prose}\n> CICERO: Caf`), Buffer.from([0xe9]), Buffer.from(' tonight, then we begin.\n')]));
    const bad = await cli(['scene', 'edit', 'SC03', '--from', latin1, '--json'], w);
    expect(bad.code, bad.stderr).toBe(3);
    expect(bad.stderr).toMatch(/2:14: error AUR1003 /);
    expect(JSON.parse(bad.stdout).error.codes).toEqual(['AUR1003']);
    expect(hashTree(path.join(w, '.aureus'))).toBe(before);
  }, 240_000);

  it('reports a word said twenty times on one line once, with (×20): in the output and the staged verifier_report.json', async () => {
    const w = await makeWorld('edit-repeat');
    const staged = await cli(['episode', 'run', '--review', '--json'], w);
    expect(staged.code, staged.stderr).toBe(0);
    const run = path.join(w, JSON.parse(staged.stdout).run_dir as string);
    const file = path.join(path.dirname(w), 'sc02.txt');
    fs.writeFileSync(file, `## SC02 — EXT. THE SUBURA - DAY\n\nMud. ${Array(20).fill('OK').join(' ')}.\nOK, says the baker.\n`);
    const r = await cli(['scene', 'edit', 'SC02', '--from', file], w);
    expect(r.code, r.stderr).toBe(4); // staged, but it breaks a check
    const rows = (r.stdout + r.stderr).split('\n').filter((l) => l.includes('AUR5050'));
    // Was twenty identical rows `AUR5050 anachronism "OK" (line 4)` (a line of the staged draft, after its ---SCENE_TEXT---); the next line's "OK" is its own.
    // Each is placed at its line:column of the author's file (not the draft's line), at the word's first place, quoted, with its fix, as `scene verify` prints it.
    expect(rows.map((l) => l.trim())).toEqual([`${file}:3:6: hard AUR5050 anachronism "OK" (×20)`, `${file}:4:1: hard AUR5050 anachronism "OK"`]);
    expect(r.stdout).toContain('    > OK, says the baker.\n    fix: Replace "OK" with');
    for (const rel of ['verifier_report.json', 'stage/seasons/season_01/episode_01/verifier_report.json']) {
      const report = JSON.parse(fs.readFileSync(path.join(run, rel), 'utf8')) as { scenes: { scene: string; attempts: { findings: { code: string; message: string; span?: { line: number } }[] }[] }[] };
      const last = report.scenes.find((s) => s.scene === 'SC02')!.attempts.at(-1)!;
      expect(last.findings.filter((f) => f.code === 'AUR5050').map((f) => [f.message, f.span?.line]), rel).toEqual([['anachronism "OK" (×20)', 4], ['anachronism "OK"', 5]]);
    }
  }, 240_000);
});
