import { describe, expect, it } from 'vitest';
import { codes, findings, usePackets } from './prose-scenes.js';

// The subject of a clause of time ("when", "as", "while", "before", "after", "until", "once") is on stage as the main
// clause's subject is: the audit found a living person outside the cast read there only when dead (clause-doers.ts
// timedOnly). Sentences written for these tests, against the starter world's packets: SC24 (Caesar, Cato, Servilia;
// Terentia alive and not in it), SC21 (Fulvia, Terentia; Curius alive and not in it).
usePackets();

/** A past narration around one sentence, long enough to be read as told in the past (tense.ts MIN_PAST). */
const pastScene = (s: string) => `Fulvia watched the street. Terentia counted the coins. Fulvia sighed and Terentia laughed. ${s}`;

describe('the subject of a clause of time acts on stage (AUR5016)', () => {
  it('a living person outside the cast acting in a when, as, while, until, before or after clause is on stage', () => {
    for (const [scene, body] of [
      ['SC24', 'Cato watches the door, and when Terentia looks away, Caesar slips the tablet into his sleeve.'],
      ['SC24', 'Cato waits by the brazier while Terentia pours the wine.'],
      ['SC24', 'Caesar laughs as Terentia sets down the lamp between them.'],
      ['SC24', 'Cato says nothing until Terentia leaves the room.'],
      ['SC24', 'After Terentia sets down the cup, Caesar turns to Cato.'],
      ['SC21', 'Fulvia keeps her eyes on the ground while Curius counts out the coins on the step.'],
      ['SC21', 'The street is empty before Curius comes round the corner with two of his dicing friends.'],
      ['SC21', 'Terentia lets the veil fall as Curius pushes through the crowd toward them.'],
      ['SC21', pastScene('When Curius came round the corner, Fulvia stepped back into the doorway.')],
    ] as const) expect(codes(findings(scene, body)), body).toEqual(['AUR5016']);
  });
  it('a future, a supposition, a past perfect, a habit or a place elsewhere in the clause of time is no one on stage', () => {
    for (const [scene, body] of [
      ['SC24', 'When Terentia hears of it, she will not forgive him.'],
      ['SC24', '"When Terentia hears of it, she will never forgive you," Cato says.'],
      ['SC24', 'Cato will not rest until Terentia pays.'],
      ['SC24', 'Caesar waits, as Terentia would have wished.'],
      ['SC24', 'Cato leaves only after Terentia had gone.'],
      ['SC21', pastScene('Fulvia left only after Curius had gone.')],
      ['SC24', 'Cato does not speak once Terentia has gone.'],
      ['SC24', 'Cato reads on while Terentia sleeps across the city.'],
      ['SC24', 'Cato reads on while Terentia waits at home.'],
      ['SC24', 'Whenever Terentia visits, Cato hides the wine.'],
      ['SC24', 'Cato hides the wine whenever Terentia visits.'],
      ['SC24', 'Cato keeps his seat because Terentia wants it so.'],
      // "after" as a relative clause's preposition (held-out corpus 28, aa01): the verb after the name is the antecedent's.
      ['SC24', 'By the door one of the young men who trailed after Terentia stands with his arms folded.'],
      ['SC24', 'Caesar watches a slave who ran after Terentia pour the wine.'],
      ['SC24', 'Cato, such as Terentia knows him, keeps his seat.'],
    ] as const) expect(findings(scene, body), body).toEqual([]);
  });
  it('the dead in a clause of time are read as before', () => {
    expect(codes(findings('SC24', 'Caesar laughs as Catiline sets down the lamp between them.'))).toEqual(['AUR5015']);
    expect(codes(findings('SC24', 'When Catiline looks away, Cato slips in and stands by the door.'))).toEqual(['AUR5015']);
  });
});
