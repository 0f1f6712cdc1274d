import { describe, expect, it } from 'vitest';
import { narrativeTense, formTense } from '../../../src/stages/f-verifier/prose/tense.js';
import { daysBack } from '../../../src/stages/f-verifier/prose/days-back.js';
import { codes, describeParaphrases, findings, usePackets } from './prose-scenes.js';

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
  // "the day before yesterday" is two days, not the "yesterday" inside it; a few days ago in words or
  // digits; this very day is none; no time word is null.
  const cases: [string, number | null][] = [
    ['The day before yesterday he was at Faesulae', 2],
    ['he slept there the night before last', 2],
    ['Yesterday he was at Faesulae', 1],
    ['he rode out last night', 1],
    ['Two nights ago Cato was standing among the tents', 2],
    ['he left Faesulae 4 days ago', 4],
    ['At first light Clodius was still in the Subura', 0],
    ['Clodius was once in the Subura', null],
  ];
  for (const [text, days] of cases) it(`"${text}" -> ${days}`, () => expect(daysBack(text)).toBe(days));
});

describeParaphrases('a scene told in the past tense, and words that govern one verb only', 'prose-past-tense.json');

describe('what would be said later (held-out corpus 118)', () => {
  it('a forbidden fact people "would swear" to long afterwards is hedged, as a rumour: soft at most', () => {
    const body = "Fulvia came down the lane with her shawl over her head. Terentia walked beside her and said nothing. The shops were shut. A dog barked somewhere behind them.\n\nLong afterwards the fishwives would swear at every well that no grain was ever lost off Sardinia, that it lay the whole summer in Varo's warehouses at Ostia; on this evening not a soul in the lane had heard a word of it. Fulvia walked on with Terentia.";
    const f = findings('SC21', body);
    expect(codes(f)).toEqual([]);
    expect(codes(f, 'soft')).toEqual(['AUR5046']);
    // Stated by the narration as this evening's fact, the same words are hard.
    expect(codes(findings('SC21', body.replace('Long afterwards the fishwives would swear at every well that', 'Everyone in the lane knew that')))).toEqual(['AUR5046']);
  });
});

describe('a story had or heard (held-out corpus 123)', () => {
  it('a forbidden fact that is the story someone had, heard or brought is hedged: soft at most; the same words as the narration\'s own are hard', () => {
    const lead = 'Fulvia came down the lane with her shawl over her head. Terentia walked beside her and said nothing. The shops were shut. A dog barked somewhere behind them.\n\n';
    const fact = "the grain lost off Sardinia had never been lost at all; it was sitting in Varo's warehouses at Ostia, bought with Crassus' money.";
    for (const frame of [
      'The fishwives at the well had a story this morning, and Fulvia passed it on as they walked:',
      'Terentia had heard the same tale from her steward at breakfast:',
      'The water-carrier brought a fresh story up from the river:',
      // Talk going on for a while (held-out corpus 122, dq13).
      'As the fishwives at the well have been whispering all week,',
    ]) {
      const f = findings('SC21', `${lead}${frame} ${fact} Fulvia walked on with Terentia.`);
      expect(codes(f), frame).toEqual([]);
      expect(codes(f, 'soft'), frame).toEqual(['AUR5046']);
    }
    expect(codes(findings('SC21', `${lead}Fulvia knew it for certain now: ${fact} Fulvia walked on with Terentia.`))).toEqual(['AUR5046']);
  });
});

describeParaphrases('arrivals told in a past narrative, and a bag whose sum the next quotation names', 'prose-past-journeys.json');

describeParaphrases('who a sentence-opening "he" is', 'prose-antecedents.json');
