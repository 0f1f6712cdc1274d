import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { builtCli, cleanup, makeWorld, spawnCli } from '../pipeline/world.js';

/**
 * A legal world file with thousands of schema errors (unknown keys pasted in) printed every one of
 * them, 4 MB for 32,000 keys, and took minutes to locate them (locate-many.test.ts). Each file now
 * lists its first 50 problems, then one AUR7009 line with how many more, in the text, the --json of
 * validate and the refusal of any command that loads the world; the counts stay exact.
 */
afterAll(cleanup);

async function worldWithUnknownKeys(n: number): Promise<string> {
  const root = await makeWorld('many-errors');
  const file = path.join(root, 'world/assets.json');
  const keys = Array.from({ length: n }, (_, i) => `"k${i}": 1,`).join('');
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('{', '{' + keys));
  return root;
}

describe.skipIf(!builtCli())('a world file with thousands of schema errors', () => {
  it('validate lists the first 50, then "… and N more problems", with the exact count in the summary', async () => {
    const root = await worldWithUnknownKeys(3000);
    const r = await spawnCli(['validate'], root);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stdout.match(/AUR1010/g)).toHaveLength(50);
    expect(r.stdout).toContain('1:2 /k0: error AUR1010 unknown key "k0"');
    expect(r.stdout).toContain('error AUR7009 … and 2950 more problems in world/assets.json');
    expect(r.stdout).toContain('2950 errors not listed');
    expect(r.stdout).toContain('✗ 3000 errors in 1 file');
    expect(r.stdout.length).toBeLessThan(20_000);

    const j = await spawnCli(['validate', '--json'], root);
    expect(j.code).toBe(3);
    const doc = JSON.parse(j.stdout) as { valid: boolean; diagnostics: { code: string; omitted?: unknown; line?: number }[] };
    expect(doc.valid).toBe(false);
    expect(doc.diagnostics).toHaveLength(51);
    expect(doc.diagnostics.slice(0, 50).every((d) => d.code === 'AUR1010' && d.line === 1)).toBe(true);
    expect(doc.diagnostics[50]).toMatchObject({ code: 'AUR7009', file: 'world/assets.json', omitted: { error: 2950 } });
  }, 60_000);

  it('a command refusing the world prints the same capped list and the exact number of errors', async () => {
    const root = await worldWithUnknownKeys(3000);
    const r = await spawnCli(['episode', 'plan'], root);
    expect(r.code).toBe(3);
    expect(r.stderr.match(/AUR1010/g)).toHaveLength(50);
    expect(r.stderr).toContain('AUR7009 … and 2950 more problems in world/assets.json');
    expect(r.stderr).toContain('is invalid (3000 errors)');
    const j = await spawnCli(['episode', 'plan', '--json'], root);
    const codes = (JSON.parse(j.stdout) as { error: { codes: string[] } }).error.codes;
    expect(codes).toHaveLength(51);
    expect(codes.at(-1)).toBe('AUR7009');
  }, 60_000);
});
