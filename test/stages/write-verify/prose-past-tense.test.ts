import { describe, expect, it } from 'vitest';
import { narrativeTense, formTense } from '../../../src/stages/f-verifier/prose/tense.js';
import { daysBack } from '../../../src/stages/f-verifier/prose/days-back.js';
import { describeParaphrases, usePackets } from './prose-scenes.js';

// A scene told in the past tense (held-out corpus 10: nine answers of twenty): its simple past is
// the scene's now, its past perfect and its "years ago" the backstory; and words of habit or manner
// govern only the verb they stand with. Sentences written for these tests, against real packets of
// the starter world with Catiline dead (test/fixtures/writer-corpus).
usePackets();

describe('the narration\'s tense (tense.ts)', () => {
  const sentence = (narr: string) => ({ narr, mentions: [] });
  it('reads the verb after a subject pronoun: irregular pasts, -ed, -s, and the auxiliaries', () => {
    expect(['came', 'stood', 'walked', 'was', 'had', 'carried'].map(formTense)).toEqual(['past', 'past', 'past', 'past', 'past', 'past']);
    expect(['comes', 'stands', 'watches', 'is', 'has', 'goes'].map(formTense)).toEqual(['present', 'present', 'present', 'present', 'present', 'present']);
    expect(['always', 'perhaps', 'put', 'towards'].map(formTense)).toEqual([null, null, null, null]);
  });
  it('a narration mostly in the past is a past narrative; a present one with some backstory is not', () => {
    expect(narrativeTense(['He came in.', 'She looked up.', 'He sat down, and she poured.', 'They waited.'].map(sentence))).toBe('past');
    expect(narrativeTense(['He comes in.', 'She looks up.', 'He sits down.', 'She remembers that he came here once, that he stood there, that he laughed.'].map(sentence))).toBe('present');
    expect(narrativeTense(['He came in.', 'She looked up.'].map(sentence))).toBe('present');
  });
});

describe('the days a time word gives a journey (days-back.ts)', () => {
  it('reads "the day before yesterday" as two days, not as the "yesterday" inside it', () => {
    expect(daysBack('The day before yesterday he was at Faesulae')).toBe(2);
    expect(daysBack('he slept there the night before last')).toBe(2);
    expect(daysBack('Yesterday he was at Faesulae')).toBe(1);
    expect(daysBack('he rode out last night')).toBe(1);
  });
  it('reads a few days ago in words or digits, this very day as none, and no time word as null', () => {
    expect(daysBack('Two nights ago Cato was standing among the tents')).toBe(2);
    expect(daysBack('he left Faesulae 4 days ago')).toBe(4);
    expect(daysBack('At first light Clodius was still in the Subura')).toBe(0);
    expect(daysBack('Clodius was once in the Subura')).toBeNull();
  });
});

describeParaphrases('a scene told in the past tense, and words that govern one verb only', 'prose-past-tense.json');

describeParaphrases('arrivals told in a past narrative, and a bag whose sum the next quotation names', 'prose-past-journeys.json');

describeParaphrases('who a sentence-opening "he" is', 'prose-antecedents.json');
