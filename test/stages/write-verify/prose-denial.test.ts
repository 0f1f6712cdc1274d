import { describe, expect, it } from 'vitest';
import { codes, findings, usePackets } from './prose-scenes.js';

// A forbidden fact said only to be denied (prose audit 2, finding 4): the negation scopes over the clause that carries
// the fact, so it is not stated (AUR5046 soft at most, as a hedged one; play reads it as no telling). A denial that
// still tells the fact, one that does not scope over its predicate, and the fact told plainly elsewhere stay hard.
// Sentences written for these tests, against real packets of the starter world (test/fixtures/writer-corpus).
usePackets();

const hard = (scene: string, body: string) => codes(findings(scene, body));

describe('a forbidden fact denied is not stated (AUR5046 not hard)', () => {
  const denied: Array<[string, string, string]> = [
    ['the audit\'s "It is not true that …" in a quotation', 'SC01', `"It is not true that Catiline's men mean to kill the consul," Crassus says quickly. "Whatever you have heard."`],
    ['a negated predicate', 'SC01', `"Catiline's men do not mean to kill the consul," Crassus says quickly. "Whatever you have heard."`],
    ['"It is a lie that …", past tense around it', 'SC05', `Clodius spat into the brazier. "It is a lie that Catiline's conspirators mean to murder the consul at his morning reception," he said. Crassus did not answer.`],
    ['"It is not the case that …" in narration, the grain (SC15)', 'SC15', `It is not the case that the grain lost off Sardinia is sitting in Varo's warehouses at Ostia — Clodius has had men look, and the sheds are empty.`],
    ['a contraction and "never", the vote-brokers (SC01)', 'SC01', `"Varo never paid the vote-brokers who worked for Murena out of his strongbox at Ostia," Cicero says. "I have seen his books."`],
    ['a frame after the clause, "— that is a lie"', 'SC05', `"The conspirators around Catiline mean to murder the consul at his morning reception — that is a lie, and you know it," Crassus tells Clodius.`],
    ['a negative subject', 'SC02', `Cato folds his arms. "Nobody means to murder the consul at his morning reception, Catiline's men least of all," Varo says.`],
    ['"isn\'t" in dialogue around a cue line', 'SC15', `> CLODIUS: The grain lost off Sardinia isn't sitting in Varo's warehouses at Ostia. I looked.`],
  ];
  for (const [what, scene, body] of denied) {
    it(`is not hard: ${what}`, () => {
      expect(hard(scene, body), body).toEqual([]);
    });
  }
});

describe('a denial that still tells the fact, or is no denial of it, stays hard', () => {
  const told: Array<[string, string, string]> = [
    ['a denial of a part ("not true that he only means …") with the rest said', 'SC01', `"It is not true that Catiline's men only mean to kill the consul — they will murder him at his morning reception and fire the city in twelve places," Crassus says.`],
    ['"You cannot deny that …"', 'SC01', `"You cannot deny that Catiline's men mean to murder the consul at his morning reception," Crassus says.`],
    ['"No one denies that …"', 'SC05', `"No one denies that the conspirators around Catiline mean to murder the consul at his morning reception," Clodius says.`],
    ['"not only … but"', 'SC05', `"The conspirators around Catiline do not only mean to murder the consul at his morning reception; they mean to fire the city in twelve places," Clodius says.`],
    ['a denial, then the fact stated plainly in the next sentence', 'SC01', `"It is not true that Catiline's men mean to kill the consul," Crassus says. He lowers his cup. "They mean to murder him at his morning reception, fire the city in twelve places and join Manlius' army at Faesulae."`],
    ['a negation denied in turn', 'SC01', `"It is not true that Catiline's men do not mean to murder the consul at his morning reception," Crassus says.`],
    ['a cleft that denies whose money, not the deed (SC15)', 'SC15', `"It wasn't my money that bought the grain lost off Sardinia and held it back in Varo's warehouses at Ostia to drive the price up," Clodius says.`],
    ['a negation the fact itself holds ("no matron should put"), SC02', 'SC02', `"Servilia writes Caesar letters a matron would never put on a tablet, and they are delivered to him in the middle of public business," Varo says.`],
    ['a negation corrected at once ("…; it was Crassus\' money"), SC21', 'SC21', `"Catiline never paid for a campaign out of his own purse in his life; it was Crassus' money behind every one of them, and Crassus still holds his notes," Fulvia says.`],
    ['a negation of another verb of the fact\'s sentence', 'SC05', `"The conspirators around Catiline mean to murder the consul at his morning reception, and they will not wait for the elections," Clodius says.`],
  ];
  for (const [what, scene, body] of told) {
    it(`is hard: ${what}`, () => {
      expect(hard(scene, body), body).toEqual(['AUR5046']);
    });
  }

  it('a rhetorical "Isn\'t it true that …?" answered yes stays hard (exchange.ts)', () => {
    const body = `"Isn't it true that the conspirators around Catiline mean to murder the consul at his morning reception?" Cicero asks.\n\n"Yes," Crassus says. "It is."`;
    expect(hard('SC01', body), body).toEqual(['AUR5046']);
  });
});

