import { describe, expect, it } from 'vitest';
import { codes, findings, usePackets } from './prose-scenes.js';

// A forbidden fact told across a question answered in dialogue (prose audit, session 41, finding 6): the
// answer's ellipsis ("Crassus.") is completed by its question ("Who holds Caesar's notes?"), so a secret
// whose clauses are all stated as fact across a short exchange is hard AUR5046, as in one speech. An
// unanswered question, an answer that denies, a rumour or a supposition keep it soft or clean.
// Sentences written for these tests, against real packets of the starter world (test/fixtures/writer-corpus).
usePackets();

const hard = (scene: string, body: string) => codes(findings(scene, body));
const soft = (scene: string, body: string) => codes(findings(scene, body), 'soft');

describe('a forbidden fact told across a question and its answer (AUR5046 hard)', () => {
  const caught: Array<[string, string, string]> = [
    ['the audit\'s exchange, Caesar\'s debts (SC21)', 'SC21', `Fulvia sets the lamp down.\n\n"Who holds Caesar's notes?" Fulvia asks.\n\n"Crassus," Terentia says. "The biggest of them. Caesar owes more than he could pay back in three lifetimes."\n\n"And if he loses the priesthood?"\n\n"His creditors take everything."`],
    ['cue lines, the questions in another order (SC02)', 'SC02', `> CATO: How much does Caesar owe?\n> VARO: More than he could repay in three lifetimes.\n> CATO: Who holds the paper?\n> VARO: Crassus. The largest notes.\n> CATO: And if the priesthood goes to another man?\n> VARO: His creditors take everything.`],
    ['past tense, the vote-brokers paid from Varo\'s strongbox (SC05)', 'SC05', `"Who paid the vote-brokers who worked for Murena?" Clodius asked.\n\n"Varo," Crassus said. "Out of his strongbox at Ostia."\n\n"And is there a receipt?"\n\nCrassus smiled. "In Varo's own hand."`],
    ['a narration paragraph between the question and its answer, the grain at Ostia (SC24)', 'SC24', `"Where did the grain lost off Sardinia end up?" Cato asks.\n\nServilia turns the cup in her fingers.\n\n"Varo's warehouses. At Ostia," she says.\n\n"Whose money?"\n\n"Crassus'."\n\n"And why is it not sold?"\n\n"He holds it back. To drive the price up."`],
    ['the informant named in answers of one word (SC02)', 'SC02', `"Someone inside the conspiracy talks. Who carries it to the consul?" Murena asks.\n\n"His wife, Terentia," Varo says.\n\n"And who brings it to her?"\n\n"Fulvia."\n\n"And who tells Fulvia?"\n\n"Curius. In bed."`],
    ['a yes-or-no question answered "He does." (SC21)', 'SC21', `"Does Crassus hold the biggest of Caesar's notes?" Fulvia asks.\n\n"He does," Terentia says. "Caesar owes more than he could pay back in three lifetimes."\n\n"And if he loses the priesthood?"\n\n"His creditors take everything."`],
  ];
  for (const [what, scene, body] of caught) {
    it(`is hard: ${what}`, () => {
      expect(hard(scene, body), body).toEqual(['AUR5046']);
    });
  }

  it('points at the answer that says most, not at the question', () => {
    const f = findings('SC21', caught[0][2]).find((x) => x.code === 'AUR5046')!;
    expect(f.severity).toBe('hard');
    expect(f.span!.text).not.toMatch(/\?/);
  });
});

describe('a question and answer that does not state the fact stays soft or clean', () => {
  const controls: Array<[string, string, string]> = [
    ['questions never answered', 'SC21', `"Who holds Caesar's notes? Does he owe more than he could pay back in three lifetimes?" Fulvia asks.\n\nTerentia looks at the lamp and says nothing.\n\n"And if he loses the priesthood, do his creditors take everything?"\n\nThe lamp gutters.`],
    ['answers that deny or do not know', 'SC21', `"Does Crassus hold the biggest of Caesar's notes?" Fulvia asks.\n\n"No one holds them," Terentia says. "Caesar owes nothing he could not pay back in three lifetimes."\n\n"And if he loses the priesthood, do his creditors take everything?"\n\n"Nobody knows."`],
    ['answers told as rumour', 'SC21', `"Who holds Caesar's notes?" Fulvia asks.\n\n"They say Crassus," Terentia says. "The biggest of them, they say. They say Caesar owes more than he could pay back in three lifetimes."\n\n"And if he loses the priesthood?"\n\n"Then, the story goes, his creditors take everything."`],
    ['a supposition answered in "would"', 'SC21', `"Suppose Crassus held the biggest of Caesar's notes?" Fulvia asks.\n\n"Then Caesar would owe him more than he could pay back in three lifetimes."\n\n"And if he lost the priesthood?"\n\n"His creditors would take everything."`],
    ['a yes-or-no question that holds the fact, met with a retort', 'SC21', `"Will you tell me next that Crassus holds the largest of Caesar's notes, and that Caesar owes more than he could repay in three lifetimes?" Fulvia asks.\n\n"I will tell you what I can prove," Terentia says, "and nothing more."`],
    ['an open question that answers itself, met with a retort', 'SC21', `"And who holds Caesar's notes, the biggest of them? Crassus, because Caesar owes more than he could pay back in three lifetimes?" Fulvia laughs.\n\n"You listen to too many wine-shops," Terentia says.`],
    ['a yes-or-no question answered with a shrug, not a yes', 'SC21', `"Is it true that Crassus holds the biggest of Caesar's notes?" Fulvia asks.\n\n"I count linen, domina," Terentia says. "I do not count other men's debts."\n\n"And if he loses the priesthood?"\n\n"Ask Caesar."`],
    ['an innocent exchange about notes and a strongbox', 'SC05', `"Who holds the notes for the grain?" Clodius asks.\n\n"The clerk," Crassus says. "In the strongbox, with the receipts."\n\n"And if he loses them?"\n\n"Then he loses his place."`],
  ];
  for (const [what, scene, body] of controls) {
    it(`is not hard: ${what}`, () => {
      expect(hard(scene, body), body).toEqual([]);
    });
  }

  it('stays soft where one question and one answer alone told it before', () => {
    // The rumour keeps its soft finding: the exchange adds no certainty to hearsay.
    expect(soft('SC21', controls[2][2])).toContain('AUR5046');
  });
});
