import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, runCli, tempDirsPerTest } from './helpers.js';

const { temp } = tempDirsPerTest();

/** Every .ts file under src/cli, relative to the repository. */
function cliSources(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(path.join(REPO, dir), { withFileTypes: true })) {
      const rel = path.join(dir, e.name);
      if (e.isDirectory()) walk(rel);
      else if (e.name.endsWith('.ts')) out.push(rel);
    }
  };
  walk('src/cli');
  return out;
}

/**
 * A command's `--json` document is printed by one helper (cli/io.ts printJson): two-space indented,
 * keys in the order the command builds them. `validate`, `init` and `episode plan` printed sorted
 * keys while the other commands printed theirs in built order; now every command prints alike.
 */
describe('--json output', () => {
  it('is printed by printJson alone: no command formats its own JSON document', () => {
    const own = cliSources().flatMap((file) => {
      const text = fs.readFileSync(path.join(REPO, file), 'utf8');
      const hits = [...text.matchAll(/stableStringify\(|JSON\.stringify\([^;]*?,\s*null,\s*2\s*\)/g)].map((m) => `${file}: ${m[0].slice(0, 60)}`);
      return file === 'src/cli/io.ts' ? hits.filter((h) => !h.includes('JSON.stringify(value, null, 2)')) : hits;
    });
    expect(own).toEqual([]);
  });

  it('validate, init and episode plan print their keys in built order, as every other command does', async () => {
    const dir = path.join(temp('json-order'), 'w');
    const init = await runCli(['init', dir, '--json']);
    expect(init.code, init.stderr).toBe(0);
    // init's keys were sorted and are built in that order: its output is unchanged.
    expect(init.stdout).toMatch(/^\{\n {2}"commit": "[0-9a-f]{40}",\n {2}"files": \[\n/);
    expect(Object.keys(JSON.parse(init.stdout))).toEqual(['commit', 'files', 'root']);

    const plan = await runCli(['-C', dir, 'episode', 'plan', '--seed', '5', '--json']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(Object.keys(JSON.parse(plan.stdout))).toEqual([
      'episode_id', 'seed', 'title', 'dir', 'files', 'scenes', 'applications', 'threads_advanced', 'mandatory',
      'drama_responses', 'acceptance', 'director', 'estimated_cost_usd', 'state_hash', 'diagnostics',
    ]);

    const file = path.join(dir, 'world/characters.json');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('"optimates"', '"optimate"'));
    const bad = await runCli(['-C', dir, 'validate', '--json']);
    expect(bad.code).toBe(3);
    const out = JSON.parse(bad.stdout) as { diagnostics: object[] };
    expect(Object.keys(out)).toEqual(['diagnostics', 'valid']);
    // A diagnostic reads as everywhere else: its code, severity and message first (sorted, column came second).
    expect(Object.keys(out.diagnostics[0]!).slice(0, 3)).toEqual(['code', 'severity', 'message']);
    expect(bad.stdout).toMatch(/^\{\n {2}"diagnostics": \[\n {4}\{\n {6}"code": "AUR1022",\n {6}"severity": "error",\n/);
  }, 120_000);
});
