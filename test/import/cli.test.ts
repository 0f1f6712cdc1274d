import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { Io } from '../../src/cli/io.js';
import { loadWorldOrThrow } from '../../src/store/index.js';
import { buildEpisodeContext } from '../../src/stages/a-snapshot/index.js';
import { proposeSymbolic } from '../../src/stages/b-proposals/index.js';
import { planSymbolic } from '../../src/stages/c-director/plan.js';
import { episodeRef } from '../../src/domain/context.js';

const DATA = path.resolve(__dirname, '../../data/dprr');

function io(cwd: string): Io & { out: string; err: string } {
  const o = { out: '', err: '', cwd, env: { ...process.env, NO_COLOR: '1' }, isTTY: false } as unknown as Io & { out: string; err: string };
  o.stdout = (t) => void (o.out += t);
  o.stderr = (t) => void (o.err += t);
  return o;
}

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'aureus-import-cli-'));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

describe('aureus import (with the packaged starter kit)', () => {
  it('imports 100–44 BC into a repository that validates and plans an episode', async () => {
    const a = io(tmp);
    const code = await main(['import', 'dprr', 'rome', '--from', '-100', '--to', '-44', '--limit', '60', '--principals', '10', '--data', DATA, '--json'], a);
    expect(a.err).toBe('');
    expect(code).toBe(0);
    const summary = JSON.parse(a.out);
    expect(summary).toMatchObject({ characters: 60, principals: 10 });
    const v = io(tmp);
    expect(await main(['-C', 'rome', 'validate'], v)).toBe(0);
    expect(await readFile(path.join(tmp, 'rome/NOTICE.md'), 'utf8')).toMatch(/CC BY-NC 4\.0/);

    const { world } = await loadWorldOrThrow(path.join(tmp, 'rome'));
    expect(world.world.title).toMatch(/DPRR.*CC BY-NC.*invented/);
    const { context } = buildEpisodeContext({ world, ref: episodeRef(1, 1), seed: 'imp', previousCliffhanger: null });
    const plan = planSymbolic({ world, context, proposals: proposeSymbolic(world, context), seed: 'imp' });
    expect(plan.scenes.length).toBeGreaterThanOrEqual(18);
    expect(plan.acceptance_checks.every((c) => c.passed)).toBe(true);
  });

  it('generates a synthetic world that validates', async () => {
    const a = io(tmp);
    expect(await main(['import', 'synthetic', 'syn', '--principals', '25', '--seed', 't'], a)).toBe(0);
    expect(a.out).toMatch(/25 principals/);
    expect(await main(['-C', 'syn', 'validate'], io(tmp))).toBe(0);
  });

  it('fails cleanly on bad arguments: exit 2, a diagnostic, no stack, nothing written', async () => {
    for (const argv of [
      ['import', 'dprr', 'x1', '--from', 'abc', '--to', '-44', '--data', DATA],
      ['import', 'dprr', 'x2', '--from', '-44', '--to', '-100', '--data', DATA],
      ['import', 'dprr', 'x3', '--from', '-100', '--to', '-44', '--data', path.join(tmp, 'no-such-dir')],
      ['import', 'synthetic', 'x4', '--principals', '-3'],
      ['import', 'dprr', 'x5', '--to', '-44'],
    ]) {
      const a = io(tmp);
      expect(await main(argv, a)).toBe(2);
      expect(a.err).not.toMatch(/\n\s+at /);
      await expect(readFile(path.join(tmp, argv[2], 'world/world.json'))).rejects.toThrow();
    }
    const b = io(tmp);
    expect(await main(['import', 'dprr', 'rome', '--from', '-100', '--to', '-44', '--limit', '5', '--data', DATA], b)).toBe(2);
    expect(b.err).toMatch(/AUR7904/);
  });

  it('a synthetic world below 10 principals is refused (its constraints would name missing characters), with a hint about counts, not years', async () => {
    const a = io(tmp);
    expect(await main(['import', 'synthetic', 'tiny', '--principals', '5'], a)).toBe(2);
    expect(a.err).toMatch(/AUR7903 bad value for --principals: 5 \(an integer from 10 to 100000\)/);
    expect(a.err).toMatch(/--principals 6667 is a 10,000-character world/);
    expect(a.err).not.toMatch(/negative for BC/);
    await expect(readFile(path.join(tmp, 'tiny', 'world/world.json'))).rejects.toThrow();
    const l = io(tmp);
    expect(await main(['import', 'dprr', 'lim', '--from', '-100', '--to', '-44', '--limit', '0', '--data', DATA], l)).toBe(2);
    expect(l.err).toMatch(/Counts are whole numbers/);
    expect(l.err).not.toMatch(/negative for BC/);
  });
});
