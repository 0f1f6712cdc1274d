import { beforeAll, describe, expect, it } from 'vitest';
import { codes, expectTeleports, findings, packets, usePackets } from './prose-scenes.js';

// Prose audit 2 (findings f5, f6), with variants written for these tests, against real packets of the
// starter world (test/fixtures/writer-corpus): SC02 at the House of Cicero (Varo 1 day since Ostia, a day
// away), SC15 at Ostia (Clodius 1 day since the Temple of Concord), SC21 in the Subura (Fulvia 8,000 denarii,
// Terentia 300,000), SC24 at the House of Crassus (Caesar 15,000, Cato, Servilia).
usePackets();

describe('a screenplay cut-away to a place a day away, and the return from it (sluglines.ts)', () => {
  const lead = 'Cato paces the atrium. Murena waits by the household shrine, saying nothing.\n\n';
  const back = '\n\nCato turns to Murena and lowers his voice.';
  it('a cast member under "CUT TO:", "SMASH CUT TO:", "DISSOLVE TO:", "INTERCUT WITH:" or "EXT. … — DAY" naming Ostia is there', () => {
    expectTeleports(
      [
        ['SC02', `${lead}CUT TO: THE QUAYS AT OSTIA — SAME HOUR.\n\nVaro stands on the wharf counting sails.\n\nBACK TO: THE HOUSE OF CICERO.${back}`],
        ['SC02', `${lead}CUT TO: EXT. OSTIA — THE GRAIN QUAY — SAME HOUR\n\nVaro stands on the wharf counting sails.\n\nINT. HOUSE OF CICERO — CONTINUOUS${back}`],
        ['SC02', `${lead}SMASH CUT TO:\n\nEXT. OSTIA — THE WAREHOUSES — DAY\n\nVaro checks the seals on the doors, one by one.\n\nRESUME${back}`],
        ['SC02', `${lead}DISSOLVE TO: The customs sheds at Ostia.\n\nVaro watches the sacks come ashore.\n\nBACK TO SCENE${back}`],
        ['SC02', `${lead}INTERCUT WITH: EXT. OSTIA — DAY\n\nVaro counts sacks on the quay.\n\nBACK IN THE ATRIUM${back}`],
        ['SC02', `${lead}EXT. OSTIA — DAY\n\nVaro counts sacks on the quay.\n\nBack in the atrium, Cato turns to Murena and lowers his voice.`],
      ],
      [],
    );
  });
  it('the return ("BACK TO: …", "BACK TO SCENE", "RESUME", "BACK IN THE ATRIUM", "Back in the atrium, …") puts the cast on this stage again', () => {
    const away = `${lead}EXT. OSTIA — SAME HOUR\n\nGulls over the empty quays. A grain ship rides at anchor with nobody aboard.\n\n`;
    for (const ret of ['BACK TO: THE HOUSE OF CICERO.', 'BACK TO SCENE', 'RESUME', 'BACK IN THE ATRIUM', '**BACK TO: INT. HOUSE OF CICERO**']) {
      expect(codes(findings('SC02', `${away}${ret}${back}`)), ret).toEqual([]);
    }
    expect(codes(findings('SC02', `${away}Back in the atrium, Cato turns to Murena and lowers his voice.`))).toEqual([]);
  });
  it('no move: a cut to the scene\'s own place, to a place within reach, to another time, or a cut-away nobody of the cast is in', () => {
    expectTeleports(
      [],
      [
        ['SC02', `${lead}CUT TO: THE ATRIUM OF THE HOUSE OF CICERO — LATER.\n\nVaro counts the lamps.${back}`],
        ['SC02', `${lead}CUT TO: EXT. THE SUBURA — SAME HOUR\n\nMurena pushes through the crowd.${back}`],
        ['SC02', `${lead}CUT TO: EXT. OSTIA — THREE DAYS EARLIER\n\nVaro stands on the wharf counting sails.\n\nBACK TO: THE HOUSE OF CICERO.${back}`],
        ['SC02', `${lead}CUT TO: THE QUAYS AT OSTIA — SAME HOUR.\n\nA slave counts sacks. Nobody watches him.\n\nBACK TO: THE HOUSE OF CICERO.${back}`],
      ],
    );
  });
});

describe('a journey the same day from a place a day away (arrivals.ts)', () => {
  it('someone who stood at Ostia at dawn today, or has come from the Palatine not an hour ago, is too far', () => {
    expectTeleports(
      [
        ['SC02', 'Cato paces the atrium.\n\nVaro stood on the quays at Ostia at dawn today, watching the grain come in, and his boots are still wet with it.'],
        ['SC02', 'Cato paces the atrium.\n\nVaro still smells of the Ostia quays, where he stood at first light this morning.'],
        ['SC02', 'Cato paces the atrium. At dawn today Varo sat in a customs shed at Ostia; now he sits by the shrine and says nothing.'],
        ['SC15', 'The tide is out. Clodius has come straight from his morning callers on the Palatine, not an hour ago, still in the toga he received them in.'],
        ['SC15', 'The tide is out. Clodius has come down from the Subura this morning, and the gulls scream at him.'],
      ],
      [
        // A day or more since, which the journey fits, or long ago.
        ['SC02', 'Cato paces the atrium.\n\nVaro was at Ostia yesterday, and he has not slept since.'],
        ['SC02', 'Cato paces the atrium.\n\nVaro stood on the quays at Ostia last month, watching his ships come in.'],
        ['SC02', 'Cato paces the atrium.\n\nVaro still smells of the Ostia quays, where he grew up.'],
        // A letter from there, not a person.
        ['SC02', 'Cato paces the atrium. A letter from Ostia, written at dawn today, lies on the table. Varo reads it twice.'],
        // No time: the days since the last scene bound it.
        ['SC15', 'The tide is out. Clodius has come straight from his morning callers on the Palatine, still in the toga he received them in.'],
        ['SC15', 'The tide is out. Clodius was on the Palatine the day before yesterday, and he says so to anyone who asks.'],
      ],
    );
  });
});

