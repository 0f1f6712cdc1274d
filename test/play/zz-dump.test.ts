import fs from 'node:fs';
import { it } from 'vitest';
import { improvisedPacket } from '../../src/play/context.js';
import { extractProposals } from '../../src/play/director.js';
import { readStarterWorld } from '../support/starter-world.js';
it('dump', () => {
  const cases = JSON.parse(fs.readFileSync(process.env.CASES!, 'utf8'));
  const world = readStarterWorld();
  const out: string[] = [];
  for (const c of cases) {
    const packet = improvisedPacket(world, c.location, ['cicero', ...c.cast]);
    const inPacket = packet.retrieved_subgraph.secrets.map((s: any) => s.id);
    const setup = { scene: 'PLAY', episode: null, location: c.location, principal: 'cicero', cast: c.cast, mode: 'open', turn_budget: 8, objective: null, season: 1 } as any;
    const answer = { speaker: c.speaker, dialogue: c.dialogue, action: c.action, internal: c.internal, mood: c.mood, tension_shift: 0 };
    const got = extractProposals(world, packet, setup, 't0002', 't0003', c.user, answer, 1).map((p: any) => /^cicero learns (\S+) from /.exec(p.reason)?.[1]).filter(Boolean).sort();
    const ok = JSON.stringify(got) === JSON.stringify([...c.expect].sort());
    out.push(`${ok ? 'OK ' : 'BAD'} ${c.id} ${c.class} expect=${c.expect} got=${got} missingFromPacket=${c.expect.filter((e: string) => !inPacket.includes(e))}`);
  }
  fs.writeFileSync(process.env.OUT!, out.join('\n') + '\n');
});
