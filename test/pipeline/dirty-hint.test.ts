import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtCli, copyRepo, git, spawnCli } from './world.js';
import { useWorld } from '../support/use-world.js';

/**
 * AUR6001's hint said "`git add <file>` and `git commit` keep an edit; `git checkout -- <file>` drops
 * one": the author had to work out which files and which command fits each. It now names the dirty
 * paths in each command (a few, then how many more), quoted for a shell, and the commands run as given.
 */
describe.skipIf(!builtCli())('the AUR6001 hint names the dirty paths', () => {
  const base = useWorld('dirty-hint');
  const hintOf = (stderr: string): string => /^\s+hint: commit or discard them first: (.*)$/m.exec(stderr)?.[1] ?? '';
  const commands = (text: string): string[] => [...text.matchAll(/`([^`]*)`/g)].map((m) => m[1]!).filter((c) => c.startsWith('git '));

  it('edited, new and oddly named files: each command names its own, quoted; run as given, the world is clean', async () => {
    const w = copyRepo(base(), 'dirty-hint-few');
    fs.appendFileSync(path.join(w, 'world/world.json'), '\n');
    fs.writeFileSync(path.join(w, 'style', "Cato's $HOME; notes.md"), 'a note of my own\n');
    const r = await spawnCli(['episode', 'run'], w);
    expect(r.code, r.stderr).toBe(8);
    const hint = hintOf(r.stderr);
    expect(hint).toBe("to keep them, `git add -- world/world.json 'style/Cato'\\''s $HOME; notes.md' && git commit`; to discard them, `git checkout HEAD -- world/world.json` and `git clean -fd -- 'style/Cato'\\''s $HOME; notes.md'` (or move a new file away), or pass --allow-dirty to run on top of them");
    const [, checkout, clean] = commands(hint);
    for (const c of [checkout!, clean!]) execFileSync('sh', ['-c', c], { cwd: w });
    expect(git(w, 'status', '--porcelain')).toBe('');
  }, 60_000);

  it('many files: a few named, then how many more; a file added and never committed is removed with git rm', async () => {
    const w = copyRepo(base(), 'dirty-hint-many');
    for (const f of fs.readdirSync(path.join(w, 'world'))) fs.appendFileSync(path.join(w, 'world', f), '\n');
    fs.writeFileSync(path.join(w, 'style/added.md'), 'added\n');
    git(w, 'add', 'style/added.md');
    const r = await spawnCli(['episode', 'run', '--json'], w);
    expect(r.code, r.stderr).toBe(8);
    const hint = hintOf(r.stderr);
    const worlds = fs.readdirSync(path.join(w, 'world')).sort().map((f) => `world/${f}`);
    expect(hint).toContain(`\`git checkout HEAD -- ${worlds.slice(0, 4).join(' ')}\` (…and ${worlds.length - 4} more: \`git status\` lists them)`);
    expect(hint).toContain('`git rm -f -- style/added.md`');
    expect(hint).toMatch(/^to keep them, `git add -- style\/added\.md world\/\S+ world\/\S+ world\/\S+ && git commit` \(…and \d+ more/);
    expect(JSON.parse(r.stdout).error.codes).toEqual(['AUR6001']);
  }, 60_000);
});
