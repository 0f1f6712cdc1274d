import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, cli, copyRepo, git, makeWorld } from '../pipeline/world.js';

/**
 * `aureus rollback` builds its revert commits with `git commit-tree`, which ignores commit.gpgSign (git's plumbing
 * stopped reading it): an author who signs every commit got unsigned reverts, where `git revert` had signed them
 * (README: Aureus's commits are signed as yours are). They are signed again; a signer that fails refuses the
 * rollback with the signing hint and changes nothing.
 */
let base = '';
beforeAll(async () => {
  base = await makeWorld('rollback-signing');
  const r = await cli(['season', 'run', '--count', '2'], base);
  if (r.code !== 0) throw new Error(r.stderr);
}, 240_000);
afterAll(cleanup);

/** A signing program that signs anything, as gpg answers git (`--status-fd=2 -bsau <key>`). */
function fakeSigner(dir: string): string {
  const file = path.join(dir, 'fake-gpg.sh');
  fs.writeFileSync(file, "#!/bin/sh\ncat >/dev/null\nprintf '\\n[GNUPG:] SIG_CREATED D 1 10 00 1700000000 FAKE\\n' >&2\nprintf -- '-----BEGIN PGP SIGNATURE-----\\n\\nZmFrZQ==\\n-----END PGP SIGNATURE-----\\n'\n", { mode: 0o755 });
  return file;
}

describe('rollback with commit.gpgSign on', () => {
  it('signs its revert commits, as git revert did', async () => {
    const w = copyRepo(base, 'rollback-signed');
    git(w, 'config', 'commit.gpgsign', 'true');
    git(w, 'config', 'gpg.program', fakeSigner(path.dirname(w)));
    const r = await cli(['rollback', 's01e01'], w);
    expect(r.code, r.stderr).toBe(0);
    for (const c of ['HEAD', 'HEAD~1']) {
      expect(git(w, 'log', '-1', '--format=%s', c)).toMatch(/^Revert "S01E0[12]: /);
      expect(git(w, 'cat-file', '-p', c)).toContain('gpgsig -----BEGIN PGP SIGNATURE-----');
    }
  }, 120_000);

  it('a signer that fails: exit 10 with the signing hint, nothing changed', async () => {
    const w = copyRepo(base, 'rollback-unsignable');
    git(w, 'config', 'commit.gpgsign', 'true');
    git(w, 'config', 'gpg.program', 'false');
    const before = { head: git(w, 'rev-parse', 'HEAD'), tags: git(w, 'tag', '-l'), status: git(w, 'status', '--porcelain') };
    const r = await cli(['rollback', 's01e01'], w);
    expect(r.code, r.stderr).toBe(10);
    expect(r.stderr).toContain('git is set to sign commits and tags here');
    expect({ head: git(w, 'rev-parse', 'HEAD'), tags: git(w, 'tag', '-l'), status: git(w, 'status', '--porcelain') }).toEqual(before);
  }, 120_000);
});
