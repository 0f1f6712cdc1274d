import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { builtCli, cleanup, copyRepo, git, makeWorld, spawnCli, tempDir } from './world.js';

/**
 * The same world and seed commit the same tree whatever the machine's locale. Node's ICU takes its
 * default locale from LC_ALL / LANG even where the system has no such locale installed, and every
 * sort through String#localeCompare followed it: under a Czech locale ("ch" sorts after "h") a
 * thread named thr_chaos came after thr_consular_election in the episode context, and an import
 * under Hawaiian (vowels first) wrote its factions in another order. Run as child processes: the
 * locale is fixed when a process starts.
 */
afterAll(cleanup);

const C = { LC_ALL: 'C', LANG: 'C' };
const CZECH = { LC_ALL: 'cs_CZ.UTF-8', LANG: 'cs_CZ.UTF-8' };
const HAWAIIAN = { LC_ALL: 'haw_US.UTF-8', LANG: 'haw_US.UTF-8' };

/** Every file under `dir` (relative path → text), for comparing two imports. */
function files(dir: string, rel = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = path.join(rel, e.name);
    if (e.name === '.git' || e.name === '.aureus') continue;
    if (e.isDirectory()) Object.assign(out, files(dir, r));
    else out[r] = fs.readFileSync(path.join(dir, r), 'utf8');
  }
  return out;
}

describe.skipIf(!builtCli())('the output does not depend on the locale', () => {
  it('episode run --seed 7 commits the same tree under LC_ALL=C and a Czech locale', async () => {
    const w = await makeWorld('locale-base');
    // A thread id whose place differs between the two collations ("ch" after "h" in Czech).
    for (const dir of ['world', 'operators', 'seasons']) {
      for (const f of Object.keys(files(path.join(w, dir)))) {
        const file = path.join(w, dir, f);
        const text = fs.readFileSync(file, 'utf8');
        if (text.includes('thr_conspiracy')) fs.writeFileSync(file, text.replaceAll('thr_conspiracy', 'thr_chaos'));
      }
    }
    git(w, 'commit', '-qam', 'rename a thread');
    const trees: string[] = [];
    for (const env of [C, CZECH]) {
      const copy = copyRepo(w, 'locale-run');
      const r = await spawnCli(['episode', 'run', '--seed', '7'], copy, env);
      expect(r.code, r.stderr.slice(-600)).toBe(0);
      trees.push(git(copy, 'rev-parse', 'HEAD^{tree}'));
    }
    expect(trees[1]).toBe(trees[0]);
  }, 120_000);

  it('import synthetic writes the same world under LC_ALL=C and a Hawaiian locale', async () => {
    const out: Record<string, string>[] = [];
    for (const env of [C, HAWAIIAN]) {
      const parent = tempDir('locale-import');
      const r = await spawnCli(['import', 'synthetic', 'w', '--principals', '100'], parent, env);
      expect(r.code, r.stderr.slice(-600)).toBe(0);
      out.push(files(path.join(parent, 'w')));
    }
    expect(Object.keys(out[1]!).sort()).toEqual(Object.keys(out[0]!).sort());
    for (const f of Object.keys(out[0]!)) expect(out[1]![f], f).toBe(out[0]![f]);
  }, 120_000);
});
