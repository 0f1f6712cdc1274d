import { describe, expect, it } from 'vitest';
import { formOfAddress, genderOf, kinWordsFor, vocatives, vocativesFit } from '../../src/core/forms-of-address.js';
import { parseScriptMarkdown } from '../../src/season/script-model.js';
import { checkPeople } from '../../src/season/script-people.js';
import { bindPronouns } from '../../src/stages/d-packets/index.js';
import { peopleWorld } from '../support/people-world.js';
import { readStarterWorld } from '../support/starter-world.js';

// The starter world the script is written against, read from the kit's files (no hand-built copy to drift from it).
const WORLD = peopleWorld(readStarterWorld());

/**
 * Written the way a model writes a script: markdown, stage
 * business, a parenthetical, speech quoted inside narration, idioms, a vocative mid-sentence.
 */
const SCRIPT = `# S01E02: The Dowry

## SC01 — INT. HOUSE OF SERVILIA - NIGHT

**Cast:** Servilia, Marcus Licinius Crassus

The lamps gutter. Servilia does not rise; he pours the wine himself and waits for Crassus to speak.

> SERVILIA: You may love me, Gaius, or you may manage me. Not both on the same day.
> CRASSUS: Everything in this city has a price, and I know most of them.

## SC02 — INT. HOUSE OF CICERO - DAY

**Cast:** Marcus Tullius Cicero, Terentia, Marcus Licinius Crassus

Terentia sets down her cup. "You may speak to the Senate all day, Marcus," she says.

> CICERO: (wearily) Everything in this city has a price, and I know most of them!

> CICERO: Yes, Mother. Yes, my wife.
> CRASSUS: Sit down, Marcus.

Cicero reads the tablet twice: the vote-brokers who worked for Murena were paid from Varo's strongbox at Ostia. He does not look up.

## SC03 — EXT. CAMPUS MARTIUS - DAY

**Cast:** Gaius Julius Caesar, Servilia, Marcus Porcius Cato

Mud. Shouting. A cart stuck in the Subura. Caesar pushes through the crowd to her side.

> SERVILIA: Gaius, not here.
> CATO: Come away, sister. A man who buys the consulship will sell the Republic.
> CAESAR: Then where? It is out: the vote-brokers who worked for Murena were paid from Varo's strongbox at Ostia.

## SC04 — INT. CURIA HOSTILIA - MORNING

**Cast:** Marcus Tullius Cicero, Marcus Porcius Cato

The old Senate house on the edge of the Forum: benches, bronze doors. Cicero rises; the consul taps his rod and Cato glares at the wife of some senator, who lowers her eyes.

## SC05 — INT. HOUSE OF CICERO - NIGHT

**Cast:** Terentia

Terentia trims the lamp and smooths his stola.
`;

describe('forms of address come from the world', () => {
  it('finds vocatives set off by commas or ending a sentence, not a name in passing', () => {
    expect(vocatives('You may love me, Gaius, or you may manage me.', ['Gaius'])).toEqual(['Gaius']);
    expect(vocatives('Mother, today you will see your son pontifex.', ['Mother'])).toEqual(['Mother']);
    expect(vocatives('Ask Gaius Antonius what he owes.', ['Gaius'])).toEqual([]);
  });

  it('allows a praenomen only between intimates and a kin word only for the declared tie', () => {
    const caesar = { name: 'Gaius Julius Caesar', gender: 'male' as const };
    const crassus = { name: 'Marcus Licinius Crassus', gender: 'male' as const };
    expect(vocativesFit('You may love me, Gaius, or you may manage me.', caesar, ['lovers'])).toBe(true);
    expect(vocativesFit('You may love me, Gaius, or you may manage me.', crassus, ['negotiating'])).toBe(false);
    // Terentia's "Marcus" is for her husband, not for Crassus, who is also a Marcus.
    expect(vocativesFit('At night you will answer to me, Marcus.', crassus, [])).toBe(false);
    expect(vocativesFit('At night you will answer to me, Marcus.', { name: 'Marcus Tullius Cicero' }, ['married'])).toBe(true);
    expect(vocativesFit('Mother, today you will see your son pontifex.', { name: 'Servilia', gender: 'female' }, ['lovers'])).toBe(false);
    expect(vocativesFit('Come away, sister.', { name: 'Servilia', gender: 'female' }, ['kin', 'sibling'])).toBe(true);
    expect(vocativesFit('The Senate will wait.', undefined)).toBe(true);
    expect(kinWordsFor(['married'], 'female')).toEqual(['Wife']);
    expect(kinWordsFor(['kin'], 'female')).toEqual([]);
    expect(formOfAddress(caesar, 'Caesar', ['lovers'])).toBe('Gaius');
    expect(formOfAddress(caesar, 'Caesar', ['creditor'])).toBe('Caesar');
    // DPRR abbreviates: "M. Tullius Cicero" is a Marcus to his wife.
    expect(formOfAddress({ name: 'M. Tullius Cicero' }, 'Cicero', ['married'])).toBe('Marcus');
  });

  it('reads gender as declared, a praenomen as male, and otherwise does not guess', () => {
    expect(genderOf({ name: 'Servilia', gender: 'female' })).toBe('female');
    expect(genderOf({ name: 'Quintus Curius' })).toBe('male');
    expect(genderOf({ name: 'Fulvia' })).toBeUndefined();
    const people = new Map([['target', { name: 'Servilia', gender: 'female' as const }], ['actor', { name: 'Fulvia' }]]);
    expect(bindPronouns('target understands who owns {target:him}; Rome wakes to find {actor:him} gone, {actor:his} door open.', people))
      .toBe("target understands who owns her; Rome wakes to find Fulvia gone, Fulvia's door open.");
  });
});

describe('the people check reads a script against the world', () => {
  const found = checkPeople([{ episode: 's01e02', doc: parseScriptMarkdown(SCRIPT) }], WORLD);
  const kinds = (k: string) => found.filter((f) => f.kind === k).map((f) => [f.scene, f.cue, f.detail]);

  it('finds a praenomen for the wrong man and a praenomen between strangers', () => {
    expect(kinds('wrong_praenomen').map((f) => f.slice(0, 2))).toEqual([['SC01', 'SERVILIA'], ['SC02', 'CRASSUS']]);
    // Terentia's quoted "Marcus" is her husband's; Servilia's "Gaius" in SC03 is her lover's.
  });

  it('finds a kin word without the tie and accepts the declared one', () => {
    expect(kinds('kin_address').map((f) => f.slice(0, 2))).toEqual([['SC02', 'CICERO']]);
    expect(kinds('kin_address')[0]![2]).toContain('Mother');
  });

  it('finds a line said by two people, with a parenthetical or a different ending', () => {
    expect(kinds('recycled_line').map((f) => f.slice(0, 2))).toEqual([['SC02', 'CICERO']]);
  });

  it('finds "he" for a woman in narration, not a pronoun with another candidate in sight', () => {
    expect(kinds('pronoun').map((f) => f.slice(0, 1))).toEqual([['SC05']]);
    // SC01's "he" is Crassus's clause; SC03's "her" may be Servilia, who is in the scene.
  });

  it('finds a secret quoted twice in an episode', () => {
    expect(kinds('secret_quoted_twice')).toEqual([['SC03', '', expect.stringContaining('sec_murena_bribes quoted 2 times (SC02, SC03)')]]);
  });

  it('finds a scene that opens in another place, not the Curia\'s own description naming the Forum', () => {
    expect(kinds('misplaced_place')).toEqual([['SC03', '', 'a scene at Campus Martius opens in The Subura']]);
  });
});
