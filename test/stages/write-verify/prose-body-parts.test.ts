import { describe, expect, it } from 'vitest';
import { codes, findings, usePackets } from './prose-scenes.js';

// A person's hand, voice or shadow doing a verb on stage is the person there (prose/body-parts.ts): the audit's case 70
// ("Catiline's hand falls on his shoulder from behind…", Catiline dead) passed. Sentences written for these tests,
// against the starter world's packets with Catiline dead: SC05 (Clodius, Crassus), SC24 (Caesar, Cato, Servilia;
// Terentia alive and not in it), SC21 (Fulvia, Terentia; Curius alive and not in it).
usePackets();

/** A past narration around one sentence, long enough to be read as told in the past (tense.ts MIN_PAST). */
const pastScene = (s: string) => `Cato set down his cup. He turned to the window. Caesar poured the wine and laughed. Servilia watched them both. ${s} Cato did not turn.`;

describe("an owner's body part acting on stage (AUR5015, AUR5016)", () => {
  it("a dead man's hand, voice, fingers or shadow doing the verb is the dead man acting", () => {
    for (const [scene, body] of [
      ['SC05', "Catiline's hand falls on his shoulder from behind, cold as a river stone, and Crassus does not turn round."],
      ['SC05', 'Crassus does not turn round when Catiline\'s hand falls on his shoulder.'],
      ['SC24', "The hand of Catiline closes on Caesar's wrist."],
      ['SC24', 'Servilia freezes. Catiline\'s voice comes out of the dark behind the couch: "You kept my seat warm."'],
      ['SC24', "Cato sets down the cup, and Catiline's cold fingers brush the back of his neck."],
      ['SC05', "Catiline's shadow falls across the table, and Clodius looks up."],
      ['SC05', "Catiline's laugh goes through the room like a draught, and Clodius drops his cup."],
      ['SC24', pastScene("Catiline's hand fell on Cato's shoulder, cold as stone.")],
    ] as const) expect(codes(findings(scene, body)), body).toEqual(['AUR5015']);
  });
  it('a living owner outside the cast whose hand or voice acts here is on stage', () => {
    for (const [scene, body] of [
      ['SC24', "Terentia's hand rests on Servilia's arm for a moment."],
      ['SC24', "Terentia's voice carries in from the garden, and Caesar stops talking."],
      ['SC24', "Caesar lifts the cup, and Terentia's fingers close over his."],
      ['SC21', "Fulvia starts: Curius' hand is on her wrist."],
    ] as const) expect(codes(findings(scene, body)), body).toEqual(['AUR5016']);
  });
  it('a memory, a past perfect, a thing not of the body, a cast member\'s own hand or a figure of influence is no one on stage', () => {
    for (const [scene, body] of [
      ['SC05', "Crassus remembers Catiline's hand on his shoulder."],
      ['SC05', "Catiline's hand had once rested on this very table."],
      ['SC24', pastScene("He remembered how Catiline's hand had fallen on his shoulder.")],
      ['SC05', 'In his dreams Catiline\'s hand falls on his shoulder.'],
      ['SC05', "Catiline's letter lies on the table."],
      ['SC05', "Catiline's seal is on it, and Crassus breaks it."],
      ['SC05', "Catiline's hand lies on the table, cold."],
      ['SC24', "Cato's hand falls on Caesar's shoulder."],
      ['SC12', "Terentia's hand rests on Crassus' arm."],
      ['SC05', "Catiline's hand is in all of this."],
      ['SC05', "Crassus sees Catiline's hand behind the riots."],
      ['SC24', "Terentia's hand is behind every letter Cicero signs."],
      ['SC05', "Catiline's shadow hangs over the whole city."],
      ['SC05', "Catiline's voice still rings in Crassus' ears."],
      ['SC05', "Clodius studies Catiline's hand on the old contract, the letters cramped and hurried."],
    ] as const) expect(findings(scene, body), body).toEqual([]);
  });
});
