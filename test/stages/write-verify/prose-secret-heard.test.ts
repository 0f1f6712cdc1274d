import { beforeAll, describe, expect, it } from 'vitest';
import { findings, packets, usePackets } from './prose-scenes.js';

// A secret said aloud in the hearing of a cast member who does not hold it, with no planned delta making them a
// holder (prose audit 2, finding 7): soft AUR5048. Holders may say what they know (no AUR5046), but the listener
// learns it and the world's holders do not. Sentences written for these tests, against real packets of the starter
// world (test/fixtures/writer-corpus): SC01 Cicero and Crassus (Caesar's debts: Crassus holds them, Cicero not);
// SC05 Clodius and Crassus (Varo's hoard: Crassus, not Clodius; Clodius' pay: both); SC21 Fulvia and Terentia (the
// plot: Fulvia, not Terentia; the informant: both); SC24 Caesar, Cato and Servilia (Caesar's debts: not Cato).
usePackets();

const heard = (scene: string, body: string) => findings(scene, body).filter((f) => f.code === 'AUR5048');

beforeAll(() => {
  // SC05 with a planned reveal: Clodius is to learn Varo's hoard in this scene.
  const p = structuredClone(packets.SC05!);
  p.constraints.required_deltas.push({ op: 'add', path: 'secrets.sec_varo_hoard.holders', value: 'clodius' } as (typeof p.constraints.required_deltas)[number]);
  packets.SC05_reveal = p;
});

describe('a secret told in the hearing of a cast member who does not hold it (AUR5048 soft)', () => {
  const caught: Array<[string, string, string, string]> = [
    ['Crassus tells Cicero what Caesar owes', 'SC01', 'Marcus Tullius Cicero', `Crassus sets down his cup. "Caesar owes more than he could repay in three lifetimes, Consul, and I hold the largest of his notes. If he loses the priesthood, his creditors will take everything."`],
    ['Crassus tells Clodius of the hoard, past tense', 'SC05', 'Publius Clodius Pulcher', `Crassus leaned across the table. "The grain lost off Sardinia never sank. It is sitting in Varo's warehouses at Ostia, bought with my money and held back to drive the price up," he said.\n\nClodius whistled.`],
    ['Fulvia tells Terentia of the plot, in cue lines', 'SC21', 'Terentia', `> TERENTIA: Why are you shaking?\n> FULVIA: Because Catiline's men mean to murder the consul at his morning reception, fire the city in twelve places and join Manlius' army at Faesulae.`],
    ['Servilia tells Caesar of his debts while Cato stands by', 'SC24', 'Marcus Porcius Cato', `Cato stands by the door, listening.\n\n"You owe more than you could repay in three lifetimes, Gaius, and Crassus holds the largest of your notes," Servilia says. "Lose the priesthood and your creditors will take everything."`],
    ['said quietly, but to the non-holder named beside it', 'SC01', 'Marcus Tullius Cicero', `Crassus draws Cicero aside and says quietly: "Caesar's debts are more than he could repay in three lifetimes, and I hold the largest of his notes."`],
  ];
  for (const [what, scene, who, body] of caught) {
    it(`is soft AUR5048: ${what}`, () => {
      const f = heard(scene, body);
      expect(f.map((x) => x.severity), body).toEqual(['soft']);
      expect(f[0]!.message).toContain(who);
      // Said by a holder: no forbidden fact, nothing hard.
      expect(findings(scene, body).filter((x) => x.severity === 'hard'), body).toEqual([]);
    });
  }
});