// A denial spread over two sentences: the fact said (or asked) in one and denied bare in the next ("It is not.", "No.
// She never did.", "That is a lie."), in the same voice (denial.ts deniedByNext). Soft, as the one-sentence denial is.
// Not when the next sentence denies something else, affirms, or a character's line answers what the narrator tells.
describe('a fact said, then denied bare in the next sentence, is not hard (AUR5046)', () => {
  const denied: Array<[string, string, string]> = [
    ['narration, "It is not."', 'SC15', `Everyone on the quay at Ostia knows the grain lost off Sardinia is sitting in Varo's warehouses, bought with Crassus' money. It is not.`],
    ['a line, and another speaker\'s "It isn\'t." after a beat of narration', 'SC15', `"The grain lost off Sardinia is sitting in Varo's warehouses at Ostia, bought with Crassus' money," the harbour clerk says.\n\nClodius laughs at him. "It isn't. I looked myself."`],
    ['cue lines, "No. He never did."', 'SC24', `> CATO: The money behind every campaign Catiline ever fought was Crassus' money, and Crassus still holds Catiline's notes.\n\n> SERVILIA: No. He never did.`],
    ['a said-tag on both lines, "They do not,"', 'SC01', `"Catiline's men mean to murder the consul at his morning reception," Cicero says.\n\n"They do not," Crassus says. "Whatever you have heard in the Forum."`],
    ['"That is a lie." in a paragraph of its own', 'SC05', `"The conspirators around Catiline mean to murder the consul at his morning reception and fire the city in twelve places," Clodius says.\n\n"That is a lie," Crassus says, and does not look up from his accounts.`],
    ['the fact asked, then "No. She never did." (soft before too: a question)', 'SC24', `"Crassus still holds Catiline's notes? The money behind his campaigns was Crassus' money?" Caesar asks.\n\n"No. He never did," Servilia says.`],
  ];
  for (const [what, scene, body] of denied) {
    it(`is not hard: ${what}`, () => {
      expect(hard(scene, body), body).toEqual([]);
      expect(codes(findings(scene, body), 'soft'), body).toEqual(['AUR5046']);
    });
  }
  const told: Array<[string, string, string]> = [
    ['the next sentence denies something else ("It is not safe there for long.")', 'SC15', `The grain lost off Sardinia is sitting in Varo's warehouses at Ostia, bought with Crassus' money. It is not safe there for long.`],
    ['the next sentence affirms ("It is true.")', 'SC15', `"The grain lost off Sardinia is sitting in Varo's warehouses at Ostia, bought with Crassus' money," Clodius says. "It is true. I have seen the sacks."`],
    ['the narrator tells it, a character denies it', 'SC15', `The grain lost off Sardinia is sitting in Varo's warehouses at Ostia, bought with Crassus' money. "It is not," Clodius tells the harbour clerk, and smiles.`],
    ['a bare denial of a question between', 'SC15', `"The grain lost off Sardinia is sitting in Varo's warehouses at Ostia, bought with Crassus' money. Is Varo a fool? He is not."`],
    ['the denial two paragraphs on', 'SC01', `"Catiline's men mean to murder the consul at his morning reception," Cicero says.\n\nCrassus turns the cup in his hands for a long time.\n\nThe lamp gutters.\n\n"They do not," Crassus says.`],
  ];
  for (const [what, scene, body] of told) {
    it(`is hard: ${what}`, () => {
      expect(hard(scene, body), body).toEqual(['AUR5046']);
    });
  }
});
