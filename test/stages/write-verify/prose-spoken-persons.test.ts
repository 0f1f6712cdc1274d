import { describe, expect, it } from 'vitest';
import { findings, usePackets } from './prose-scenes.js';

// A secret told in the first person (prose/spoken-persons.ts): in speech "my" is the speaker and "his" or "her" the one
// other person the paragraph's narration names before the quotation. The writer corpus's SC12 has Crassus's betrayal
// of Clodius to Terentia (sec_clodius_pay) planned to fail, its SC24 Caesar's of Servilia to Cato
// (sec_servilia_letter); a telling there is a hard AUR5035 (prose audit 2, case 05; the same telling with names,
// case 162, was caught already). Its SC02 has Varo's betrayal of Murena to Cato planned to succeed: told so, it is
// shown (no AUR5037).
usePackets();

const hard35 = (scene: string, body: string) => findings(scene, body).filter((f) => f.code === 'AUR5035' && f.severity === 'hard').length;

describe('a secret told in the first person, its pronouns read by who speaks and whom he looks at', () => {
  it('the audit\'s telling, and others: another word order, a tag before, the past, a woman', () => {
    const told = (scene: string, body: string) => expect(hard35(scene, body), body).toBe(1);
    told('SC12', 'Clodius lounges on the bench; Crassus stands.\n\n"You promised me something," Terentia says to Crassus.\n\nCrassus looks at Clodius — and does it. "His crews in the Subura are paid with my money," he tells her, evenly. "Every man of them."\n\nClodius goes white.');
    told('SC12', 'Crassus turns to face Clodius. "His crews in the Subura are paid with my money, Terentia. Every one of them."\n\nTerentia says nothing.');
    told('SC12', 'Crassus nods at Clodius. "I pay his Subura crews," he says. "With my own money."\n\nTerentia writes it down.');
    told('SC12', 'Terentia waited. Crassus glanced at Clodius for a long moment. "His crews in the Subura are paid with my money," he said. Clodius went white, and Terentia rose.');
    told('SC24', 'Caesar looks at Servilia for a long moment. "The letters she writes to me are in terms no matron should put on a tablet," he tells Cato. "And they are delivered in the middle of public business."');
  });

  it('stays clean on a refusal, a question, a denial, someone else spoken of, and two men who might be meant', () => {
    const clean = (scene: string, body: string) => expect(hard35(scene, body), body).toBe(0);
    clean('SC12', 'Crassus looks at Clodius for a long moment, and says nothing of him at all. "My money goes where I please," he tells Terentia.');
    clean('SC12', 'Terentia looks at Clodius. "Are his crews paid with your money?" she asks Crassus. Crassus does not answer.');
    clean('SC12', 'Crassus looks at Clodius. "His crews are not paid with my money," he says. "Whatever you have heard."');
    // The speaker's "my" fills the fact but points at no one: who the man is stays unsaid.
    clean('SC12', 'Crassus looks at Terentia. "About a man who takes my money and keeps bad company on the same nights," he says. "No more than that."');
    clean('SC12', 'Crassus says nothing of Clodius. "I will not sell a friend," he tells her, and leaves Terentia with nothing.');
    clean('SC12', 'Crassus looks from Clodius to Caesar\'s empty chair and back to Cicero. "His crews are paid with my money," he says.');
  });

  it('a telling planned to succeed, told in the first person, is shown (no AUR5037)', () => {
    const f = findings('SC02', 'Varo looks at Murena, then at Cato. "The brokers who worked for him were paid from my strongbox at Ostia," he tells Cato, "and the receipt is in my own hand."\n\nCato takes it down word for word.');
    expect(f.filter((x) => x.code === 'AUR5037').map((x) => x.severity)).toEqual([]);
  });
});
