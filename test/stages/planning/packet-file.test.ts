import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stableStringify } from '../../../src/core/json.js';
import { packetFile, planningFiles, writePlanningArtifacts } from '../../../src/stages/planning.js';
import type { ScenePacket } from '../../../src/domain/packet.js';
import { planScenario, scenario } from './helpers.js';

// The packet files are written with their shared `voices` list's text made once (planning.ts
// packetFile): every file must still be exactly stableStringify of its packet.
describe('packet files (stages/planning.ts packetFile)', () => {
  it('are stableStringify of each packet, the voices written once for the episode', async () => {
    const a = await planScenario(scenario('planning-base'));
    expect(a.packets.length).toBeGreaterThan(1);
    const voices = new Map<readonly string[], string>();
    for (const p of a.packets) expect(packetFile(p, voices)).toBe(stableStringify(p));
    // One list for the episode: one text.
    expect(voices.size).toBe(1);
    const files = new Map(planningFiles(a));
    for (const p of a.packets) expect(files.get(`packets/${p.scene_id}.json`)).toBe(stableStringify(p));
  });

  it('keeps to stableStringify for unusual packets: a key after voices, no list, empty, escaped or non-ASCII ids', async () => {
    const p = (await planScenario(scenario('planning-base'))).packets[0]!;
    const cases: unknown[] = [
      { ...p, voices: [] },
      { ...p, voices: ['a\nb', 'quote"d', 'Pólo — é', '\u2028'] },
      { ...p, zeta: { b: 1, a: [2, { d: null, c: 'x' }] } },
      { ...p, voices: undefined },
      { ...p, voices: 'not a list' },
      { voices: ['x'] },
      { ...p, voices: [['nested', { b: 1, a: 2 }]], extra: undefined },
      { '10': 1, '2': 'index-like keys', ...p },
    ];
    for (const c of cases) expect(packetFile(c as ScenePacket)).toBe(stableStringify(c));
    expect(() => packetFile({ ...p, voices: [Infinity] } as unknown as ScenePacket)).toThrow(/non-finite/);
  });

  it('are written (the voices as one shared UTF-8 part) with the bytes of stableStringify, non-ASCII ids and unusual packets too', async () => {
    const a = await planScenario(scenario('planning-base'));
    const voices = ['Pólo — é', 'quote"d', '\u2028', ...(a.packets[0]!.voices ?? [])];
    const packets = a.packets.map((p, i) => (i === 1 ? ({ ...p, zeta: 1 } as ScenePacket) : { ...p, voices }));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aureus-packet-files-'));
    try {
      const written = await writePlanningArtifacts(dir, { ...a, packets });
      expect(written).toHaveLength(3 + packets.length);
      for (const p of packets) expect(fs.readFileSync(path.join(dir, 'packets', `${p.scene_id}.json`), 'utf8')).toBe(stableStringify(p));
      for (const [rel, text] of planningFiles({ ...a, packets })) expect(fs.readFileSync(path.join(dir, rel), 'utf8')).toBe(text);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
