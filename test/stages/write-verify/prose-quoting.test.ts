import { describe, expect, it } from 'vitest';
import { parseWriterOutput } from '../../../src/stages/e-writer/parse.js';
import { proseRules } from '../../../src/stages/f-verifier/prose/index.js';
import { codes, contextOf, describeParaphrases, findings, usePackets } from './prose-scenes.js';

// Held-out corpora 18 and 19's first runs (session 22): single-quoted dialogue, screenplay speech,
// forbidden facts matched on too little or framed too widely, payments and arrivals read in their own
// clause. Sentences written for these tests, against real packets of the starter world with Catiline
// dead (test/fixtures/writer-corpus).
usePackets();

describeParaphrases('quoting, framing and the clause a verb belongs to', 'prose-quoting-and-framing.json');

describe('a forbidden fact framed as a question or a report (AUR5046 soft)', () => {
  const fact = "Murena's vote-brokers were paid out of Varo's strongbox at Ostia";
  it('is soft when asked indirectly ("They ask whether…"); stated plainly it is hard', () => {
    for (const frame of ['They ask whether', 'Terentia wonders whether', 'Clodius asked whether']) {
      const f = findings('SC12', `Terentia looks at the doors. ${frame} ${fact}.`);
      expect([codes(f), codes(f, 'soft')], frame).toEqual([[], ['AUR5046']]);
    }
    expect(codes(findings('SC12', `Terentia looks at the doors. Everyone knows that ${fact}.`))).toEqual(['AUR5046']);
  });
  it('is soft when the question of a quotation holds the fact itself, and hard when the question is another sentence', () => {
    const fact = "the grain lost off Sardinia sitting in Varo's warehouses at Ostia, bought with Crassus' money and held back to drive the price up";
    const asked = findings('SC21', `Terentia looks at the ovens. "Is ${fact}? I do not believe it."`);
    expect([codes(asked), codes(asked, 'soft')]).toEqual([[], ['AUR5046']]);
    const stated = findings('SC21', `Terentia looks at the ovens. "Do you want something to bring me? Listen. The grain they say was lost off Sardinia is sitting in Varo's warehouses at Ostia, bought with Crassus' money and held back to drive the price up."`);
    expect(codes(stated)).toEqual(['AUR5046']);
  });
  it('is soft when a question closing the quotation asks the fact itself, or the fact is a case put ("Suppose a man…"): held-out corpora 71, br18, and 52, ay13', () => {
    for (const said of [
      '"Men say a great many things. Were Murena\'s vote-brokers paid out of Varo\'s strongbox at Ostia, with a receipt in Varo\'s own hand?"',
      '"Suppose a man told you that Murena\'s vote-brokers were paid out of Varo\'s strongbox at Ostia, with a receipt in Varo\'s own hand. Would you believe him?"',
      // A later "if" that looks back at it still hedges it (held-out corpus 64, bk18's "if you can find any" does not).
      '"Murena\'s vote-brokers were paid out of Varo\'s strongbox at Ostia, with a receipt in Varo\'s own hand. If it is true, Murena is finished."',
      '"Murena\'s vote-brokers were paid out of Varo\'s strongbox at Ostia, with a receipt in Varo\'s own hand. If the story is right, Murena is finished."',
    ]) {
      const f = findings('SC05', `Crassus turns a page. ${said}`);
      expect([codes(f), codes(f, 'soft')], said).toEqual([[], ['AUR5046']]);
    }
  });
  it('is soft when a named group reports it, a story goes round, or the speaker disbelieves it; hard when told plainly', () => {
    // Held-out corpora 30, ac13, 31, ad13, 33, af13, 36, ai13, 39, al13, and 42, ao13. "None of the men on the quay will say it, but…" (set 6, v18) is no report.
    for (const frame of ['The women at the fountain say that', 'There is a story going round the Forum that', 'The porters on the quay are saying that', 'The washerwomen at the Juturna swear that', 'The bakers in this street say that', 'The wine shops say that', 'It is being said in the baths that']) {
      const f = findings('SC12', `Terentia looks at the doors. "${frame} ${fact}."`);
      expect([codes(f), codes(f, 'soft')], frame).toEqual([[], ['AUR5046']]);
    }
    const doubted = findings('SC12', `Terentia looks at the doors. "They tell me ${fact}, and I do not believe a word of it."`);
    expect([codes(doubted), codes(doubted, 'soft')]).toEqual([[], ['AUR5046']]);
    expect(codes(findings('SC12', `Terentia looks at the doors. "None of the men on the quay will say it, but ${fact}."`))).toEqual(['AUR5046']);
  });
  it('is soft when a later sentence of the quotation looks back at it as talk ("Or so they say.", "So the rumour goes."), hard when its talk is of something else', () => {
    const told = '"Fulvia sleeps with Curius and carries everything he says in bed to Terentia, and Terentia takes it to her husband.';
    for (const after of ['Or so they say in the Forum."', 'That is the talk in the Forum, anyway."', 'So the rumour goes."']) {
      const f = findings('SC02', `Cato turns. ${told} ${after}`);
      expect([codes(f), codes(f, 'soft')], after).toEqual([[], ['AUR5046']]);
    }
    expect(codes(findings('SC02', `Cato turns. ${told} He does not need gossip from the baths to tell him what is said in Rome."`))).toEqual(['AUR5046']);
  });
  it('is soft when a sentence opening on "That" goes on with the report of the sentence before', () => {
    const body = "'The women at the ovens are saying the Sardinian ships never sank,' Fulvia says. 'That the grain is sitting in Varo's warehouses at Ostia, bought with Crassus' money.'";
    const f = findings('SC21', body);
    expect([codes(f), codes(f, 'soft')]).toEqual([[], ['AUR5046']]);
    const plain = findings('SC21', "Fulvia leans close. 'The grain is sitting in Varo's warehouses at Ostia, bought with Crassus' money.'");
    expect(codes(plain)).toEqual(['AUR5046']);
  });
});

describe("claims' and events' texts, each read on its own (AUR5046)", () => {
  // Held-out corpus 20, e08: a claim naming Varo at Ostia and an event where Clodius pays and "owns" were
  // read as two adjacent sentences, and together matched the vote-brokers fact.
  const claim = 'A wax tablet from Varo at Ostia to Crassus, which Crassus reads aloud to Clodius.';
  const event = 'Crassus reads Clodius a letter from Varo, names the sum and the day, and Clodius pays 3,000 denarii on account and understands who owns him.';
  const raw = (body: string) => `---SCENE_TEXT---\n## SC05 — INT. SOMEWHERE - NIGHT\n\n${body}\n\n---CLAIMS---\n[]\n---SCENE_EVENTS---\n[]\n`;
  it('do not join into one window', () => {
    const f = proseRules(parseWriterOutput(raw('Crassus reads the tablet aloud.')), contextOf('SC05'), [claim, event]);
    expect(f.map((x) => x.code)).not.toContain('AUR5046');
  });
  it('still tell a fact one of them states', () => {
    const told = "Murena's vote-brokers were paid from Varo's strongbox at Ostia, and Varo wrote the receipt in his own hand.";
    const f = proseRules(parseWriterOutput(raw('Crassus reads the tablet aloud.')), contextOf('SC05'), [told, event]);
    expect(codes(f)).toContain('AUR5046');
  });
});
