import { describe, expect, it } from 'vitest';
import { codes, findings, usePackets } from './prose-scenes.js';

// How news runs, told as a chain of relays in one sentence, is exposition, not a deed on stage (tense.ts relayChain):
// the audit's SC16 answer 'Curius tells her everything, and she brings it to Terentia, and Terentia brings it to
// Cicero' raised a hard AUR5016 for Curius. Sentences written for these tests, against SC21 (Fulvia, Terentia; Curius
// alive and not in it).
usePackets();

describe('a chain of relays is how news runs, not a deed here (AUR5016)', () => {
  it('the doer who tells what he knows, carried on to someone else, is not put on stage', () => {
    for (const body of [
      "Fulvia is Terentia's eyes in Catiline's house. Curius tells her everything, and she brings it to Terentia, and Terentia brings it to Cicero.",
      'Curius tells Fulvia every name he hears, and she carries them to Terentia.',
      'It is a simple chain. Curius whispers everything to Fulvia; Fulvia carries it to Terentia; Terentia carries it to the consul.',
      'Curius confides all of it to Fulvia, and she passes it on to Terentia before the day is out.',
    ]) expect(findings('SC21', body), body).toEqual([]);
  });
  it('an entrance, a thing handed, a telling pinned here or a telling with no chain still puts him on stage', () => {
    for (const body of [
      'Curius comes in and tells her everything.',
      'Curius comes in and tells her everything, and she carries it to Terentia.',
      'Curius hands Fulvia the tablet, and she passes it to Terentia.',
      'Curius tells her everything here, in the street, and she carries it to Terentia.',
      'Curius tells Fulvia everything.',
      'Curius tells her the names, and she turns pale.',
    ]) expect(codes(findings('SC21', body)), body).toEqual(['AUR5016']);
  });
});
