import { readFileSync } from 'node:fs';
import path from 'node:path';
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

// The prose rules on sentences written for the tests (not taken from the prose corpus), against real
// packets of the starter world with Catiline dead (test/fixtures/writer-corpus): what prose-rules
// and prose-presence share. `usePackets()` loads them before the file's tests.
const W = path.resolve(__dirname, '..', '..', 'fixtures', 'writer-corpus');
let base: Omit<VerifyContext, 'packet'>;
export const packets: Record<string, ScenePacket> = {};

export function usePackets(): void {
  beforeAll(async () => {
    const { world } = await loadWorldOrThrow(packageRoot());
    world.characters = JSON.parse(readFileSync(path.join(W, 'world-characters.json'), 'utf8'));
    base = worldVerifyContext(world, []);
    for (const s of ['SC01', 'SC02', 'SC05', 'SC12', 'SC15', 'SC21', 'SC24']) packets[s] = readPacket(path.join(W, 'packets', `${s}.json`));
  });
}

/** The verify context of one loaded packet. */
export const contextOf = (scene: string): VerifyContext => ({ ...base, packet: packets[scene] });

/** A scene of the packet whose text is `body` after its heading and cast line; `extras`: its minor_character claims' texts. */
export function findings(scene: string, body: string, extras: string[] = []): Finding[] {
  const p = packets[scene];
  const cast = p.cast.map((c) => c.name).join(', ');
  const raw = `---SCENE_TEXT---\n## ${scene} — INT. SOMEWHERE - NIGHT\n\n**Cast:** ${cast}\n\n${body}\n\n---CLAIMS---\n[]\n---SCENE_EVENTS---\n[]\n`;
  return proseRules(parseWriterOutput(raw), contextOf(scene), extras, [], extras.map((x) => x.toUpperCase()));
}
export const codes = (fs: Finding[], sev: 'hard' | 'soft' = 'hard') => fs.filter((f) => f.severity === sev).map((f) => f.code);
/** Each [scene, body] of `caught` raises exactly one hard AUR5017 (and nothing else hard); none of `fit` raises it. */
export function expectTeleports(caught: Array<[string, string]>, fit: Array<[string, string]>): void {
  for (const [scene, body] of caught) expect(codes(findings(scene, body)), body).toEqual(['AUR5017']);
  for (const [scene, body] of fit) expect(codes(findings(scene, body)).filter((c) => c === 'AUR5017'), body).toEqual([]);
}

/** Paraphrases in a data file (see its `about`): each case's hard codes, or no finding at all, by group. */
export function describeParaphrases(title: string, file: string): void {
  const data = JSON.parse(readFileSync(path.resolve(__dirname, '..', '..', 'fixtures', file), 'utf8')) as {
    groups: Record<string, string>;
    /** `soft`: the soft findings a case raises by design, beside its hard ones (a sum paid that no transfer moves, AUR5023). */
    cases: { group: string; scene: string; hard: string[]; soft?: string[]; body: string }[];
  };
  describe(title, () => {
    it('puts every case in a group it names', () => {
      for (const c of data.cases) expect(Object.keys(data.groups), c.body).toContain(c.group);
    });
    for (const [group, about] of Object.entries(data.groups)) {
      it(about, () => {
        for (const { scene, hard, soft = [], body } of data.cases.filter((c) => c.group === group)) {
          const f = findings(scene, body);
          // A must-not case raises nothing at all, not even a soft finding, but those it names.
          expect(codes(f, 'soft'), body).toEqual(soft);
          expect(hard.length ? codes(f) : f.filter((x) => x.severity === 'hard'), body).toEqual(hard);
        }
      });
    }
  });
}
