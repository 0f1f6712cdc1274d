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
});
