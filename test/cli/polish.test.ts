import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, cli, makeWorld, tempDir } from '../pipeline/world.js';
import { STACK_TRACE } from './helpers.js';

afterAll(cleanup);

describe('CLI polish', () => {
  it('the scene group --help has an example', async () => {
    const r = await cli(['scene', '--help'], process.cwd());
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Examples:\n\s+\$ aureus scene verify --packet /);
  });

  it('-C naming a plain file is a usage error (exit 2) "not a directory", before any git call', async () => {
    const d = tempDir('c-file');
    const file = path.join(d, 'plain.txt');
    fs.writeFileSync(file, 'x');
    for (const argv of [['-C', file, 'status'], ['-C', file, 'validate'], ['-C', file, 'episode', 'run']]) {
      const r = await cli(argv, d);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toContain(`AUR7006 cannot use ${file} as the world directory (-C): not a directory`);
      expect(r.stderr).not.toMatch(STACK_TRACE);
    }
    expect(fs.readdirSync(d)).toEqual(['plain.txt']);
  });

  it('season run --help shows the --count default once', async () => {
    const r = await cli(['season', 'run', '--help'], process.cwd());
    const line = r.stdout.split('\n').find((l) => l.includes('--count'))!;
    expect(line.match(/default/g)).toHaveLength(1);
  });

  it('season run --help says what the run refuses and takes: --allow-dirty names style/ and the config, --count its range', async () => {
    const r = await cli(['season', 'run', '--help'], process.cwd());
    const flat = r.stdout.replace(/\s+/g, ' ');
    expect(flat).toMatch(/--allow-dirty run even with uncommitted changes under world\/, operators\/, style\/ or aureus\.config\.yaml/);
    expect(flat).toMatch(/--count <n> how many episodes, 1 to 99/);
    // What it says is what the run does: an edited style guide is refused (exit 8) and --count 100 is a usage error.
    const root = await makeWorld('help-dirty-style');
    fs.appendFileSync(path.join(root, 'style/style_guide.md'), '\nAn edit.\n');
    const dirty = await cli(['season', 'run'], root);
    expect(dirty.code, dirty.stderr).toBe(8);
    expect(dirty.stderr).toContain('AUR6001 uncommitted changes to the style files: style/style_guide.md');
    expect((await cli(['season', 'run', '--count', '100'], root)).code).toBe(2);
  });

  it('status lists metrics by short name with the values in one column', async () => {
    const root = await makeWorld('status-cols');
    const r = await cli(['status'], root);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    const start = lines.indexOf('Rome') + 1;
    const rows = lines.slice(start, lines.indexOf('', start));
    expect(rows.length).toBeGreaterThan(3);
    const ends = rows.map((l) => {
      const m = /^ {2}([a-z_]+) +(-?\d+(?:\.\d+)?)  \(/.exec(l);
      expect(m, l).not.toBeNull();
      return m!.index + m![0].length - 3;
    });
    expect(new Set(ends).size).toBe(1);
    expect(r.stdout).toMatch(/^ {2}grain_index +\S+ {2}\(0\.\.10\) {2}Grain in the public granaries/m);
  });
});
