import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { eraHits, findAnachronismsIn, shippedVocabulary } from '../../src/style/anachronisms.js';
import { parseLexicon } from '../../src/style/lexicon.js';
import { packageRoot } from '../../src/paths.js';

// Held-out sentences (not from test/fixtures/prose-corpus): one or more per vocabulary category and
// per allowlisted idiom, so the matcher is judged on text it was not written against.
const lexicon = parseLexicon(readFileSync(path.join(packageRoot(), 'style', 'lexicon.md'), 'utf8')).entries;
const words = (s: string) => findAnachronismsIn(s, lexicon).map((h) => h.word);

describe('anachronism vocabulary (issue 14): caught with inflections and compounds', () => {
  const caught: [string, string, string][] = [
    ['timekeeping', 'She counts the minutes: ten minutes, then twenty.', 'ten minutes'],
    ['timekeeping', 'The steward winds the clocks before the guests arrive.', 'clocks'],
    ['timekeeping', 'A clockmaker from Alexandria, they say.', 'clockmaker'],
    ['timekeeping', 'He glanced at his wristwatch and frowned.', 'wristwatch'],
    ['timekeeping', 'Meet me at six o’clock by the fountain.', 'o’clock'],
    ['timekeeping', 'The messenger ran it in 30 seconds flat.', '30 seconds'],
    ['technology', 'A plastic cup rolls under the couch.', 'plastic'],
    ['technology', 'He signs the papers and the paperwork goes to the quaestor.', 'papers'],
    ['technology', 'She keeps her notes in a fountain pen’s ink.', 'fountain pen’s'],
    ['technology', 'A photograph of the consul hangs on the wall.', 'photograph'],
    ['weapons', 'The gunmen wait at the corner.', 'gunmen'],
    ['weapons', 'Someone has set a bomb under the rostra.', 'bomb'],
    ['weapons', 'He draws a sabre and steps forward.', 'sabre'],
    ['religion', 'Thank God you came, Marcus.', 'Thank God'],
    ['religion', 'For God’s sake, sit down.', 'For God’s sake'],
    ['religion', 'A bishop would have blessed the match.', 'bishop'],
    ['titles', 'The emperor will hear of this.', 'emperor'],
    ['titles', 'Two policemen stand at the door of the Curia.', 'policemen'],
    ['titles', 'The sheriff of the Subura takes his cut.', 'sheriff'],
    ['calendar', 'We sail on the tenth of July.', 'July'],
    ['calendar', 'By early August the grain will be gone.', 'August'],
    ['calendar', 'The Senate meets on Mondays now.', 'Mondays'],
    ['calendar', 'The bread dole is handed out weekly.', 'weekly'],
    ['calendar', 'Two weeks, no more.', 'weeks'],
    ['slang', 'Yeah, I heard you the first time.', 'Yeah'],
    ['slang', 'Okay, then we go tonight.', 'Okay'],
    ['slang', 'I’m gonna find him.', 'gonna'],
    ['units', 'The wagon held three tons of grain.', 'three tons'],
    ['units', 'The horses made twenty miles per hour on the flat.', 'miles per hour'],
    ['units', 'He lifted forty pounds of silver.', 'forty pounds'],
  ];
  for (const [cat, s, w] of caught) it(`${cat}: "${s}" -> ${w}`, () => expect(words(s)).toContain(w));

  it('finds era notation only as dating, not inside words', () => {
    expect(eraHits('In 44 BC the Ides will come.').map((h) => h.word)).toEqual(['44 BC']);
    expect(eraHits('By AD 14 we shall all be dead.').map((h) => h.word)).toEqual(['AD 14']);
    expect(eraHits('ADVENTUS of the legate; 300 BCEFG')).toEqual([]);
  });

  it('reports line, column and the replacement hint', () => {
    const [h] = findAnachronismsIn('Salve.\nThe radio hums.', lexicon);
    expect(h).toMatchObject({ word: 'radio', line: 2, column: 5 });
    expect(h!.replacement).toContain('herald');
  });

  it('the world lexicon wins on a word both name, and a world-only word is caught', () => {
    const own = [{ forbidden: 'radio', replacement: 'the crier' }, { forbidden: 'bathtub', replacement: 'the basin' }];
    const hits = findAnachronismsIn('The radio by the bathtubs.', own);
    expect(hits.map((h) => [h.word, h.replacement])).toEqual([['radio', 'the crier'], ['bathtubs', 'the basin']]);
  });

  it('every shipped entry finds its own term, alone or after a word it must follow (held-out corpus 66, bm20: "electric" was hidden by "electricity", which shares its stem)', () => {
    const v = shippedVocabulary();
    const missed: string[] = [];
    for (const list of Object.values(v.categories)) {
      for (const e of list) {
        const before = e.after ? `${v.sets[e.after]!.find((w) => w !== 'a' && w !== 'an') ?? ''} ` : '';
        const hits = findAnachronismsIn(`They spoke of it: ${before}${e.term} and nothing else.`, []).map((h) => h.word.toLowerCase());
        if (!hits.some((w) => w.endsWith(e.term.toLowerCase()))) missed.push(e.term);
      }
    }
    expect(missed).toEqual([]);
    expect(words('The air in the passage goes electric.')).toEqual(['electric']);
  });

  it('every shipped entry has a hint and every set it names exists', () => {
    const v = shippedVocabulary();
    for (const list of Object.values(v.categories)) {
      for (const e of list) {
        expect(e.hint.length, e.term).toBeGreaterThan(3);
        if (e.after) expect(v.sets[e.after], e.term).toBeDefined();
      }
    }
    expect(Object.keys(v.categories).sort()).toEqual(['calendar_and_era', 'idioms', 'religion', 'slang', 'technology_and_materials', 'timekeeping', 'titles_and_offices', 'units', 'weapons']);
  });
});

