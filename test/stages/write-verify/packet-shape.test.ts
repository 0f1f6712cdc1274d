import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.js';
import { captureIo, FIX } from './helpers.js';

/**
 * `scene verify --packet` takes any file a user names: a packet of the wrong shape or broken JSON
 * must be refused with the file, JSON pointer, line:column, what was expected and a hint (exit 3,
 * as its help says), never reach the verifier's rules and die there as an internal error (exit 1).
 */
let dir = '';
let good: Record<string, unknown> = {};
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'aureus-packet-shape-'));
  good = JSON.parse(await readFile(path.join(FIX, 'packet_villa.json'), 'utf8')) as Record<string, unknown>;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function verify(name: string, content: string | Uint8Array): Promise<{ rc: number; err: string; out: string }> {
  const file = path.join(dir, name);
  await writeFile(file, content);
  const x = captureIo(dir);
  const rc = await main(['scene', 'verify', '--packet', file, '--scene', path.join(FIX, 'clean.txt')], x);
  return { rc, err: x.err, out: x.out };
}

/** The packet as stage D writes it (2-space JSON), with one change. */
function edited(change: (p: Record<string, unknown>) => void): string {
  const p = structuredClone(good);
  change(p);
  return JSON.stringify(p, null, 2);
}

/** The 1-based line of the first line of `text` that starts (after indentation) with `"key":`. */
function lineOf(text: string, key: string): number {
  return text.split('\n').findIndex((l) => l.trimStart().startsWith(`"${key}":`)) + 1;
}

describe('scene verify: a packet of the wrong shape is refused (exit 3), not an internal error', () => {
  it('cast as a string: pointer /cast, its line:column, expected an array, a hint', async () => {
    const text = edited((p) => void (p.cast = 'marcus'));
    const r = await verify('cast_string.json', text);
    expect(r.rc).toBe(3);
    expect(r.err).not.toContain('internal error');
    expect(r.err).toContain('AUR5081');
    expect(r.err).toContain(`${lineOf(text, 'cast')}:3 /cast: error AUR1011 wrong type: expected an array, got string "marcus"`);
    expect(r.err).toContain('hint: change the value to an array');
    expect(r.out).toBe('');
  });

  it('dead as null', async () => {
    const text = edited((p) => void (p.dead = null));
    const r = await verify('dead_null.json', text);
    expect(r.rc).toBe(3);
    expect(r.err).not.toContain('internal error');
    expect(r.err).toContain(`${lineOf(text, 'dead')}:3 /dead: error AUR1011 wrong type: expected an array, got null`);
  });

  it("a cast member's name removed", async () => {
    const r = await verify('no_name.json', edited((p) => void delete (p.cast as Record<string, unknown>[])[0]!.name));
    expect(r.rc).toBe(3);
    expect(r.err).not.toContain('internal error');
    expect(r.err).toMatch(/\d+:\d+ \/cast\/0: error AUR1012 missing required key "name"/);
    expect(r.err).toContain('hint: add "name" here (see schemas/scene_packet.schema.json)');
  });

  it('the file is named, and every problem is listed', async () => {
    const r = await verify('two.json', edited((p) => ((p.cast = 3), (p.dead = {}))));
    expect(r.rc).toBe(3);
    expect(r.err).toContain(`${path.join(dir, 'two.json')} is not a scene packet: 2 problems against schemas/scene_packet.schema.json`);
    expect(r.err).toMatch(/ \/cast: error AUR1011/);
    expect(r.err).toMatch(/ \/dead: error AUR1011/);
  });

  it('another format version gets the format diagnostic', async () => {
    const r = await verify('format2.json', edited((p) => void (p.format = 2)));
    expect(r.rc).toBe(3);
    expect(r.err).toContain('AUR1007');
  });
});

describe('scene verify: a packet that is not JSON is read like a world file (line:column)', () => {
  it('a syntax error gets its line:column and the JSON hint, exit 3', async () => {
    const r = await verify('syntax.json', '{"format": 1,\n  "cast": [1,}\n');
    expect(r.rc).toBe(3);
    expect(r.err).toContain('AUR5081');
    expect(r.err).toContain('2:14: error AUR1005 invalid JSON: unexpected "}"');
    expect(r.err).toContain('hint: fix the syntax at this line and column');
  });

  it('bytes that are not UTF-8 are named by offset, not echoed', async () => {
    const r = await verify('bytes.json', Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0xff, 0xfe, 0x7d]));
    expect(r.rc).toBe(3);
    expect(r.err).toContain('AUR1003 file is not valid UTF-8 (first bad byte at offset 5)');
    expect(r.err).not.toMatch(/[\ufffd\xff]/);
  });

  it('an empty file says so', async () => {
    const r = await verify('empty.json', '');
    expect(r.rc).toBe(3);
    expect(r.err).toContain('AUR1004');
  });
});
