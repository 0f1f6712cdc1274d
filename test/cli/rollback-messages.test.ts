import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, cli, git, makeWorld } from '../pipeline/world.js';

afterAll(cleanup);

describe('rollback refusals say why', () => {
  it('tells "never committed" from "already rolled back" (exit 2, nothing written)', async () => {
    const root = await makeWorld('rb-msg');
    const before = git(root, 'rev-parse', 'HEAD');
    const none = await cli(['rollback', 's01e01'], root);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('AUR6022 no episode s01e01 has been committed');
    expect(none.stderr).not.toContain('not in the history');
    expect(git(root, 'rev-parse', 'HEAD')).toBe(before);

    const run = await cli(['episode', 'run', '--json'], root);
    expect(run.code, run.stderr).toBe(0);
    expect((await cli(['rollback', 's01e01'], root)).code).toBe(0);
    const head = git(root, 'rev-parse', 'HEAD');
    const tag = git(root, 'tag', '--list', 'rolledback/s01e01/*');
    expect(tag).toMatch(/^rolledback\/s01e01\/[0-9a-f]{10}$/);

    const again = await cli(['rollback', 's01e01'], root);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`AUR6021 episode s01e01 was rolled back (tag ${tag})`);
    expect(again.stderr).not.toContain('not in the history');
    expect(git(root, 'rev-parse', 'HEAD')).toBe(head);
  }, 300_000);

  it("keeps the author's staged files out of the revert commit, and staged", async () => {
    const root = await makeWorld('rb-staged');
    expect((await cli(['episode', 'run', '--json'], root)).code).toBe(0);
    fs.writeFileSync(path.join(root, 'NOTES.md'), 'note\n');
    git(root, 'add', 'NOTES.md');
    const r = await cli(['rollback', 's01e01'], root);
    expect(r.code, r.stderr).toBe(0);
    expect(git(root, 'show', '--pretty=format:', '--name-only', 'HEAD')).not.toContain('NOTES.md');
    expect(git(root, 'status', '--porcelain')).toBe('A  NOTES.md');
  }, 300_000);

  it('documents branch-qualified tags in rollback and branch --help', async () => {
    const rb = await cli(['rollback', '--help'], process.cwd());
    expect(rb.code).toBe(0);
    expect(rb.stdout).toContain('<branch>/s01e03');
    const br = await cli(['branch', '--help'], process.cwd());
    expect(br.stdout).toContain('<name>/sNNeNN');
    expect(br.stdout).toContain('held by another line');
  });
});
