import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stableStringify } from '../../../src/core/json.js';
import { planningFiles, writePlanningArtifacts } from '../../../src/stages/planning.js';
import { renderScene } from '../../../src/providers/offline/writer.js';
import { buildWriterRequest } from '../../../src/stages/e-writer/prompt.js';
import { packetForModel } from '../../../src/stages/d-packets/wire.js';
import type { ScenePacket } from '../../../src/domain/packet.js';
import type { WriterPayload } from '../../../src/stages/e-writer/types.js';
import { loadScenario, planScenario, scenario } from './helpers.js';

// Packet files are stableStringify of their packet; a packet carries the seats of the characters it
// names (voice_seats), not every character id of the world (voices, before issue 18's seventeenth pass).
describe('packet files and their voice seats (stages/d-packets/voice-seats.ts)', () => {
  it('are written as stableStringify of each packet', async () => {
    const a = await planScenario(scenario('planning-base'));
    expect(a.packets.length).toBeGreaterThan(1);
    const files = new Map(planningFiles(a));
    for (const p of a.packets) expect(files.get(`packets/${p.scene_id}.json`)).toBe(stableStringify(p));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aureus-packet-files-'));
    try {
      const written = await writePlanningArtifacts(dir, a);
      expect(written).toHaveLength(3 + a.packets.length);
      for (const [rel, text] of planningFiles(a)) expect(fs.readFileSync(path.join(dir, rel), 'utf8')).toBe(text);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('seat every character a packet names at its place among all the world\'s ids, sorted, and no one else', async () => {
    const s = scenario('planning-base');
    const { world } = await loadScenario(s);
    const a = await planScenario(s);
    const ids = world.characters.characters.map((c) => c.id).sort();
    for (const p of a.packets) {
      expect(p.voices).toBeUndefined();
      const seats = p.voice_seats!;
      expect(seats.count).toBe(ids.length);
      const named = [...p.cast.map((c) => c.id), ...p.retrieved_subgraph.characters.map((c) => c.id), ...p.dead.map((d) => d.id)];
      for (const id of named) expect(seats.at[id]).toBe(ids.indexOf(id));
      const text = JSON.stringify({ ...p, voice_seats: undefined });
      for (const [id, at] of Object.entries(seats.at)) {
        expect(at).toBe(ids.indexOf(id));
        expect(text).toContain(`"${id}"`);
      }
    }
  });

  it('never reach the model', async () => {
    const p = (await planScenario(scenario('planning-base'))).packets[0]!;
    expect(JSON.stringify(packetForModel(p))).not.toContain('voice_seats');
  });

  it('give the offline writer the very scenes the whole list gave, at every attempt and mode', async () => {
    const s = scenario('planning-base');
    const { world } = await loadScenario(s);
    const voices = world.characters.characters.map((c) => c.id).sort();
    const a = await planScenario(s);
    const style = { guide: 'guide', lexicon: [] };
    const write = (p: ScenePacket, attempt: number, mode: 'write' | 'simplified') => renderScene(buildWriterRequest(p, style, { seed: 'seats', attempt, mode }).payload as WriterPayload);
    let compared = 0;
    for (const p of a.packets) {
      const { voice_seats: _s, ...rest } = p;
      const listed: ScenePacket = { ...rest, voices };
      for (const [attempt, mode] of [[1, 'write'], [2, 'write'], [3, 'simplified']] as const) {
        expect(write(p, attempt, mode)).toBe(write(listed, attempt, mode));
        compared++;
      }
    }
    expect(compared).toBe(3 * a.packets.length);
  });

  it('do not grow with the world: 3,000 more characters, off stage and unconnected, add no seat to any packet', async () => {
    const s = scenario('planning-base');
    const { world } = await loadScenario(s);
    const a = await planScenario(s);
    const last = world.characters.characters.at(-1)!;
    const extra = Array.from({ length: 3000 }, (_, i) => ({ ...last, id: `zz_extra_${String(i).padStart(4, '0')}`, principal: false, location: 'nowhere' }));
    const big = { ...world, characters: { ...world.characters, characters: [...world.characters.characters, ...extra] } };
    const { buildPackets } = await import('../../../src/stages/d-packets/index.js');
    const packets = buildPackets(a.plan, big, a.context);
    expect(packets).toHaveLength(a.packets.length);
    for (const [i, p] of packets.entries()) {
      expect(p.voice_seats!.count).toBe(world.characters.characters.length + 3000);
      // The world's own characters sort before the extras: the same seats as without them.
      expect(p.voice_seats!.at).toEqual(a.packets[i]!.voice_seats!.at);
    }
  });
});
