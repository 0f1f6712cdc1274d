import { describe, expect, it } from 'vitest';
import { codes, findings, usePackets } from './prose-scenes.js';

// A dead or uncast person put on stage in four phrasings the plain readers missed (session 43's blind audit: each
// passed with no finding where "Catiline says" or "Terentia is at the door" is AUR5015 / AUR5016). Sentences written
// for these tests, against the starter world's packets with Catiline dead: SC24 (Caesar, Cato, Servilia; Terentia,
// Cicero and Murena alive and not in it), SC05 (Clodius, Crassus), SC15 (Clodius at Ostia), SC21 (Fulvia, Terentia;
// Curius not in it).
usePackets();

/** A past narration around one sentence, long enough to be read as told in the past (tense.ts MIN_PAST). */
const pastScene = (s: string) => `Cato set down his cup. He turned to the window. Caesar poured the wine and laughed. Servilia watched them both. ${s} Cato did not turn.`;
/** The same scene told in the present: a past there is a memory. */
const presentScene = (s: string) => `Cato sets down his cup. He turns to the window. Caesar pours the wine and laughs. Servilia watches them both. ${s} Cato does not turn.`;

type Case = readonly [scene: string, body: string];
const expectCode = (code: string, cases: readonly Case[]) => {
  for (const [scene, body] of cases) expect(codes(findings(scene, body)), body).toEqual([code]);
};
const expectClean = (cases: readonly Case[]) => {
  for (const [scene, body] of cases) expect(findings(scene, body).filter((f) => f.code === 'AUR5015' || f.code === 'AUR5016'), body).toEqual([]);
};

describe('a voice whose owner is told in apposition (body-parts.ts)', () => {
  it('the voice, laugh or steps of a dead or uncast owner named between dashes, commas or brackets is the owner on stage; near misses stay clean', () => {
    expectCode('AUR5015', [
      ['SC24', 'Servilia has her hand on the wine jug when a voice — Catiline\'s — says from the dark of the peristyle, "You poured for everyone but me."'],
      ['SC05', "A laugh — Catiline's, unmistakably — comes from behind the curtain, and Clodius sets his cup down very slowly."],
      ['SC24', pastScene('A voice — Catiline\'s — said, "Leave it."')],
      ['SC24', 'Another laugh breaks out, Catiline\'s.'],
    ]);
    expectCode('AUR5016', [
      ['SC24', 'A voice Caesar knows too well — Cicero\'s — calls from the stair.'],
      ['SC24', 'A voice, Terentia\'s, drifts in from the garden: "Are they still arguing?"'],
      ['SC21', "A voice (Curius') calls up from the street, and Fulvia goes still."],
      ['SC24', 'Then a voice from the stair — Terentia\'s, unmistakably — says, "You started without me."'],
      ['SC24', "Another voice joins in, Terentia's, thin and sharp."],
      ['SC24', pastScene("A voice Caesar knew — Terentia's — called from the stair.")],
    ]);
    // Near misses: a likeness, a denial, a doubt, a memory, a hypothetical, a thing or a voice only heard is no one on stage.
    expectClean([
      ['SC24', 'A voice like Catiline\'s says, "Leave it."'],
      ['SC24', 'A voice — not Catiline\'s — says, "Leave it."'],
      ['SC24', "A voice not unlike Terentia's calls from the stair."],
      ['SC24', 'A voice — Catiline\'s? — says, "Leave it."'],
      ['SC24', 'Caesar remembers a voice — Catiline\'s — saying, "Leave it."'],
      ['SC24', 'In the dream a voice — Catiline\'s — says, "Leave it."'],
      ['SC24', 'If a voice — Catiline\'s — said "Leave it" now, Caesar would obey it.'],
      ['SC24', "A letter — Catiline's — lies on the table."],
      ['SC24', "A bust — Catiline's — watches from the niche."],
      ['SC24', "Catiline's old seat by the door stays empty."],
      ['SC24', "He knows the voice — Catiline's — at once."],
      ['SC24', "A voice calls the name, Catiline's, over and over."],
      ['SC24', pastScene('A voice like Catiline\'s said, "Leave it."')],
    ]);
  });
});

