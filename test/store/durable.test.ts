import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { durableBarrier, durableBarrierAsync, writeDurable, writeVisible, writeVisibleAsync } from '../../src/store/durable.js';

const dirs: string[] = [];
const temp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'aureus-durable-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe('durable writes (issue 18)', () => {
  it('writeVisible creates folders, replaces content whole and leaves no temp file', () => {
    const d = temp();
    const f = path.join(d, 'a/b/c.json');
    writeVisible(f, 'one\n');
    writeVisible(f, 'two\n');
    expect(fs.readFileSync(f, 'utf8')).toBe('two\n');
    expect(fs.readdirSync(path.dirname(f))).toEqual(['c.json']);
  });

  it('writeVisibleAsync creates folders (many writes into one new folder at once), replaces content whole and leaves no temp file', async () => {
    const d = temp();
    const files = Array.from({ length: 12 }, (_, i) => path.join(d, 'x/y', `f${i}.json`));
    await Promise.all(files.map((f, i) => writeVisibleAsync(f, `one ${i}\n`)));
    await Promise.all(files.map((f, i) => writeVisibleAsync(f, `two ${i}\n`)));
    files.forEach((f, i) => expect(fs.readFileSync(f, 'utf8')).toBe(`two ${i}\n`));
    expect(fs.readdirSync(path.join(d, 'x/y')).sort()).toEqual(files.map((f) => path.basename(f)).sort());
    // A folder where the file should be: the write fails and leaves no temp behind.
    fs.mkdirSync(path.join(d, 'x/dir'));
    await expect(writeVisibleAsync(path.join(d, 'x/dir'), 'z')).rejects.toThrow();
    expect(fs.readdirSync(path.join(d, 'x')).sort()).toEqual(['dir', 'y']);
  });

  it('writeVisible keeps what write-file-atomic kept: the mode of the file it replaces, a link written through to its target', () => {
    const d = temp();
    const f = path.join(d, 'mode.json');
    fs.writeFileSync(f, 'old\n', { mode: 0o600 });
    fs.chmodSync(f, 0o600);
    writeVisible(f, 'new\n');
    expect(fs.readFileSync(f, 'utf8')).toBe('new\n');
    if (process.platform !== 'win32') expect(fs.statSync(f).mode & 0o777).toBe(0o600);
    const target = path.join(d, 'target.json');
    fs.writeFileSync(target, 'a\n');
    const link = path.join(d, 'link.json');
    fs.symlinkSync(target, link);
    writeVisible(link, 'b\n');
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(target, 'utf8')).toBe('b\n');
    expect(fs.readdirSync(d).sort()).toEqual(['link.json', 'mode.json', 'target.json']);
  });

  it('writeVisible writes its text as UTF-8, over a file (keeping its mode), into a new folder and through a link', () => {
    const d = temp();
    const f = path.join(d, 'new/text.json');
    writeVisible(f, '["Pólo — é"\u2028,"Pólo — é"\u2028]\n');
    expect(fs.readFileSync(f, 'utf8')).toBe('["Pólo — é"\u2028,"Pólo — é"\u2028]\n');
    fs.chmodSync(f, 0o640);
    writeVisible(f, 'é');
    expect(fs.readFileSync(f, 'utf8')).toBe('é');
    expect(fs.statSync(f).mode & 0o777).toBe(0o640);
    const link = path.join(d, 'link.json');
    fs.symlinkSync(f, link);
    writeVisible(link, 'aßc');
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(f, 'utf8')).toBe('aßc');
    expect(fs.readdirSync(path.dirname(f)).sort()).toEqual(['text.json']);
  });

  it('a write that fails leaves the old file and no temp file', () => {
    const d = temp();
    const f = path.join(d, 'x.json');
    writeVisible(f, 'kept\n');
    // A folder in the way of the rename: the write fails, the old bytes stay, the temp file goes.
    const blocked = path.join(d, 'blocked');
    fs.mkdirSync(path.join(blocked, 'inside'), { recursive: true });
    expect(() => writeVisible(blocked, 'never\n')).toThrow();
    expect(fs.readdirSync(d).sort()).toEqual(['blocked', 'x.json']);
    expect(fs.readFileSync(f, 'utf8')).toBe('kept\n');
    writeVisible(f, 'again\n');
    expect(fs.readFileSync(f, 'utf8')).toBe('again\n');
  });

  it('writeVisible makes missing folders and leaves no temp when a write fails (mode and links: above)', () => {
    const d = temp();
    const files = Array.from({ length: 20 }, (_, i) => path.join(d, `calls${i % 2}`, `k${i}.json`));
    files.forEach((f, i) => writeVisible(f, `${i}\n`));
    expect(files.map((f) => fs.readFileSync(f, 'utf8'))).toEqual(files.map((_, i) => `${i}\n`));
    expect(fs.readdirSync(path.join(d, 'calls0')).length).toBe(10);
    fs.mkdirSync(path.join(d, 'blocked', 'inside'), { recursive: true });
    expect(() => writeVisible(path.join(d, 'blocked'), 'never\n')).toThrow();
    expect(fs.readdirSync(d).sort()).toEqual(['blocked', 'calls0', 'calls1']);
    expect(fs.readdirSync(path.join(d, 'calls1')).sort()).toEqual(files.filter((_, i) => i % 2).map((f) => path.basename(f)).sort());
  });

  // As root only: a writer that may not give a file away (here `nobody` replacing root's file in a
  // folder it may write) still replaces it, owned by itself, as write-file-atomic did (EPERM ignored).
  it.skipIf(process.platform !== 'linux' || process.getuid?.() !== 0)('writeVisible replaces a file another user owns when it may not keep that owner', () => {
    const d = fs.mkdtempSync(path.join('/tmp', 'aureus-owner-'));
    dirs.push(d);
    fs.chmodSync(d, 0o777);
    const f = path.join(d, 'root-owned.json');
    fs.writeFileSync(f, 'old\n', { mode: 0o666 });
    fs.chmodSync(f, 0o666);
    const durable = pathToFileURL(path.join(import.meta.dirname, '../../dist/store/durable.js')).href;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', `const { writeVisible } = await import(${JSON.stringify(durable)}); writeVisible(${JSON.stringify(f)}, 'new\\n');`], { uid: 65534, gid: 65534, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(fs.readFileSync(f, 'utf8')).toBe('new\n');
    expect(fs.statSync(f).uid).toBe(65534);
    expect(fs.readdirSync(d)).toEqual(['root-owned.json']);
  });

  // A write that fails part way (a full disk, ENOSPC; here the same short write made by a file-size
  // limit, EFBIG, in a child process under `ulimit -f 1`) leaves no temp file behind, sync or async.
  it.skipIf(process.platform !== 'linux')('a write that fails part way (EFBIG under ulimit -f) is AUR1053 and leaves no temp file', () => {
    const d = temp();
    const durable = pathToFileURL(path.join(import.meta.dirname, '../../dist/store/durable.js')).href;
    const code = `const m = await import(${JSON.stringify(durable)}); const big = 'x'.repeat(5000);
      for (const [name, write] of [['async.json', (f) => m.writeVisibleAsync(f, big)], ['sync.json', async (f) => m.writeVisible(f, big)], ['new/async.json', (f) => m.writeVisibleAsync(f, big)]])
        await write(${JSON.stringify(d)} + '/' + name).then(() => console.log('written'), (e) => console.log(e.diagnostics?.[0]?.code ?? e.code));`;
    const r = spawnSync('bash', ['-c', 'ulimit -f 1 && exec "$@"', 'bash', process.execPath, '--input-type=module', '-e', code], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim().split('\n')).toEqual(['AUR1053', 'AUR1053', 'AUR1053']);
    expect(fs.readdirSync(d).sort()).toEqual(['new']);
    expect(fs.readdirSync(path.join(d, 'new'))).toEqual([]);
  });

  it('one barrier for many files: a single syncfs on Linux, an fsync per file and folder as the fallback', () => {
    const d = temp();
    const files = Array.from({ length: 40 }, (_, i) => path.join(d, `dir${i % 4}`, `f${i}.json`));
    files.forEach((f, i) => writeVisible(f, `${i}\n`));
    const fast = durableBarrier([...files, path.join(d, 'missing.json')]);
    if (process.platform === 'linux') expect(fast).toEqual({ method: 'syncfs', syncs: 1 });
    const prev = process.env.AUREUS_DURABILITY;
    process.env.AUREUS_DURABILITY = 'fsync';
    try {
      expect(durableBarrier(files)).toEqual({ method: 'fsync', syncs: 44 }); // 40 files + 4 folders
    } finally {
      if (prev === undefined) delete process.env.AUREUS_DURABILITY;
      else process.env.AUREUS_DURABILITY = prev;
    }
    expect(durableBarrier([path.join(d, 'nothing')])).toEqual({ method: 'none', syncs: 0 });
  });

  it('the asynchronous barrier fsyncs each file and folder off the main thread, never the whole filesystem', async () => {
    const d = temp();
    const files = Array.from({ length: 12 }, (_, i) => path.join(d, `dir${i % 3}`, `f${i}.json`));
    files.forEach((f, i) => writeVisible(f, `${i}\n`));
    let ticked = false;
    const barrier = durableBarrierAsync([...files, path.join(d, 'missing.json')]);
    setImmediate(() => (ticked = true));
    // 12 files + 3 folders, whatever the platform: a syncfs would wait for every other program's writes too.
    expect(await barrier).toEqual({ method: 'fsync', syncs: 15 });
    expect(ticked).toBe(true); // the event loop ran while the fsyncs did
    expect(await durableBarrierAsync([path.join(d, 'nothing')])).toEqual({ method: 'none', syncs: 0 });
  });

  it('writeDurable writes the journal whole', () => {
    const d = temp();
    const f = path.join(d, 'run/commit.json');
    writeDurable(f, '{"format":1}\n');
    expect(fs.readFileSync(f, 'utf8')).toBe('{"format":1}\n');
  });
});

describe('a write the file system refuses', () => {
  it('is AUR1053 (exit 11) naming the file asked for and the component that is not a folder, never the temp file', async () => {
    const d = temp();
    fs.writeFileSync(path.join(d, 'runs'), '');
    const f = path.join(d, 'runs/s01e01/plan.json');
    for (const write of [() => writeVisible(f, 'x'), () => writeDurable(f, 'x')]) {
      let e: unknown;
      try {
        write();
      } catch (err) {
        e = err;
      }
      expect(e).toMatchObject({ exitCode: 11, diagnostics: [{ code: 'AUR1053', message: `cannot write ${f}: ${path.join(d, 'runs')} is not a directory` }] });
    }
    await expect(writeVisibleAsync(f, 'x')).rejects.toMatchObject({ exitCode: 11, diagnostics: [{ code: 'AUR1053' }] });
  });
});
