import { describe, expect, it } from 'vitest';
import { uniqueCues } from '../../src/import/cast.js';
import type { SourcePerson } from '../../src/import/model.js';

/** Only the fields uniqueCues reads matter; the rest is a valid person. */
function person(id: string, cue: string, longCue: string): SourcePerson {
  return {
    id, name: id, cue, longCue, female: false, alive: true, nomen: '', patrician: false, nobilis: false, novus: false, eques: false,
    tier: 'none', highest_office: '', offices: [], consulships: 0, triumphs: 0, priesthoods: 0, military: 0, defeats: 0, source_ref: '', era: [-100, -44], origin: '',
  };
}

describe('uniqueCues: the cognomen, then with the praenomen, then the first free numeral', () => {
  it('gives each person the first free cue in order, a numeral another person already holds skipped', () => {
    const persons = [
      person('a', 'CATO', 'MARCUS CATO'),
      person('b', 'CATO', 'MARCUS CATO'),
      // Holds "MARCUS CATO III" as its own cue: the numbered search must step over it.
      person('c', 'MARCUS CATO III', 'X'),
      person('d', 'CATO', 'MARCUS CATO'),
      person('e', 'CATO', 'MARCUS CATO'),
      person('f', 'CATO', 'MARCUS CATO'),
      person('g', 'CATO', 'GAIUS CATO'),
    ];
    for (let i = 0; i < 10; i++) persons.push(person(`m${i}`, 'CATO', 'MARCUS CATO'));
    const cues = uniqueCues(persons);
    expect([...cues.values()].slice(0, 7)).toEqual(['CATO', 'MARCUS CATO', 'MARCUS CATO III', 'MARCUS CATO II', 'MARCUS CATO IV', 'MARCUS CATO V', 'GAIUS CATO']);
    // Past X the numerals are figures: 11, 12, …
    expect([...cues.values()].slice(-3)).toEqual(['MARCUS CATO 13', 'MARCUS CATO 14', 'MARCUS CATO 15']);
    expect(new Set(cues.values()).size).toBe(persons.length);
  });

  it('is linear in the persons sharing a long cue: 20,000 namesakes in well under a second (the search from II each time: 2e8 probes, tens of seconds)', () => {
    const persons = Array.from({ length: 20_000 }, (_, i) => person(`p${i}`, 'CATO', 'MARCUS CATO'));
    const t0 = performance.now();
    const cues = uniqueCues(persons);
    // A bound ~100 times what it takes (~20 ms), far under the quadratic walk, so load cannot fail it.
    expect(performance.now() - t0).toBeLessThan(3000);
    expect(cues.get('p19999')).toBe('MARCUS CATO 19999');
    expect(new Set(cues.values()).size).toBe(20_000);
  });
});
