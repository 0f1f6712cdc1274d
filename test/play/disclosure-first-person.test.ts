import { describe, expect, it } from 'vitest';
import { improvisedPacket } from '../../src/play/context.js';
import { extractProposals } from '../../src/play/director.js';
import type { ActorAnswer, SceneSetup } from '../../src/play/types.js';
import { readStarterWorld } from '../support/starter-world.js';

/**
 * How an Actor's line tells a secret, written for the mends after the first run of held-out play set 1
 * (test/fixtures/play-disclosure-heldout-1): a holder tells it in the first person, a group's talk is hearsay
 * whatever the place is called, and one sentence tells the one secret it says most of.
 */
const world = readStarterWorld();

function learned(location: string, speaker: string, dialogue: string): string[] {
  const packet = improvisedPacket(world, location, ['cicero', speaker]);
  const setup: SceneSetup = { scene: 'PLAY', episode: null, location, principal: 'cicero', cast: [speaker], mode: 'open', turn_budget: 8, objective: null, season: 1 };
  const answer: ActorAnswer = { speaker, dialogue, action: 'looks at the floor', internal: 'say as little as you can', mood: 'cornered', tension_shift: 0 };
  return extractProposals(world, packet, setup, 't0002', 't0003', 'Speak plainly.', answer, 1)
    .map((p) => /^cicero learns (\S+) from /.exec(p.reason)?.[1])
    .filter((id): id is string => id !== undefined)
    .sort();
}

describe('a secret told in the first person (disclosure.ts)', () => {
  it('is told when the holder says "I", "me" or "my" for the name a narrator would write', () => {
    expect(learned('ostia', 'murena', 'Every broker who carried a tribe for me was paid out of Varo\'s strongbox at Ostia, and Varo wrote the receipt himself.')).toEqual(['sec_murena_bribes']);
    expect(learned('campus_martius', 'catiline', "My campaigns ran on Crassus' money, every one of them, and he still holds my notes.")).toEqual(['sec_crassus_backing']);
    expect(learned('forum', 'servilia', "I write to Caesar in words no matron should put on a tablet, and I have them carried to him in the middle of the Senate's business.")).toEqual(['sec_servilia_letter']);
  });

  it('is not told by a denial, or by talk a group has, whatever the place is called', () => {
    expect(learned('ostia', 'murena', 'Nobody paid my brokers out of any strongbox at Ostia, Consul, and Varo never wrote me a receipt.')).toEqual([]);
    expect(learned('subura', 'clodius', "Men in the cook-shops say Crassus' money pays my crews in the Subura. Men in the cook-shops say a great many things.")).toEqual([]);
    expect(learned('subura', 'clodius', "The boys in the wine-shops say Crassus' money pays my crews in the Subura. Let them talk.")).toEqual([]);
  });

  it('is not told by what the speaker says he has heard, nor by a thing the speaker says is not theirs', () => {
    expect(learned('forum', 'crassus', "I am told the grain lost off Sardinia is sitting in Varo's warehouses at Ostia, bought with my money. Men will say anything.")).toEqual([]);
    expect(learned('forum', 'servilia', "The letters that reach Caesar in the middle of the Senate's business, in words no matron should put on a tablet, are not mine.")).toEqual([]);
  });

  it("tells one secret a sentence: the one it says most of, not another of the speaker's that shares a name and a word", () => {
    expect(learned('villa_tusculum', 'crassus', 'Catiline stood for the consulship on my money, both times, and his notes are still in my strongroom.')).toEqual(['sec_crassus_backing']);
  });
});
