import { describe, expect, it } from 'vitest';
import type { ApprovedScene } from '../../../src/domain/scene.js';
import { isExterior } from '../../../src/domain/world.js';
import { renderScene } from '../../../src/providers/offline/writer.js';
import { buildWriterRequest } from '../../../src/stages/e-writer/prompt.js';
import { parseWriterOutput } from '../../../src/stages/e-writer/parse.js';
import type { WriterPayload } from '../../../src/stages/e-writer/types.js';
import { buildScript } from '../../../src/stages/h-commit/script.js';
import { lexicon } from '../write-verify/helpers.js';
import { hasStarter, loadScenario, planScenario, STARTER } from '../planning/helpers.js';

/** INT./EXT. comes from the location (Location.exterior, else its setting), not from the register. */
const HEADING = /^## SC\d{2} — (INT|EXT)\. [^\n]+ - [A-Z ]+$/m;

describe('exterior locations', () => {
  it('defaults by setting: street, port and camp outdoors, the rest indoors; the flag wins', () => {
    expect(isExterior({ setting: 'street' })).toBe(true);
    expect(isExterior({ setting: 'port' })).toBe(true);
    expect(isExterior({ setting: 'camp' })).toBe(true);
    for (const s of ['court', 'villa', 'senate', 'temple'] as const) expect(isExterior({ setting: s })).toBe(false);
    expect(isExterior({ setting: 'court', exterior: true })).toBe(true);
    expect(isExterior({ setting: 'street', exterior: false })).toBe(false);
  });
});

describe.runIf(hasStarter)('headings on the starter world', () => {
  it('marks every kit location, the Forum outdoors and the houses indoors', async () => {
    const { world } = await loadScenario(STARTER);
    const ext = Object.fromEntries(world.world.locations.map((l) => [l.id, l.exterior]));
    for (const l of world.world.locations) expect(typeof l.exterior, l.id).toBe('boolean');
    expect(ext).toMatchObject({ forum: true, campus_martius: true, subura: true, ostia: true, curia: false, domus_crassus: false, villa_tusculum: false });
  });

  it('packets, the offline writer and the committed script agree: EXT. for the Forum, INT. for a house', async () => {
    const a = await planScenario(STARTER, 'alpha');
    const locs = new Map(a.world.world.locations.map((l) => [l.id, l]));
    const style = { guide: 'guide', lexicon: lexicon() };
    const scenes: ApprovedScene[] = [];
    for (const pk of a.packets) {
      expect(pk.setting.exterior, pk.scene_id).toBe(isExterior(locs.get(pk.setting.location)!));
      const raw = renderScene(buildWriterRequest(pk, style, { seed: 'alpha', attempt: 1, mode: 'write' }).payload as WriterPayload);
      const text = parseWriterOutput(raw).scene_text;
      const head = text.split('\n')[0]!;
      expect(head).toMatch(HEADING);
      expect(head.includes(' — EXT. '), `${pk.scene_id} ${head}`).toBe(pk.setting.exterior);
      scenes.push({ scene: pk.scene_id, text, events: [], accepted_claims: [], downgraded_claims: [], attempts: 1, model: 'offline', simplified: false });
    }
    const kinds = new Set(a.packets.map((p) => p.setting.location));
    expect(kinds.has('forum') || kinds.has('subura') || kinds.has('campus_martius')).toBe(true);
    const script = buildScript(a.plan, a.packets, scenes);
    for (const pk of a.packets) {
      const line = script.split('\n').find((l) => l.startsWith(`## ${pk.scene_id} — `))!;
      expect(line, pk.scene_id).toMatch(HEADING);
      expect(line.includes(' — EXT. '), line).toBe(pk.setting.exterior);
      if (pk.setting.location === 'forum') expect(line).toContain('EXT. FORUM ROMANUM');
    }
  });
});