describe('a name with an aside between it and its verb', () => {
  it('an aside that asks or exclaims ("who else?") leaves the name the subject of its verb (aside-questions.ts), as any other aside does; near misses stay clean', () => {
    expectCode('AUR5015', [
      ['SC15', 'Catiline — who else? — is on the quay, his cloak dark with spray.'],
      ['SC15', 'Clodius counts the sacks twice. Catiline (it had to be Catiline) waits by the boats.'],
      ['SC24', pastScene('Catiline — who else? — was on the quay.')],
    ]);
    expectCode('AUR5016', [
      ['SC24', 'Terentia — who else would dare? — sets the lamp down between them.'],
      ['SC24', 'Murena, of all people, stands at the door, dripping from the rain.'],
      ['SC24', 'Cicero — and who could stop him? — is already on the best couch.'],
      ['SC24', 'Terentia (of all the women in Rome!) is waiting at the foot of the stair.'],
    ]);
    // Near misses: an aside of doubt, a modal, a past perfect, a condition or a thing stays no one on stage.
    expectClean([
      ['SC24', 'Catiline — could it be? — stands at the door.'],
      ['SC24', 'Catiline — or was it? — stands at the door.'],
      ['SC24', 'Catiline — who else? — would have known what to do.'],
      ['SC24', 'Catiline, of all people, would have laughed.'],
      ['SC24', pastScene('Catiline — who else? — had sat there once.')],
      ['SC24', 'A letter from Catiline — who else? — lies on the table.'],
      ['SC24', 'If Catiline — who else? — were here, he would laugh.'],
    ]);
  });
});

describe('a short scene told wholly in the past (tense.ts)', () => {
  it('its simple past is the scene\'s now, with no present tense for it to be a memory in; near misses stay clean', () => {
    expectCode('AUR5015', [
      ['SC24', '**The atrium, late.**\n\nRain drummed on the impluvium. Servilia crossed the room without a word and took the couch nearest the brazier.\n\n"You came," Caesar said.\n\n"I said I would."\n\nCatiline was there too, by the door, his cloak still wet from the rain.'],
      ['SC24', 'The lamps had burned low by the time Servilia arrived. She crossed the atrium without a word.\n\nCatiline was already there, leaning on the far column, as if he had never left.\n\n"Sit," said Caesar.'],
    ]);
    expectCode('AUR5016', [
      ['SC24', 'Rain fell on the impluvium. Servilia crossed the room, her sandals loud on the tiles, and stopped before Caesar.\n\n"You have heard," she said.\n\n"Everyone has heard."\n\nTerentia was waiting in the shadow of the columns. Cato set his cup down.'],
      ['SC21', 'Fulvia pulled her shawl tighter. She kept to the wall. Curius stood at the brazier at the corner, warming his hands, and did not look up.'],
    ]);
    // Near misses: a past in a present scene, a past perfect or the long past in a past one stays a memory.
    expectClean([
      ['SC24', presentScene('Catiline was there too, the year the grain failed.')],
      ['SC24', presentScene('Catiline stood at that brazier once.')],
      ['SC24', pastScene('Catiline had stood there once.')],
      ['SC24', pastScene('Catiline had been there too, the year the grain failed.')],
      ['SC24', pastScene('Catiline was there too, the year the grain failed.')],
      ['SC24', pastScene('Caesar remembered that Catiline stood at the brazier.')],
      // Two pasts are too few to tell a scene from a line of backstory.
      ['SC24', 'Catiline stood there once. He laughed at all of them.'],
    ]);
  });
});

describe('a cleft with the person last (plain-order.ts)', () => {
  it('"the voice that answers is his", "the voice was his", "the one who answers is her" put the person on stage; near misses stay clean', () => {
    expectCode('AUR5015', [
      ['SC24', "A voice calls from beyond the curtain. The voice is Catiline's."],
      ['SC24', pastScene("A voice called from the stair. The voice was Catiline's.")],
      ['SC24', pastScene("It was Catiline's voice that answered, from the far end of the room.")],
    ]);
    expectCode('AUR5016', [
      ['SC24', "The voice that answers from the peristyle is Terentia's, low and amused."],
      ['SC24', pastScene("The footsteps on the stair were Terentia's, quick and light.")],
      ['SC24', 'The one who answers is Murena, leaning in the doorway.'],
      ['SC24', pastScene('The one who answered was Terentia.')],
    ]);
    // Near misses: a likeness, a doubt, a voice in the head, a thing owned, no deed of the person's own or a past in a present scene is none.
    expectClean([
      ['SC24', "The voice sounds like Catiline's."],
      ['SC24', "The voice is surely Catiline's."],
      ['SC24', "The voice is Catiline's, or his ghost's."],
      ['SC24', "The voice in his head is Catiline's."],
      ['SC24', "The handwriting is Terentia's."],
      ['SC24', "The seat was Catiline's."],
      ['SC24', 'The man they fear most is Catiline.'],
      ['SC24', 'The man who should be here is Catiline.'],
      ['SC24', presentScene("The voice was Terentia's.")],
      ['SC24', pastScene('The man who built this house was Catiline, years ago.')],
    ]);
  });
});
