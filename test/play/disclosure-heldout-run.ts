import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { improvisedPacket } from '../../src/play/context.js';
import { extractProposals } from '../../src/play/director.js';
import type { ActorAnswer, SceneSetup } from '../../src/play/types.js';
import { readStarterWorld } from '../support/starter-world.js';

/**
 * The runner of a held-out set of play disclosures (test/fixtures/play-disclosure-heldout-N, see each README): Actor
 * answers written blind, each with the secrets Cicero learns from it, committed before any run. A case whose outcome
 * differs carries `known_miss` / `known_false_positive` ("reason"), and the test asserts today's outcome, so a fix
 * flips the assertion visibly.
 */
interface Case { id: string; location: string; cast: string[]; speaker: string; user: string; dialogue: string; action: string; internal: string; mood: string; class: string; expect: string[]; note: string; known_miss?: string; known_false_positive?: string }

function learnedByCicero(world: ReturnType<typeof readStarterWorld>, c: Case): string[] {
  const packet = improvisedPacket(world, c.location, ['cicero', ...c.cast]);
  const setup: SceneSetup = { scene: 'PLAY', episode: null, location: c.location, principal: 'cicero', cast: c.cast, mode: 'open', turn_budget: 8, objective: null, season: 1 };
  const answer: ActorAnswer = { speaker: c.speaker, dialogue: c.dialogue, action: c.action, internal: c.internal, mood: c.mood, tension_shift: 0 };
  return extractProposals(world, packet, setup, 't0002', 't0003', c.user, answer, 1)
    .map((p) => /^cicero learns (\S+) from /.exec(p.reason)?.[1])
    .filter((id): id is string => id !== undefined)
    .sort();
}

export function describeDisclosureHeldout(title: string, set: number): void {
  const dir = path.resolve(__dirname, '..', 'fixtures', `play-disclosure-heldout-${set}`);
  const cases = JSON.parse(fs.readFileSync(path.join(dir, 'cases.json'), 'utf8')) as Case[];
  const world = readStarterWorld();
  describe(title, () => {
    it('has 20 told cases and 20 controls', () => {
      expect(cases.filter((c) => c.class.startsWith('told')).length).toBe(20);
      expect(cases.filter((c) => c.class.startsWith('control')).length).toBe(20);
    });
    for (const c of cases)
      it(`${c.id} ${c.class}`, () => {
        const got = learnedByCicero(world, c);
        const want = [...c.expect].sort();
        if (c.known_miss || c.known_false_positive) expect(got, c.known_miss ?? c.known_false_positive).not.toEqual(want);
        else expect(got, c.note).toEqual(want);
      });
  });
}