describe('paying beyond one\'s means (AUR5022): a "she" carried over a paragraph, a sum the payer names', () => {
  beforeAll(() => {
    // SC12 at the Temple of Concord with Terentia, its only woman, holding 8,000 denarii.
    const pk = structuredClone(packets.SC12!);
    for (const a of pk.retrieved_subgraph.accounts) if (a.owner === 'terentia') a.denarii = 8000;
    packets.SC12poor = pk;
  });
  const over = (scene: string, body: string) => expect(codes(findings(scene, body)), body).toEqual(['AUR5022']);
  const clean = (scene: string, body: string) => expect(codes(findings(scene, body)).filter((c) => c === 'AUR5022'), body).toEqual([]);
  it('a "she" whose paragraph names nobody else runs on from the one before: the woman named there pays', () => {
    over('SC12poor', 'Crassus hears only fragments behind the curtain; Terentia lowers her voice just in time.\n\nWhen she comes out she does not meet his eye. Instead she presses ten thousand denarii into his hand, in a heavy purse, and closes his fingers over it.\n\n"You heard nothing," she says.');
    over('SC12poor', 'Clodius heard only fragments behind the curtain; Terentia lowered her voice in time.\n\nWhen she came out she did not look at him. Instead she pressed ten thousand denarii into his hand and walked on.\n\n"Nothing at all," Clodius said.');
    over('SC12poor', '"Well?" Crassus asks.\n\nTerentia crosses to the altar and says nothing.\n\nWhen she turns round she is smiling. Then she counts twelve thousand denarii into Clodius\' palm.');
  });
  it('a "she" the paragraph names, a sum within means, or a "she" who is someone else: no overspend', () => {
    clean('SC12poor', 'Crassus hears only fragments behind the curtain; Terentia lowers her voice just in time.\n\nWhen she comes out she does not meet his eye. Instead she presses five thousand denarii into his hand.');
    // Two women: Terentia (300,000) is the "she" of her own paragraph, not Fulvia (8,000).
    clean('SC21', 'Fulvia waits at the corner of the lane.\n\nTerentia comes out of the door. When she reaches the corner she does not meet Fulvia\'s eye. Instead she presses ten thousand denarii into her hand.');
    clean('SC21', 'Behind the curtain Terentia lowers her voice; Fulvia waits at the corner of the lane.\n\nWhen she comes out she does not look up. Instead she presses ten thousand denarii into the porter\'s hand.');
  });
  it('a purse handed, then its sum named in the payer\'s own words, tagged, on the line or opening the next paragraph', () => {
    over('SC24', 'Servilia names Caesar to Cato\'s face.\n\nCaesar takes a purse from his belt and drops it into Servilia\'s lap. "Twenty thousand denarii," he says. "For your silence."');
    over('SC24', 'Servilia names Caesar to Cato\'s face.\n\nCaesar takes a purse from his belt and drops it into Servilia\'s lap.\n\n"Twenty thousand denarii," he says. "For your silence."');
    over('SC24', 'Servilia names Caesar to Cato\'s face.\n\nCaesar pulls a heavy purse from his sleeve and tosses it onto the couch beside Servilia. "Twenty thousand denarii," Caesar says quietly.');
    over('SC24', 'Servilia named Caesar to Cato\'s face. Cato said nothing. Caesar looked at the floor.\n\nCaesar took a purse from his belt and dropped it into Servilia\'s lap. "Twenty thousand denarii," he said.');
  });
  it('the sum named is not what was handed: owed, asked back by another, within means', () => {
    clean('SC24', 'Servilia names Caesar to Cato\'s face.\n\nCaesar takes a purse from his belt and drops it into Servilia\'s lap. "Twenty thousand denarii is what Crassus owes me," he says.');
    clean('SC24', 'Servilia names Caesar to Cato\'s face.\n\nCaesar takes a purse from his belt and drops it into Servilia\'s lap. "Twenty thousand denarii?" Servilia says.');
    clean('SC24', 'Servilia names Caesar to Cato\'s face.\n\nCaesar takes a purse from his belt and drops it into Servilia\'s lap.\n\n"Twenty thousand denarii," Cato says. "That is what they say he paid for his house."');
    clean('SC24', 'Servilia names Caesar to Cato\'s face.\n\nCaesar takes a purse from his belt and drops it into Servilia\'s lap. "Ten thousand denarii," he says.');
  });
});