describe('idioms born of a later sport or machine, and the Roman boss of a shield (second prose audit, finding 2)', () => {
  // Real-model-style sentences, not the audit's: other people, tenses, word orders, dialogue.
  const caught: [string, string][] = [
    ['Nepos, after a moment, throws in the towel and walks off toward the Basilica.', 'throws in the towel'],
    ['By the third hour Murena had thrown in the towel.', 'thrown in the towel'],
    ['Clodius threw in the towel before the vote was called.', 'threw in the towel'],
    ['"Throw in the towel, Marcus. The Senate is lost."', 'Throw in the towel'],
    ['Nobody is throwing in the towel tonight.', 'throwing in the towel'],
    ['"Let him blow off steam," Murena says of Cato.', 'blow off steam'],
    ['The dockers blew off steam in the tavern until dawn.', 'blew off steam'],
    ['Caesar lets off steam at the baths, shouting at nobody.', 'lets off steam'],
    ['He is only blowing off steam.', 'blowing off steam'],
    ['The boss of the guild wants his cut.', 'boss'],
    ['"Tell your boss the grain is not for sale."', 'boss'],
  ];
  for (const [s, w] of caught) it(`"${s}" -> ${w}`, () => expect(words(s)).toContain(w));
  const clean = [
    'The sun flashes off the boss of a legionary\'s shield by the Rostra.',
    'He strikes with the boss of his shield, then the sword.',
    'The bronze boss of the scutum is dented from Pistoria.',
    'Steam rises from the bath and fogs the mosaic.',
    'A slave hands her a towel and withdraws.',
    'She throws the towel over the bench and sits.',
    'The horses steam in the cold and the grooms blow on their hands.',
    'He lets off the boy with a warning.',
  ];
  for (const s of clean) it(`"${s}" is clean`, () => expect(words(s)).toEqual([]));
});

describe('anachronism allowlist: Roman-correct compounds and idioms are not anachronisms', () => {
  const clean = [
    'The water clock in the atrium drips on.',
    'Water-clocks measured each speech in the courts.',
    'The sundial in the garden throws a long shadow.',
    'The clepsydra runs dry and the praetor calls time.',
    'They reach the place where the road forks toward Tibur.',
    'Where the river forks, the ferryman waits.',
    'He turns the hay with a fork and says nothing.',
    'A black kid is led to the altar.',
    'The shepherd brings a kid and two lambs.',
    'The messenger pants, bent double at the gate.',
    'His horse pants and steams in the cold.',
    'On the Kalends of March the new consuls enter office.',
    'Before the Nones, then. No later than the Ides.',
    'At the second hour of the day the Senate gathers.',
    'In the third watch of the night the guards change.',
    'By Hercules, by Pollux, by all the gods!',
    'He does it a second time, slower.',
    'Every eighth day is market day (nundinae).',
    'An august assembly of grey heads.',
    'The public baths open at the eighth hour.',
    'She teaches the girls their letters.',
    'A minute crack runs through the seal.',
    'The siege engines roll up to the walls.',
    'The presiding magistrate calls the vote.',
    'She is a secondary wife in all but name.',
    // Held-out corpus 41, an16: a derived word that shares a forbidden word's stem and its first letters.
    'He looks at Cicero with something like admiration.',
    'The hospitality of the house is famous.',
    // Held-out corpus 96, cq07: an adjective made from a word that shares its stem and its first letters.
    '"Admirable," Caesar says. "But there are worse things than bought votes."',
    'He did it admirably, and Cato hated him for it.',
  ];
  for (const s of clean) it(`"${s}"`, () => expect(words(s)).toEqual([]));

  it('a term matched by stem inside its own Roman replacement, as written, is that replacement (held-out corpus 8, t17)', () => {
    // "God knows" is caught by its stems in "The gods know"; its hint is "the gods know". Sentences written for this test.
    for (const s of ['CLODIUS: The gods know.', 'The gods know it, and so does the harbour.']) expect(words(s), s).toEqual([]);
    expect(words('God knows what the harbour thinks.')).toEqual(['God knows']);
    expect(words('By the gods, God knows I tried.')).toEqual(['God knows']);
  });

  it('still flags a forbidden word inflected by up to two letters (the stem check keeps the word whole)', () => {
    expect(words('Two admirals and three hospitals.')).toEqual(['admirals', 'hospitals']);
    expect(words('The clocks were pocketed.')).toEqual(['clocks', 'pocketed']);
  });

  it('still flags the modern sense beside the Roman one', () => {
    expect(words('He buys new pants and a fork for the table.')).toEqual(['pants', 'fork']);
    expect(words('Hey kid, come here.')).toContain('kid');
  });
});
