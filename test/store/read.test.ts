import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { firstInvalidUtf8Offset, parseJsonBytesSafe, readJsonFileSafe } from '../../src/store/read.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aureus-read-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const file = (name: string, content: string | Buffer) => {
  const p = path.join(dir, name);
  fs.writeFileSync(p, content);
  return p;
};

describe('readJsonFileSafe', () => {
  it('reads a valid file', async () => {
    const r = await readJsonFileSafe(file('ok.json', '{"format": 1}'), 'ok.json');
    expect(r).toMatchObject({ ok: true, value: { format: 1 }, diagnostics: [] });
    expect(r.locate?.('/format')).toMatchObject({ line: 1, column: 2 });
  });

  it('drops a UTF-8 byte order mark', async () => {
    const r = await readJsonFileSafe(file('bom.json', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a": "é"}')])), 'bom.json');
    expect(r.value).toEqual({ a: 'é' });
  });

  it('reports a missing file', async () => {
    const r = await readJsonFileSafe(path.join(dir, 'nope.json'), 'world/nope.json');
    expect(r.ok).toBe(false);
    expect(r.diagnostics).toMatchObject([{ code: 'AUR1001', file: 'world/nope.json', message: 'missing file world/nope.json' }]);
  });

  it('reports a directory where a file should be', async () => {
    fs.mkdirSync(path.join(dir, 'adir.json'));
    const r = await readJsonFileSafe(path.join(dir, 'adir.json'), 'adir.json');
    expect(r.diagnostics).toMatchObject([{ code: 'AUR1008', message: 'cannot read adir.json: it is a directory' }]);
  });

  it('checks the size before reading (limit configurable for the test)', async () => {
    const p = file('big.json', `{"a": "${'x'.repeat(100)}"}`);
    const r = await readJsonFileSafe(p, 'big.json', { maxBytes: 50 });
    expect(r.diagnostics).toMatchObject([{ code: 'AUR1002', message: 'file is 109 bytes, over the 50-byte limit' }]);
  });

  it('reports a file over 10 MB by default', async () => {
    const p = file('huge.json', Buffer.alloc(10 * 1024 * 1024 + 1, 0x20));
    const r = await readJsonFileSafe(p, 'huge.json');
    expect(r.diagnostics.map((d) => d.code)).toEqual(['AUR1002']);
    fs.rmSync(p);
  });

  it('reports empty and whitespace-only files', async () => {
    expect((await readJsonFileSafe(file('empty.json', ''), 'e')).diagnostics.map((d) => d.code)).toEqual(['AUR1004']);
    expect((await readJsonFileSafe(file('ws.json', ' \n\t\n'), 'w')).diagnostics.map((d) => d.code)).toEqual(['AUR1004']);
  });

  it('reports non-UTF-8 bytes with the offset of the first bad byte', async () => {
    const r = await readJsonFileSafe(file('latin1.json', Buffer.from('{"a": "Caf\u00e9"}', 'latin1')), 'latin1.json');
    expect(r.diagnostics).toMatchObject([{ code: 'AUR1003', message: 'file is not valid UTF-8 (first bad byte at offset 10)' }]);
  });

  it('locates the first bad byte at its line:column, as every reader of trusted text does', () => {
    const r = parseJsonBytesSafe(Buffer.from('{\n  "a": "Caf\u00e9"\n}', 'latin1'), 'w.json');
    expect(r.diagnostics).toMatchObject([{ code: 'AUR1003', file: 'w.json', line: 2, column: 12 }]);
  });

  it('recognises UTF-16 and says so', () => {
    const r = parseJsonBytesSafe(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{}', 'utf16le')]), 'w.json');
    expect(r.diagnostics).toMatchObject([{ code: 'AUR1003', hint: 'the file is UTF-16 (it starts with a UTF-16 byte order mark); re-save it as UTF-8' }]);
  });

  it('reports every forbidden and duplicate key, not just the first', () => {
    const r = parseJsonBytesSafe(Buffer.from('{"__proto__": 1, "a": 1, "a": 2, "constructor": {}}'), 'x.json');
    expect(r.ok).toBe(false);
    expect(r.diagnostics.map((d) => [d.code, d.pointer])).toEqual([
      ['AUR1006', '/__proto__'],
      ['AUR1009', '/a'],
      ['AUR1006', '/constructor'],
    ]);
  });
});

describe('firstInvalidUtf8Offset', () => {
  it.each([
    [[0x61, 0x62], -1],
    [[0xc3, 0xa9], -1], // é
    [[0xf0, 0x9f, 0x98, 0x80], -1], // emoji
    [[0x61, 0xe9, 0x62], 1], // Latin-1 é
    [[0xc0, 0x80], 0], // overlong NUL
    [[0xed, 0xa0, 0x80], 0], // surrogate
    [[0x61, 0xe2, 0x82], 1], // truncated sequence
    [[0x80], 0], // lone continuation byte
  ])('%j → %i, agreeing with TextDecoder', (bytes, offset) => {
    const u8 = Uint8Array.from(bytes);
    expect(firstInvalidUtf8Offset(u8)).toBe(offset);
    let decodes = true;
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(u8);
    } catch {
      decodes = false;
    }
    expect(decodes).toBe(offset === -1);
  });
});
