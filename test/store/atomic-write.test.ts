import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { appendWhole, writeAtomic, writeAtomicSync } from '../../src/store/atomic-write.js';

/**
 * The store's atomic writers (store/atomic-write.ts), which took write-file-atomic's place for the
 * response cache, the run log, the batch record, the world files, an import, season notes and play
 * sessions: what write-file-atomic kept is kept (an existing file's mode, a link written through to
 * its target, a dangling link replaced), both synchronously and not. Cut-short writes:
 * short-writes.test.ts.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
const temp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'aureus-atomic-'));
  dirs.push(d);
  return d;
};

const writers = {
  sync: async (f: string, c: string | Uint8Array) => writeAtomicSync(f, c),
  async: (f: string, c: string | Uint8Array) => writeAtomic(f, c),
};

describe('writeAtomic and writeAtomicSync', () => {
  for (const [name, write] of Object.entries(writers)) {
    it(`${name}: makes the folder, replaces whole, keeps the mode, writes through a link, replaces a dangling one; no temp file left`, async () => {
      const d = temp();
      const f = path.join(d, 'new/folder/a.json');
      await write(f, 'one\n');
      fs.chmodSync(f, 0o640);
      await write(f, Buffer.from('twö\n'));
      expect(fs.readFileSync(f, 'utf8')).toBe('twö\n');
      expect(fs.statSync(f).mode & 0o777).toBe(0o640);
      const link = path.join(d, 'link.json');
      fs.symlinkSync(f, link);
      await write(link, 'three\n');
      expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
      expect(fs.readFileSync(f, 'utf8')).toBe('three\n');
      const dangling = path.join(d, 'dangling.json');
      fs.symlinkSync(path.join(d, 'nowhere.json'), dangling);
      await write(dangling, 'four\n');
      expect(fs.lstatSync(dangling).isFile()).toBe(true);
      expect(fs.readFileSync(dangling, 'utf8')).toBe('four\n');
      expect(fs.readdirSync(d).sort()).toEqual(['dangling.json', 'link.json', 'new']);
      expect(fs.readdirSync(path.dirname(f))).toEqual(['a.json']);
    });

    it(`${name}: a refused write is AUR1053 naming the file, the old bytes and no temp file left`, async () => {
      const d = temp();
      const f = path.join(d, 'x.json');
      await write(f, 'kept\n');
      // A folder in the way of the rename: the write fails after the temp file is written.
      const blocked = path.join(d, 'blocked');
      fs.mkdirSync(path.join(blocked, 'inside'), { recursive: true });
      const err = await write(blocked, 'never\n').then(() => undefined, (e: unknown) => e as { diagnostics?: { code: string; message: string }[] });
      expect(err?.diagnostics?.[0]?.code).toBe('AUR1053');
      expect(err?.diagnostics?.[0]?.message).toContain(`cannot write ${blocked}: ${blocked} is a directory`);
      expect(fs.readdirSync(d).sort()).toEqual(['blocked', 'x.json']);
      expect(fs.readFileSync(f, 'utf8')).toBe('kept\n');
    });
  }

  it('appendWhole appends, and a refused append is AUR1053 naming the file', async () => {
    const d = temp();
    const f = path.join(d, 'log.jsonl');
    await appendWhole(f, 'a\n');
    await appendWhole(f, 'b\n');
    expect(fs.readFileSync(f, 'utf8')).toBe('a\nb\n');
    const err = await appendWhole(path.join(d, 'missing/log.jsonl'), 'c\n').then(() => undefined, (e: unknown) => e as { code?: string });
    // A missing folder is not a refusal: the caller makes it (the run log does).
    expect(err?.code).toBe('ENOENT');
  });

  // A process that exits while an asynchronous write is under way (a second Ctrl-C quits at once)
  // leaves no temp file behind, as write-file-atomic's exit hook did.
  it.skipIf(process.platform === 'win32')('an exit during an asynchronous write removes its temp file', () => {
    const d = temp();
    const mod = pathToFileURL(path.join(import.meta.dirname, '../../dist/store/atomic-write.js')).href;
    const code = `const m = await import(${JSON.stringify(mod)}); const fs = await import('node:fs'); const d = ${JSON.stringify(d)};
      m.writeAtomic(d + '/big.json', Buffer.alloc(256 * 1024 * 1024, 120)).then(() => { console.log('finished first'); process.exit(0); });
      const poll = setInterval(() => { if (fs.readdirSync(d).some((n) => /^big\\.json\\.\\d+$/.test(n))) { clearInterval(poll); console.log('in flight'); process.exit(130); } }, 0);`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('in flight');
    expect(r.status).toBe(130);
    expect(fs.readdirSync(d)).toEqual([]);
  }, 60_000);
});
