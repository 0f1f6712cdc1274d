import { describe, expect, it } from 'vitest';
import { codes, contextOf, findings, packets, usePackets } from './prose-scenes.js';
import { formsOf } from '../../../src/stages/f-verifier/prose/name-forms.js';
import { readProse } from '../../../src/stages/f-verifier/prose/reader.js';
import { pronounDoer } from '../../../src/stages/f-verifier/prose/pronoun-doer.js';
import { parseWriterOutput } from '../../../src/stages/e-writer/parse.js';

// Who acts on stage (AUR5015 the dead, AUR5016 not in the cast), session 41's audit of stage F against real-model-style
// prose: findings 1 (a name after a title), 2 (a name given at an entrance, then "he"), 9 (a habit told in bed) and 10
// ("Tully"). Sentences written for these tests against the starter packets with Catiline dead (prose-scenes.ts): SC01
// Cicero and Crassus at the Curia; SC05 Clodius and Crassus at Servilia's house; SC12 Clodius, Crassus and Terentia at
// the Temple of Concord; SC21 Fulvia and Terentia in the Subura; SC24 Caesar, Cato and Servilia at Crassus' house.
usePackets();

const expectEach = (scene: string, bodies: string[], hard: string[]) => {
  for (const body of bodies) expect(codes(findings(scene, body)), body).toEqual(hard);
};
const expectClean = (scene: string, bodies: string[]) => {
  for (const body of bodies) expect(findings(scene, body), body).toEqual([]);
};

describe('a name after a title, a kin word, an adjective or a determiner and a role noun is its clause\'s subject (audit finding 1)', () => {
  it('the dead acting under a title are caught (AUR5015)', () => {
    expectEach('SC01', [
      'The conspirator Catiline comes in from the rain and sits down across from Crassus, pouring himself wine.',
      'His old debtor Lucius Sergius Catilina pushes through the benches and sits down beside Crassus.',
      // Inverted after a verb of coming, and a title in capitals.
      'In comes the conspirator Catiline, dripping from the rain.',
      '"Gentlemen," Cicero says. The disgraced senator Catiline rises from the back bench and laughs.',
    ], ['AUR5015']);
  });
  it('someone outside the cast acting under a title, a kin word or an adjective is caught (AUR5016)', () => {
    expectEach('SC24', [
      'The consul Cicero walks in unannounced and takes a chair by the brazier.',
      "Crassus' wife Tertulla brings in the wine herself and pours it, watching Caesar over the rim of the jug.",
      'Young Curius slips in behind the clerk and stands by the door, listening.',
      'The lady Terentia lifts her veil and sits down beside Servilia.',
      // After a fronted place phrase, with dialogue around it, and an old man's adjectives.
      'Behind them the freedman Varo slips in with a lamp.',
      '"You are late," Caesar says. Poor old Crassus shuffles in from the atrium and lowers himself onto a couch. "I am always late," he says.',
    ], ['AUR5016']);
    expectEach('SC12', ['The lamps are lit, then the pontifex Caesar himself comes in and sits down.'], ['AUR5016']);
  });
  it('in a scene told in the past, a titled name\'s simple past is a deed too', () => {
    expectEach('SC24', ['Caesar waited. Cato stood by the door. Servilia poured the wine. The tribune Clodius came in from the street and sat down by the brazier.'], ['AUR5016']);
  });
  it('a title before a cast member, a titled name as an object or a likeness, a relative clause on the title, or "the consul\'s wife" spoken of: as before', () => {
    expectClean('SC24', [
      'The pontifex Caesar rises and pours the wine.',
      "Servilia's half-brother Cato stands by the door with his arms folded.",
      'Caesar bows to the consul Cicero across the room, though the consul is not there to see it.',
      'A marble statue of the consul Cicero stands in the niche, garlanded.',
      // "The slave Crassus sends" is a relative clause: the slave comes in, not Crassus.
      'The slave Crassus sends comes in with a tray of figs.',
      "Servilia mentions the consul's wife, and Cato frowns.",
    ]);
    expectClean('SC01', [
      'Seeing Crassus laugh, Cicero pours the wine.',
      'Poor Catiline, they say, still walks the Subura at night.',
      'Cicero has not forgotten the conspirator Catiline, whose debts Crassus bought.',
    ]);
  });
});

