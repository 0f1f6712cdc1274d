import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAureusError } from '../../src/errors.js';
import { defaultDprrDataDir, importDprrFiles } from '../../src/import/dprr/index.js';

const ROOT = path.resolve(__dirname, '../..');

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? (e.name === 'fixtures' ? [] : filesUnder(p)) : [p];
  });
}

describe('a fresh clone is self-contained', () => {
  it('ships the DPRR tables with their licence, and the Fountain fixtures with theirs', () => {
    for (const f of ['dprr_persons.csv', 'dprr_post_assertions.csv', 'dprr_relationship_assertions.csv', 'LICENSE']) {
      expect(fs.existsSync(path.join(ROOT, 'data/dprr', f)), f).toBe(true);
    }
    expect(defaultDprrDataDir()).toBe(path.join(ROOT, 'data/dprr'));
    expect(fs.existsSync(path.join(ROOT, 'test/fixtures/fountain/LICENSE'))).toBe(true);
  });

  // Built from parts so this file does not itself contain the path it looks for.
  const sharedRef = new RegExp(`\\.\\./${'shared'}|['"\`]/work/${'shared'}`);
  it('no source, test, bench or script file reads the sibling shared folder', () => {
    const offenders = ['src', 'test', 'bench', 'scripts']
      .flatMap((d) => filesUnder(path.join(ROOT, d)))
      .filter((f) => f !== __filename && sharedRef.test(fs.readFileSync(f, 'utf8')));
    expect(offenders.map((f) => path.relative(ROOT, f))).toEqual([]);
  });

  it('a missing DPRR data folder is one clear usage error (AUR7908), not three "file not found"', async () => {
    const missing = path.join(os.tmpdir(), `aureus-no-dprr-${process.pid}`);
    const err = await importDprrFiles({ from: -100, to: -44, data: missing }).catch((e) => e);
    expect(isAureusError(err)).toBe(true);
    expect(err.exitCode).toBe(2);
    expect(err.diagnostics.map((d: { code: string }) => d.code)).toEqual(['AUR7908']);
    expect(err.diagnostics[0].message).toContain(missing);
  });

  it('the bench refuses to run without the DPRR tables instead of printing "—"', () => {
    const p = spawnSync(process.execPath, [path.join(ROOT, 'bench/run.mjs'), '--quick'], {
      encoding: 'utf8',
      env: { ...process.env, AUREUS_DPRR_DATA: path.join(os.tmpdir(), 'aureus-no-dprr') },
      timeout: 20_000,
    });
    expect(p.status).toBe(1);
    expect(p.stderr).toMatch(/DPRR tables are missing from .*aureus-no-dprr: dprr_persons\.csv/);
    expect(p.stdout).not.toContain('—');
  });
});
