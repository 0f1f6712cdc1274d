import { describe, expect, it } from 'vitest';
import { findings, usePackets } from './prose-scenes.js';

// A person nobody knows speaking through a said-tag, as an unknown cue speaks (AUR5012): the world has no such
// character and no minor_character claim introduces them. Sentences written for these tests in the manner of a model's
// scene, against real packets of the starter world (test/fixtures/writer-corpus): SC01 Cicero and Crassus at the Curia,
// SC05 Clodius and Crassus at Servilia's house, SC21 Fulvia and Terentia in the Subura, SC24 Caesar, Cato and Servilia.
usePackets();

const strangers = (scene: string, body: string, extras: string[] = []) => findings(scene, body, extras).filter((f) => f.code === 'AUR5012');

describe('an invented person speaking through a said-tag is not in the cast (AUR5012)', () => {
  const hard: Array<[string, string, string]> = [
    ['SC05', 'Gnaeus Plautius', `Crassus has the lamp moved nearer the ledger.\n\n"The ships are late," says Gnaeus Plautius, wiping his hands on his tunic. "Three days at least, if the wind holds."`],
    ['SC05', 'Plautius', `Clodius laughed at that, but nobody else did.\n\nPlautius said, "Move. The litter is at the door."`],
    ['SC01', 'Lucius Vettius', `Crassus had not sat down. "Enough," Lucius Vettius snapped. "The senators are waiting on the steps, and they do not wait well."`],
    ['SC21', 'Sextus Paconius', `The wine-shop was nearly empty. Fulvia took the bench by the wall.\n\n"You should not be here after dark, domina," Sextus Paconius murmured, setting the cup down without being asked.`],
    ['SC24', 'Decimus Orbilius', `**"The augurs have closed the assembly,"** announced nobody in particular; then, louder, "Not today," Decimus Orbilius told them.`],
    ['SC01', 'Numerius Vibullius', `Cicero waits for the benches to settle. "Who speaks for Faesulae?" asks Numerius Vibullius from the back, and no one answers him.`],
  ];
  for (const [scene, name, body] of hard) {
    it(`is hard: ${name}`, () => {
      const f = strangers(scene, body);
      expect(f.map((x) => x.severity), body).toEqual(['hard']);
      expect(f[0]!.message).toContain(`${name} speaks`);
      expect(f[0]!.span?.text).toContain(name);
    });
  }

  it('is soft for a lone name of no Roman shape ("Davus said")', () => {
    const body = `Terentia did not look round. "The water is hot, domina," Davus said from the doorway.`;
    expect(strangers('SC21', body).map((f) => f.severity), body).toEqual(['soft']);
  });

  it('makes one finding per person, however often they speak', () => {
    const body = `"The ships are late," says Gnaeus Plautius.\n\n"How late?" Crassus asks.\n\nPlautius shrugged. "Three days," Plautius said.`;
    expect(strangers('SC05', body).length, body).toBe(1);
  });
});

describe('said-tags that name nobody invented stay clean of AUR5012', () => {
  const clean: Array<[string, string, string]> = [
    ['a minor_character claim introduces him', 'SC05', `"The ships are late," says Gnaeus Plautius, wiping his hands.\n\nPlautius said, "Three days."`],
    ['an unnamed boatman', 'SC15', `"The tide is wrong for it," a boatman says, and spits into the water.`],
    ['the girl', 'SC21', `"Is it true, domina?" the girl says. "They say the consul sleeps with a sword now."`],
    ['the lictor, after the verb', 'SC01', `"Make way for the consul," says the lictor, and the crowd parts.`],
    ['the crowd, and voices in capitals', 'SC01', `"Cicero! Cicero!" the crowd roars.\n\n"Bread!" Voices cried from the street below, and someone laughed.`],
    ['everyone and nobody', 'SC05', `"To Crassus," Everyone answered, lifting a cup.\n\n"And to the consul?" Nobody answered that.`],
    ['a name inside the words said', 'SC24', `"Plautius said so, and Plautius knows the harbour," Servilia says.`],
    ['a god in a dream', 'SC24', `In the dream the statue opened its marble mouth. "Rome is mine," said Jupiter, and Cato woke.`],
    ['a city and a ship', 'SC15', `"Grain," Rome says, as it has said all summer.\n\n"Ready," answered the Aquila's master, and the Aquila answered the signal with a horn.`],
    ['a title and a kin word as names', 'SC21', `"Sit," Domina says, and Terentia sits.\n\n"Eat something," Mother said.`],
    ['known people by nomen, cognomen and English form', 'SC01', `"Enough," Tully snapped.\n\n"The treasury is empty," Licinius said.\n\n"Then fill it," answered Metellus.`],
    ['a pronoun tag speaks, a stranger only laughs after it', 'SC21', `"Go home," she says, and Plautius laughs.`],
    ['a said-tag after a known speaker: the stranger is the one told', 'SC05', `"Sell it," Crassus told Plautius.`],
    ['a line remembered in the past in a scene told in the present', 'SC15', `Clodius walks down to the quay, and he is thinking about what Plautius told him three nights ago in the cook-shop.\n\n"Ostia is not the Subura," Plautius said, wiping his mouth.\n\nThe quay opens out at the end of the lane, and the crowd is there, waiting. Clodius stops at the corner. He counts the boats, and he counts the men. Clodius climbs onto a crate and looks at them, and he waits.`],
  ];
  const claims: Record<string, string[]> = { 'a minor_character claim introduces him': ['Plautius, a boatman who keeps the Ostia ledgers for Crassus'] };
  for (const [what, scene, body] of clean) {
    it(`is clean: ${what}`, () => {
      expect(strangers(scene, body, claims[what] ?? []), body).toEqual([]);
    });
  }
});

describe('"he told her" tags a line as "he said" does', () => {
  // Crassus is not in SC21's cast (Fulvia, Terentia): his line there is AUR5016.
  const notInCast = (body: string) => findings('SC21', body).filter((f) => f.code === 'AUR5016');
  const told: string[] = [
    `"Sell it before the Kalends," Crassus told Fulvia.`,
    `"Sell it before the Kalends," Crassus tells Fulvia, and turns to go.`,
    `Crassus stood in the doorway, his cloak still wet. "Sell it before the Kalends," he told her.`,
  ];
  for (const body of told) {
    it(`reads the teller as the speaker: ${body}`, () => {
      expect(notInCast(body).length, body).toBe(1);
      expect(notInCast(body)[0]!.message).toContain('Crassus speaks');
    });
  }
  it('does not read the one told as the speaker', () => {
    const body = `"Sell it before the Kalends," Fulvia told Crassus's steward.`;
    expect(notInCast(body), body).toEqual([]);
  });
});
