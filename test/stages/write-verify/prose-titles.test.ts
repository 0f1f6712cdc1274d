import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ScenePacket } from '../../../src/domain/packet.js';
import type { Finding } from '../../../src/domain/scene.js';
import type { Character } from '../../../src/domain/world.js';
import { loadWorldOrThrow } from '../../../src/store/load.js';
import { packageRoot } from '../../../src/paths.js';
import type { VerifyContext } from '../../../src/stages/f-verifier/context.js';
import { readPacket } from '../../../src/stages/f-verifier/load.js';
import { worldVerifyContext } from '../../../src/stages/f-verifier/world-context.js';
import { parseWriterOutput } from '../../../src/stages/e-writer/parse.js';
import { proseRules } from '../../../src/stages/f-verifier/prose/index.js';
import { findMentions, personIndex } from '../../../src/stages/f-verifier/prose/names.js';
import { titlesOf } from '../../../src/stages/f-verifier/prose/titles.js';
import { officeInYear } from '../../../src/import/dprr/offices.js';

// Issue 14: "the consul" resolves to a character only when the packet makes the title unambiguous.
// The starter world (with Catiline dead, test/fixtures/writer-corpus) gives Cicero the consulship and
// Caesar the chief pontificate; sentences written for this test.
const W = path.resolve(__dirname, '..', '..', 'fixtures', 'writer-corpus');
let characters: Character[];
const packets: Record<string, ScenePacket> = {};

beforeAll(async () => {
  characters = JSON.parse(readFileSync(path.join(W, 'world-characters.json'), 'utf8')).characters;
  for (const s of ['SC12', 'SC24']) packets[s] = readPacket(path.join(W, 'packets', `${s}.json`));
});

async function ctxWith(scene: string, edit: (cs: Character[]) => Character[] = (cs) => cs): Promise<VerifyContext> {
  const { world } = await loadWorldOrThrow(packageRoot());
  world.characters = { format: 1, characters: edit(structuredClone(characters)) };
  return { ...worldVerifyContext(world, []), packet: packets[scene] };
}

function findings(ctx: VerifyContext, body: string): Finding[] {
  const cast = ctx.packet.cast.map((c) => c.name).join(', ');
  const raw = `---SCENE_TEXT---\n## ${ctx.packet.scene_id} — INT. SOMEWHERE - NIGHT\n\n**Cast:** ${cast}\n\n${body}\n\n---CLAIMS---\n[]\n---SCENE_EVENTS---\n[]\n`;
  return proseRules(parseWriterOutput(raw), ctx, []);
}
const hard = (fs: Finding[]) => fs.filter((f) => f.severity === 'hard').map((f) => f.code);

describe('titles in the prose', () => {
  it('an office gives its full title, its head word and its English forms', () => {
    expect(titlesOf('pontifex maximus')).toEqual(expect.arrayContaining(['pontifex maximus', 'pontifex', 'chief priest']));
    expect(titlesOf('tribune of the plebs')).toEqual(expect.arrayContaining(['tribune of the plebs', 'tribune']));
  });

  it('"the consul" and "the chief priest" name the one holder in the packet; compounds and plurals do not', async () => {
    const idx = personIndex(await ctxWith('SC12'));
    const ids = (t: string) => findMentions(t, idx).map((m) => m.id);
    expect(ids('By the third hour the Consul has still not come, and the chief priest laughs at him.')).toEqual(['cicero', 'caesar']);
    expect(ids('The consuls of next year will not be so patient; ask the consul-elect.')).toEqual([]);
    expect(ids('Cicero — the consul himself — waits on the steps.')).toEqual(['cicero', 'cicero']);
  });

  it('the consul acting on stage when he is not in the cast is a finding about Cicero', async () => {
    const f = findings(await ctxWith('SC12'), 'The consul sweeps in from the portico and takes Crassus by the arm.');
    expect(hard(f)).toEqual(['AUR5016']);
    expect(f[0].message).toContain('Marcus Tullius Cicero');
  });

  it('the consul said to be dead contradicts canon; the consul only mentioned is nothing', async () => {
    const ctx = await ctxWith('SC24');
    expect(hard(findings(ctx, 'The consul is dead, cut down on his own doorstep at dawn.'))).toEqual(['AUR5047']);
    expect(hard(findings(ctx, 'Servilia sets down her cup. "The consul was murdered at dawn," she says flatly.'))).toEqual(['AUR5047']);
    expect(findings(ctx, 'Cato glances toward the door, as if the consul might walk through it.')).toEqual([]);
  });

  it('two holders of the office leave the title unresolved', async () => {
    const ctx = await ctxWith('SC12', (cs) => cs.map((c) => (c.id === 'murena' ? { ...c, office: 'consul' } : c)));
    expect(findMentions('The consul sweeps in.', personIndex(ctx))).toEqual([]);
    expect(findings(ctx, 'The consul sweeps in from the portico and takes Crassus by the arm.')).toEqual([]);
  });

  it('the only holder outside the packet leaves the title unresolved', async () => {
    const ctx = await ctxWith('SC12');
    const lean = { ...ctx, packet: { ...ctx.packet, retrieved_subgraph: { ...ctx.packet.retrieved_subgraph, characters: ctx.packet.retrieved_subgraph.characters.filter((c) => c.id !== 'cicero') } } };
    expect(findMentions('The consul sweeps in.', personIndex(lean))).toEqual([]);
  });

  it("an office the scene's matters are about is a post in play: its title names no one", async () => {
    const ctx = await ctxWith('SC12');
    const threads = [...ctx.packet.retrieved_subgraph.threads, { id: 'thr_pm', question: 'Who will be the next Pontifex Maximus, and at what price?', progress: 0.1, status: 'open' }];
    const contested = { ...ctx, packet: { ...ctx.packet, retrieved_subgraph: { ...ctx.packet.retrieved_subgraph, threads } } };
    expect(findMentions('The pontifex maximus turns, a notch tighter.', personIndex(contested)).map((m) => m.id)).toEqual([]);
    expect(findMentions('The consul sweeps in.', personIndex(contested)).map((m) => m.id)).toEqual(['cicero']);
    expect(findMentions('The pontifex maximus sweeps in.', personIndex(ctx)).map((m) => m.id)).toEqual(['caesar']);
  });

  it('a DPRR import gives the office held in the world year: an annual magistracy begun that year, or the chief pontificate', () => {
    expect(officeInYear([{ name: 'quaestor', year: -75 }, { name: 'consul', year: -63 }], 63)).toBe('consul');
    expect(officeInYear([{ name: 'tribunus plebis', year: -62 }], 63)).toBeUndefined();
    expect(officeInYear([{ name: 'tribunus plebis', year: -63 }], 63)).toBe('tribune of the plebs');
    expect(officeInYear([{ name: 'pontifex maximus', year: -63 }, { name: 'praetor', year: -62 }], 62)).toBe('praetor');
    expect(officeInYear([{ name: 'pontifex maximus', year: -63 }], 60)).toBe('pontifex maximus');
  });
});