describe('a name given as who has come in, and a "he" right after it (audit finding 2)', () => {
  it('"it is Catiline", "the figure in the doorway is Catiline", a bare name after an entrance: on stage', () => {
    expectEach('SC01', [
      'The door to the atrium opens, and it is Catiline. He crosses to the brazier without a word.',
      'The figure in the doorway is Catiline. He crosses to the brazier without a word and warms his hands.',
      'The door opens. Catiline. He crosses to the brazier without a word and warms his hands.',
      '"Who is there?" Cicero calls. The curtain is drawn back, and it is Catiline, soaked to the skin.',
    ], ['AUR5015']);
    expectEach('SC05', ['Footsteps in the corridor. Then: Curius, wet to the skin. He sits down without asking.'], ['AUR5016']);
    expectEach('SC21', ["The shutters of the wine shop bang open, and it is Curius. He orders wine for the whole room."], ['AUR5016']);
  });
  it('the "he" after an entrance is the one just named, though a man of the cast is on stage and not named in the paragraph', () => {
    const raw = (body: string) => `---SCENE_TEXT---\n## SC01 — INT. CURIA - NIGHT\n\n**Cast:** Marcus Tullius Cicero, Marcus Licinius Crassus\n\n${body}\n\n---CLAIMS---\n[]\n---SCENE_EVENTS---\n[]\n`;
    const doerOfLast = (body: string) => {
      const ctx = contextOf('SC01');
      const r = readProse(parseWriterOutput(raw(body)), ctx);
      return pronounDoer(r.narration.at(-1)!, r.index, ctx, () => true)?.id ?? null;
    };
    expect(doerOfLast('The door to the atrium opens, and it is Catiline. He crosses to the brazier.')).toBe('catiline');
    expect(doerOfLast('The door opens. Catiline. He crosses to the brazier.')).toBe('catiline');
    // Two men named in the paragraph, or no entrance: the cast's men leave the "he" in doubt, as before.
    expect(doerOfLast('The door opens, and it is Catiline; Crassus stands. He crosses to the brazier.')).toBeNull();
    expect(doerOfLast('Catiline is dead. The door opens. He crosses to the brazier.')).toBeNull();
  });
  it('a likeness, a possessive, a memory, a question, a cast member at the door: no finding', () => {
    expectClean('SC01', [
      'The man in the portrait is Catiline. Cicero turns it to the wall.',
      'The door opens, and it is Crassus. He crosses to the brazier.',
      'The debt on the table is Catiline\'s. Crassus never forgets it.',
      'Cicero remembers the night the door opened and it was Catiline. He shakes the thought away.',
      'The door opens. Catiline? No: only a slave with a lamp.',
      'Catiline is dead. The door opens. He crosses to the brazier.',
    ]);
  });
});

describe('a habit told in bed is not a deed on this stage (audit finding 9)', () => {
  it('"in bed", "in his sleep", "abed": off this stage when the scene is not a bedroom', () => {
    expectClean('SC21', [
      "Fulvia is Terentia's eyes in Catiline's house. Curius tells her everything in bed, and she brings it to Terentia.",
      'In bed Curius boasts of the names on the list, and Fulvia remembers every one.',
      'Curius talks in his sleep, and Fulvia writes down every name he says.',
      "Fulvia was Terentia's eyes in Catiline's house. Curius told her everything in bed, and she carried it to Terentia. Terentia carried it to the consul. Nobody else knew.",
    ]);
  });
  it('a present told of whenever something happens, or of everything someone hears, is a habit, not a deed here', () => {
    expectClean('SC21', [
      'Curius tells her everything whenever he visits her house.',
      'Curius tells her everything he hears, and she brings it to Terentia.',
      "Curius passes on whatever he overhears at Catiline's table, and she carries it to Terentia.",
    ]);
    // The deed itself, or a "whenever" before the name that times the scene's own moment: on stage.
    expectEach('SC21', [
      'Curius tells her everything: the names, the dates, the house where they meet.',
      'Whenever she looks away, Curius edges closer to the door.',
    ], ['AUR5016']);
  });
  it('the same deed here, or in a scene set in a bedroom, is on stage', () => {
    expectEach('SC21', [
      'Curius comes in from the street and tells her everything.',
      'Curius climbs out of bed, follows her into the street and tells her everything.',
    ], ['AUR5016']);
    packets.SC21_bed = { ...packets.SC21!, setting: { ...packets.SC21!.setting, location_name: "Fulvia's bedchamber" } };
    expectEach('SC21_bed', ['Curius tells her everything in bed, and she listens.'], ['AUR5016']);
  });
});

describe('English name forms (audit finding 10)', () => {
  it('"Tully" is Cicero, and DPRR\'s consonantal I is written J', () => {
    expect(formsOf('Marcus Tullius Cicero')).toContain('tully');
    expect(formsOf('C. Iulius Caesar')).toContain('julius');
    expect(formsOf('D. Iunius Silanus')).toContain('junius');
    expect(formsOf('C. Sallustius Crispus')).toContain('sallust');
    // A vowel I stays as it is: no "jccius".
    expect(formsOf('Q. Iccius')).not.toContain('jccius');
  });
  it('"Tully" acting outside the cast is caught; in the cast, or as a possessive, nothing', () => {
    expectEach('SC24', ['Tully walks in unannounced and takes a chair by the brazier.'], ['AUR5016']);
    expectClean('SC01', ['Tully rises and faces the benches.']);
    expectClean('SC24', ["Tully's letter lies unopened on the table."]);
  });
});