describe('a secret said where every listener holds it, learns it by plan, or does not hear it, stays clean', () => {
  const controls: Array<[string, string, string]> = [
    ['only holders on stage', 'SC05', `"My crews in the Subura are paid with your money, Crassus, and I drink with Catiline's men on the same nights," Clodius says.`],
    ['a required delta adds the listener to the holders', 'SC05_reveal', `Crassus leans across the table. "The grain lost off Sardinia is sitting in Varo's warehouses at Ostia, bought with my money and held back to drive the price up."`],
    ['the non-holder has gone out before the telling', 'SC24', `Cato leaves for the Curia without a word.\n\n"You owe more than you could repay in three lifetimes, Gaius, and Crassus holds the largest of your notes," Servilia says when the door has shut.`],
    ['the non-holder is asleep', 'SC24', `Cato is asleep on the couch by the brazier, snoring.\n\n"You owe more than you could repay in three lifetimes, Gaius, and Crassus holds the largest of your notes," Servilia says.`],
    ['whispered apart to the holder', 'SC24', `Servilia draws Caesar to the window and whispers to him: "You owe more than you could repay in three lifetimes, and Crassus holds the largest of your notes."`],
    ['the non-holder comes in only after it', 'SC24', `"You owe more than you could repay in three lifetimes, Gaius, and Crassus holds the largest of your notes," Servilia says.\n\nCaesar does not answer. Cato comes in from the garden, shaking rain from his cloak.`],
    ['the non-holder cannot hear it', 'SC24', `Cato is at the far end of the garden and cannot hear them.\n\n"You owe more than you could repay in three lifetimes, Gaius, and Crassus holds the largest of your notes," Servilia says.`],
    ['the secret stated by the narrator, not said', 'SC01', `Cicero watches Crassus count. Caesar's debts are more than he could repay in three lifetimes, and Crassus holds the largest of his notes; the whole room smells of that debt.`],
    ['the secret only rumoured', 'SC01', `"They say Caesar owes more than he could repay in three lifetimes, and that you hold his notes," Cicero says. "Is it so?"\n\nCrassus only smiles.`],
  ];
  for (const [what, scene, body] of controls) {
    it(`is clean: ${what}`, () => {
      expect(heard(scene, body), body).toEqual([]);
    });
  }
});

// A line whispered or said apart with no listener named ("She leans close and whispers, '…'"): heard by the one cast
// member its paragraph names besides the speaker, of several by the one it puts beside the speaker or speaks to, else by
// nobody in particular; a paragraph naming no one else leaves it to the one before. SC24: Caesar's debts, which Caesar
// and Servilia hold and Cato does not.
describe('a whisper whose listener goes unnamed is heard by the one beside the speaker, else by nobody', () => {
  const told = `"Caesar owes more than he could repay in three lifetimes, and Crassus holds the largest of his notes."`;
  const caught: Array<[string, string]> = [
    ['Cato beside her in the paragraph before', `Cato sits on the couch beside Servilia, turning a cup in his hands.\n\nServilia leans close and whispers, ${told}`],
    ['Cato the only other named', `Cato sets down his cup. Servilia leans close and whispers, ${told}`],
    ['Cato at her side, Caesar across the room', `Caesar is across the room with the steward. Cato sits close beside Servilia, and she murmurs, ${told}`],
    ['she takes Cato by the arm', `Servilia takes Cato by the arm and murmurs, ${told}`],
    ['she leans to Cato, Caesar across the room', `Caesar is across the room. Servilia leans to Cato and whispers, ${told}`],
  ];
  for (const [what, body] of caught) {
    it(`is soft AUR5048 for Cato: ${what}`, () => {
      const f = heard('SC24', body);
      expect(f.map((x) => x.severity), body).toEqual(['soft']);
      expect(f[0]!.message).toContain('Marcus Porcius Cato');
    });
  }
  const clean: Array<[string, string]> = [
    ['Caesar beside her, Cato at the far end', `Cato is at the far end of the table, reading. Caesar takes the couch beside Servilia, and she leans close and whispers, ${told}`],
    ['both at the table, neither beside her', `Cato and Caesar are both at the table when Servilia leans close and whispers, ${told}`],
    ['she bends to Caesar while Cato stands by the window', `Cato stands by the window; Caesar has the couch. Servilia bends toward Caesar and whispers, ${told}`],
    ['the paragraph before names two, neither beside her', `Cato and Caesar sit over the dice, arguing about the Ides.\n\nServilia leans close and whispers, ${told}`],
    ['she draws Caesar aside from the brazier where Cato stands', `Caesar and Cato stand at the brazier. Servilia draws Caesar aside and whispers, ${told}`],
    ['she leans to Caesar, Cato across the room', `Cato is across the room. Servilia leans to Caesar and whispers, ${told}`],
  ];
  for (const [what, body] of clean) {
    it(`is clean: ${what}`, () => {
      expect(heard('SC24', body), body).toEqual([]);
    });
  }
});
