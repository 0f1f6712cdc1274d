import path from 'node:path';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ScenePacket } from '../../../src/domain/packet.js';
import type { Finding } from '../../../src/domain/scene.js';
import { loadWorldOrThrow } from '../../../src/store/load.js';
import { packageRoot } from '../../../src/paths.js';
import type { VerifyContext } from '../../../src/stages/f-verifier/context.js';
import { readPacket } from '../../../src/stages/f-verifier/load.js';
import { worldVerifyContext } from '../../../src/stages/f-verifier/world-context.js';
import { parseWriterOutput } from '../../../src/stages/e-writer/parse.js';
import { proseRules } from '../../../src/stages/f-verifier/prose/index.js';

// Issue 14, canon: "a revealed secret told as news". SC12 of the writer corpus (cast Clodius,
// Crassus, Terentia) with Varo's grain hoard either revealed or still hidden; sentences written for this test.
const W = path.resolve(__dirname, '..', '..', 'fixtures', 'writer-corpus');
let base: Omit<VerifyContext, 'packet'>;
let packet: ScenePacket;

beforeAll(async () => {
  const { world } = await loadWorldOrThrow(packageRoot());
  world.characters = JSON.parse(readFileSync(path.join(W, 'world-characters.json'), 'utf8'));
  base = worldVerifyContext(world, []);
  packet = readPacket(path.join(W, 'packets', 'SC12.json'));
});

function news(status: 'revealed' | 'hidden', body: string): Finding[] {
  const secrets = packet.retrieved_subgraph.secrets.map((s) => (s.id === 'sec_varo_hoard' ? { ...s, status } : s));
  const pk = { ...packet, retrieved_subgraph: { ...packet.retrieved_subgraph, secrets } };
  const cast = pk.cast.map((c) => c.name).join(', ');
  const raw = `---SCENE_TEXT---\n## SC12 — INT. A TAVERN - NIGHT\n\n**Cast:** ${cast}\n\n${body}\n\n---CLAIMS---\n[]\n---SCENE_EVENTS---\n[]\n`;
  return proseRules(parseWriterOutput(raw), { ...base, packet: pk }, []).filter((f) => f.code === 'AUR5047');
}

const TOLD = 'Clodius leans in. "Have you heard? The grain lost off Sardinia is sitting in Varo\'s warehouses at Ostia, held back to drive the price up."';

describe('a revealed secret told as news', () => {
  it('is a canon finding, hard when the frame and the secret share the sentence', () => {
    const f = news('revealed', TOLD);
    expect(f.map((x) => [x.code, x.severity])).toEqual([['AUR5047', 'hard']]);
    expect(f[0].message).toContain('sec_varo_hoard');
    expect(f[0].span?.text).toContain('Varo');
  });

  it('a frame only in the line before is doubtful (soft)', () => {
    const f = news('revealed', 'Clodius looks round the room and lowers his voice. "Nobody knows this yet."\nThe grain lost off Sardinia sits in Varo\'s warehouses at Ostia, held back to drive the price up.');
    expect(f.map((x) => x.severity)).toEqual(['soft']);
  });

  it('a hidden secret told as news, or a revealed one told as known, is no canon finding', () => {
    expect(news('hidden', TOLD)).toEqual([]);
    expect(news('revealed', 'Clodius shrugs. "Everyone knows Varo sat on the Sardinian grain at Ostia to drive the price up."')).toEqual([]);
    expect(news('revealed', 'Clodius grins. "Have you heard? Terentia gave a dinner and nobody came."')).toEqual([]);
  });
});
