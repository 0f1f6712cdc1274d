import nlp from 'compromise';
import { describe, expect, it } from 'vitest';
import { corpusLines } from './helpers.js';
import { tokensOf, transforms } from '../../../src/stages/f-verifier/prose/parse.js';
import { toInfinitive, TransformMemo } from '../../../src/stages/f-verifier/prose/word-transforms.js';

// Issue 18: the roots bound and the compliance filter share one memo of compromise's toInfinitive.
// Its answers must be the library's own, on every word form the corpora give, asked first and again,
// and a plugin that changes the library's answers must be seen (this file's compromise is its own:
// vitest runs each test file in a fresh module graph).
const forms = [...new Set(corpusLines().flatMap((l) => [...tokensOf(l).forms]))];
const TENSES = ['Participle', 'PastTense', 'PresentTense', 'Gerund', 'Infinitive', ''];
const plain = (form: string, tense: string): string => {
  const { tr, model } = transforms();
  return tr.verb.toInfinitive(form, model, tense);
};

describe("compromise's toInfinitive, remembered", () => {
  it('answers as the plain call on every corpus word form, in every tense, first and again', () => {
    expect(forms.length).toBeGreaterThan(1500);
    let changed = 0;
    for (const pass of [0, 1]) {
      for (const t of TENSES) {
        for (const f of forms) {
          const want = plain(f, t);
          expect(toInfinitive(f, t), `${pass} ${t} ${f}`).toBe(want);
          if (pass === 0 && want !== f) changed++;
        }
      }
    }
    // The forms are real inflections: most tenses change some of them.
    expect(changed).toBeGreaterThan(1000);
  });

  it("a plugin's conjugation rules change the remembered answers as they change the library's", () => {
    const before = plain('flooded', 'PastTense');
    expect(toInfinitive('flooded', 'PastTense')).toBe(before);
    nlp.plugin({ model: { two: { models: { fromPast: { fwd: { looded: 'oodle' } } } } } } as Parameters<typeof nlp.plugin>[0]);
    expect(plain('flooded', 'PastTense')).not.toBe(before);
    expect(toInfinitive('flooded', 'PastTense')).toBe(plain('flooded', 'PastTense'));
  });

  it("a plugin's irregular forms change the remembered answers as they change the library's", () => {
    expect(toInfinitive('went', 'PastTense')).toBe('go');
    expect(toInfinitive('strode', 'PastTense')).toBe(plain('strode', 'PastTense'));
    // compromise's extend takes `irregulars` (API/extend.js addIrregulars); its Plugin type does not list it.
    nlp.plugin({ irregulars: { wend: { pastTense: 'went' }, glide: { pastTense: 'strode' } } } as Parameters<typeof nlp.plugin>[0]);
    expect(plain('went', 'PastTense')).toBe('wend');
    expect(toInfinitive('went', 'PastTense')).toBe('wend');
    expect(toInfinitive('strode', 'PastTense')).toBe('glide');
    for (const f of forms.slice(0, 300)) expect(toInfinitive(f, 'PastTense'), f).toBe(plain(f, 'PastTense'));
  });

  it('a transform memo forgets its values when a plugin is applied, and only then', () => {
    const memo = new TransformMemo<string, number>(10);
    let calls = 0;
    const count = () => ++calls;
    expect(memo.get('a', count)).toBe(1);
    expect(memo.get('a', count)).toBe(1);
    nlp('Marcus walks to the forum.');
    expect(memo.get('a', count)).toBe(1);
    nlp.plugin({ words: { glorpish: 'Adjective' } });
    expect(memo.get('a', count)).toBe(2);
    expect(memo.get('a', count)).toBe(2);
  });
});
