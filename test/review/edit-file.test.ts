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
});
