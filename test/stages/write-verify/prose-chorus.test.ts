import { describe, expect, it } from 'vitest';
import { codes, findings, usePackets } from './prose-scenes.js';

// Held-out corpus 125's first run (session 37): a chorus ("we") tells what it saw, and what it only guessed or told
// each other. Its talk is a report: the forbidden fact guessed, the sum the kitchen "has it" was paid and the journey the
// callers tell each other of are no hard finding; the same told as seen still is. Sentences written for these tests,
// against real packets of the starter world with Catiline dead (test/fixtures/writer-corpus).
usePackets();

const hard = (scene: string, body: string) => codes(findings(scene, body));

describe("a chorus's guesses and talk are reports", () => {
  it('a forbidden fact the quay guesses is no hard AUR5046; told as known, it is', () => {
    const guessed = "We sat on the quay wall and watched the long sheds. We guess, as the whole quay guesses, that the grain lost off Sardinia is sitting in Varo's warehouses at Ostia, bought with Crassus' money and held back to drive the price up.";
    expect(hard('SC15', guessed)).toEqual([]);
    expect(hard('SC15', guessed.replace('We guess, as the whole quay guesses, that the', 'The'))).toEqual(['AUR5046']);
  });

  it('a sum the kitchen has it was paid is no overspend; told as paid, it is', () => {
    const talk = "Clodius counts three thousand denarii onto the table and pushes them across to Crassus. We carry the cups out. By the time the lamps are trimmed, the kitchen has it that Clodius paid fifty thousand denarii across the mistress's table, in gold, without blinking.";
    expect(hard('SC05', talk)).toEqual([]);
    expect(hard('SC05', talk.replace('the kitchen has it that Clodius paid', 'Clodius has paid'))).toEqual(['AUR5022']);
  });

  it('a journey the callers tell each other of is no teleport; told as the fact, it is', () => {
    const told = 'Cato stood by the atrium door with Murena. We brought the bread round, and the callers by the door were telling each other that Varo had been at Faesulae the night before last and had ridden all night to be here.';
    expect(hard('SC02', told)).toEqual([]);
    expect(hard('SC02', told.replace('the callers by the door were telling each other that Varo', 'Varo'))).toEqual(['AUR5017']);
  });
});

describe('an unnamed man told of before a name in his sentence', () => {
  it("is the 'he' of the next sentence, not the dead man named in a clause about him", () => {
    const body = (who: string) => `Fulvia waits by the fountain, and we fill our jars and watch her.\n\n${who} is coming down the lane from the wine shop, one of the old crowd who used to sit at Catiline's table when Catiline had a table, grey now, a little drunk. He sees Fulvia and stops and lifts a hand to her.`;
    expect(hard('SC21', body('A man'))).toEqual([]);
    // Named himself, the dead man walks: a hard AUR5015.
    expect(hard('SC21', `Fulvia waits by the fountain, and we fill our jars and watch her.\n\nCatiline is coming down the lane from the wine shop, grey now, a little drunk. He sees Fulvia and stops and lifts a hand to her.`)).toEqual(['AUR5015']);
  });
});

describe('what a witness saw someone do', () => {
  const steps = 'We swept the temple steps while the armed men stood about them and Crassus waited inside with Terentia.';
  it('was done: the dead man seen coming up the steps is a hard AUR5015', () => {
    expect(hard('SC12', `${steps} We saw Catiline come up between the armed men and take Clodius by the shoulder.`)).toEqual(['AUR5015']);
  });

  it('was not done when the seeing is sworn to, told, long ago or a habit', () => {
    expect(hard('SC12', `${steps} A boatman swore to us that he saw Catiline come up between the armed men.`)).toEqual([]);
    expect(hard('SC12', `${steps} We had seen Catiline come up those steps a hundred times, in the old days.`)).toEqual([]);
    expect(hard('SC12', `${steps} We never saw Catiline come up those steps again.`)).toEqual([]);
  });
});
