import { describe, expect, it } from 'vitest';
import { complianceIn } from '../../../src/stages/f-verifier/prose/compliance.js';

// Issue 14: success and failure of a planned beat read verb by verb (compromise), with negation,
// modality, imperatives and refusals; sentences written for this test.
describe('compliance: an attempt shown coming off', () => {
  it('yielding, handing over, taking what is handed and a crowd following are successes', () => {
    for (const s of [
      'Terentia takes it, reads the name, and nods.',
      'She agreed at last.',
      'The crowd follows him down the hill.',
      'In the end he gave in.',
      'Crassus hands Terentia the tablet.',
      'He lets go of the tablet.',
      'The men pour into the lane after him.',
      'Caesar slides the letters across the table to Cato.',
      'In the end, Crassus caves.',
      'The porters of the quay surge after him toward the sheds.',
      'Cato gathers up the letters one by one.',
    ]) expect(complianceIn(s), s).not.toBeNull();
  });
  it('negation, modality, imperatives, near misses, refusals and gestures are not', () => {
    for (const s of [
      'Crassus does not hand over the tablet.',
      'Give it to your husband.',
      'He would have given it to her.',
      'Nobody follows him.',
      'He refuses to give it up.',
      'He will not yield.',
      'They have agreed to nothing.',
      'Crassus gives the signal and nobody answers.',
      'She takes a breath.',
      'He almost hands it over.',
      'Then he draws it back and tucks it under his arm again.',
      'Nobody takes it up.',
      'He hands it back to her.',
      'Cato takes her hand.',
      'Cato agrees with Cicero that the hour is late.',
      'Crassus gives a short, dry laugh.',
      'No men of the quay follow him.',
      'Terentia gathers her palla and goes.',
      'A woman gathers her washing off a line.',
      'Will you give it to me?',
      'If he hands it over, we are both dead.',
      'Last year he gave in to Pompey.',
      'Cato sees the birds wheel left and takes it as an omen.',
      'She takes the news badly and leaves the room.',
      'Below the Capitol, where the Senate meets when it wants the gods to watch it agree.',
      'He lets Cato take the purse and says nothing.',
      'Something in Fulvia gives way.',
      'His nerve gives way at the last step.',
    ]) expect(complianceIn(s), s).toBeNull();
    // Taken "for" someone is still a receipt: only a reading "as" something is excluded.
    expect(complianceIn('Philo takes the purse for his master and bows.')).not.toBeNull();
  });
  it('in speech a said agreement is not a depiction; a thing handed over is', () => {
    expect(complianceIn('I agree, and I will remember it.', 'speech')).toBeNull();
    expect(complianceIn('She agrees, and she will remember it.', 'narration')).not.toBeNull();
    expect(complianceIn('I hand you the seal of my house.', 'speech')).not.toBeNull();
    expect(complianceIn('The price is an insult, and I accept it.', 'speech')).toBeNull();
    expect(complianceIn('The magistrates take a share, like everybody else.', 'speech')).toBeNull();
    expect(complianceIn('The magistrate takes the purse without a word.', 'narration')).not.toBeNull();
    expect(complianceIn('In the end Fulvia gives way.', 'narration')).not.toBeNull();
  });
  // Held-out corpus 2 (x07, x11): the object's head is the last word of the verb's first noun phrase, which a
  // relative pronoun or an apposition after a comma ends. x16: a spoken line that opens on a bare verb after its
  // cue and some adverbs asks; the way things go, as someone knows it, is a habit. Paraphrases, not the corpus's.
  it('a gesture before a relative clause or an apposition, a spoken request and a known habit are not; a thing handed over is', () => {
    // [the verb found or null, how the sentence is read, the sentences]
    const table: Array<[string | null, 'narration' | 'speech', string[]]> = [
      [null, 'narration', ['Servilia gives Cato a glance that could freeze the Tiber in August.', 'Caesar gives her a long look which says more than the letters do.', 'Clodius gives the order, a single word bellowed down the steps.', 'Cato gives a nod, the smallest movement of his chin.']],
      ['hand', 'narration', ['Caesar hands Cato the letters that Servilia wrote to him.', 'Crassus gives a short, dry laugh and hands her the tablet.']],
      ['give', 'narration', ["Crassus gives Terentia the tablet, the one with Clodius' seal on it.", 'Terentia gives her the purse, which is heavier than it looks.']],
      [null, 'speech', ['CATO: Now hand them over.', '> **SERVILIA** (low): Quickly, give it to me.', 'So give the purse to me, and go.']],
      ['give', 'speech', ['CAESAR: I give you the letters, Cato.']],
      ['give', 'narration', ['Then she gives them to Cato.', 'They read it, then give it to Cato.']],
      [null, 'narration', ['Cato knows how the money moves: the freedman takes the purse and passes it on to Caesar.', 'Everyone in the house knew how it went: the steward hands the letters to her every night.']],
      ['hand', 'narration', ['Cato knows the steward, and hands him the letters.']],
    ];
    for (const [verb, kind, sentences] of table) for (const s of sentences) expect(complianceIn(s, kind), s).toBe(verb);
  });
});
