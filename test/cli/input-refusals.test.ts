import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageCopy, REPO, runCli, STACK_TRACE, tempDirsPerTest } from './helpers.js';
import { editJson, git } from '../pipeline/world.js';

const { temp, keep } = tempDirsPerTest();

/** A world made by `aureus init` in a temp folder. */
async function world(label: string): Promise<string> {
  const dir = path.join(temp(label), 'w');
  const r = await runCli(['init', dir]);
  expect(r.code, r.stderr).toBe(0);
  return dir;
}

function refused(r: { code: number; stderr: string }, exit: number, text: string): void {
  expect(r.code, r.stderr).toBe(exit);
  expect(r.stderr).toContain(text);
  expect(r.stderr).not.toMatch(STACK_TRACE);
}

/**
 * Bad input a user can give, each refused with its catalog code, its exit code and nothing written.
 * These codes were in the catalog with no test naming them.
 */
describe('input refusals', () => {
  it('an empty note, a malformed steering flag (AUR3062, exit 2): nothing written', async () => {
    const w = await world('in-note');
    // The files as git sees them, ignored ones (.aureus/) included: .git's own may change under git's upkeep.
    const before = git(w, 'status', '--porcelain', '--ignored');
    refused(await runCli(['-C', w, 'note', '']), 2, 'error AUR3062 bad note value "": the note is empty');
    refused(await runCli(['-C', w, 'episode', 'plan', '--require', 'op_bribe@@x']), 2, 'error AUR3062 bad --require value "op_bribe@@x": expected OP_ID or OP_ID@actor');
    expect(git(w, 'status', '--porcelain', '--ignored')).toBe(before);
    expect(fs.existsSync(path.join(w, 'seasons/season_01/notes.json'))).toBe(false);
  });

  it('init onto a file: AUR7002, exit 2, the file untouched', async () => {
    const file = path.join(temp('in-init'), 'taken');
    fs.writeFileSync(file, 'mine\n');
    refused(await runCli(['init', file]), 2, `error AUR7002 cannot create a world at ${file}: it exists and is not a directory`);
    expect(fs.readFileSync(file, 'utf8')).toBe('mine\n');
  });

  it('validate: a schema rule without its own code (an empty name) is AUR1016; a style file over 256 KB is AUR1810 (exit 3)', async () => {
    const w = await world('in-validate');
    editJson(w, 'world/characters.json', (v) => (v.characters[0].name = ''));
    fs.appendFileSync(path.join(w, 'style/style_guide.md'), `\n${'Short sentences. '.repeat(16_000)}\n`);
    // validate prints its diagnostics on stdout.
    const r = await runCli(['-C', w, 'validate']);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('49:7 /characters/0/name: error AUR1016 schema violation: must NOT have fewer than 1 characters');
    expect(r.stdout).toContain('error AUR1810 style file style/style_guide.md is larger than 262144 bytes');
    expect(r.stdout + r.stderr).not.toMatch(STACK_TRACE);
  });

  it('play as a dead character: AUR7102 naming the living, exit 2, no session written', async () => {
    const w = await world('in-play');
    editJson(w, 'world/characters.json', (v) => {
      const c = v.characters.find((x: { id: string }) => x.id === 'catiline');
      c.status = 'dead';
      c.bdi.intentions = []; // the dead hold none (AUR1024)
    });
    git(w, 'commit', '-q', '-am', 'Catiline falls');
    const before = git(w, 'status', '--porcelain', '--ignored');
    const r = await runCli(['-C', w, 'play', '--as', 'catiline', '--at', 'subura']);
    refused(r, 2, 'error AUR7102 --as catiline: Lucius Sergius Catilina is dead and cannot be played');
    expect(r.stderr).toMatch(/hint: play a living character: cicero, /);
    expect(git(w, 'status', '--porcelain', '--ignored')).toBe(before);
  });
});

/** An installed aureus whose starter kit lost a part (a broken install): init and import say which. */
describe.runIf(fs.existsSync(path.join(REPO, 'dist/cli/main.js')))('a starter kit with a part missing', () => {
  const run = (pkg: string, args: string[], cwd: string) => spawnSync(process.execPath, [path.join(pkg, 'bin/aureus.js'), ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });

  it('init: AUR7003 naming the missing folder (exit 1), nothing created; import synthetic: AUR7906 naming the file (exit 3)', () => {
    const pkg = keep(packageCopy('kit-missing'));
    const cwd = temp('kit-missing-out');
    fs.rmSync(path.join(pkg, 'world/threads.json'));
    const imp = run(pkg, ['import', 'synthetic', 'big', '--principals', '20'], cwd);
    refused({ code: imp.status ?? -1, stderr: imp.stderr }, 3, 'error AUR7906 the starter kit file world/threads.json is missing or unreadable: file not found');
    fs.rmSync(path.join(pkg, 'style'), { recursive: true });
    const init = run(pkg, ['init', 'w'], cwd);
    expect(init.status, init.stderr).toBe(1);
    expect(init.stderr).toContain(`error AUR7003 the starter kit is incomplete: style not found in ${pkg}`);
    expect(fs.readdirSync(cwd)).toEqual([]);
  }, 120_000);
});
