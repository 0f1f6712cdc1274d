import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { KnownCharacter } from '../../../src/stages/f-verifier/context.js';
import { readPacket } from '../../../src/stages/f-verifier/load.js';
import { findMentions, findSharedNames, personIndex } from '../../../src/stages/f-verifier/prose/names.js';

// Names several people bear (names.ts PersonIndex.shared), on a packet of the synthetic world syn1k
// (test/fixtures/prose-corpus-gentes): its cast's Cn. Sergius Murena shares "Sergius" with the two
// Ser. Sergius Scauri of a forbidden fact.
const G = path.resolve(__dirname, '..', '..', 'fixtures', 'prose-corpus-gentes');
const characters = JSON.parse(readFileSync(path.join(G, 'world-characters.json'), 'utf8')) as KnownCharacter[];
const packet = readPacket(path.join(G, 'packets', 'SC12.json'));
const idx = personIndex({ packet, lexicon: [], characters });

describe('a name several people bear', () => {
  it('is none of them, and not the cast member whose name shares a part with it', () => {
    const fact = "Ser. Sergius Scaurus forged a codicil to a kinsman's will.";
    expect(findMentions(fact, idx)).toEqual([]);
    expect(findSharedNames(fact, idx).map((n) => n.ids)).toEqual([['ser_sergius_scaurus_164', 'ser_sergius_scaurus_546']]);
  });
  it('leaves the cast member his own name, and the part only the cast decides', () => {
    expect(findMentions('Sergius Murena nods; Sergius smiles.', idx).map((m) => m.id)).toEqual(['cn_sergius_murena_124', 'cn_sergius_murena_124']);
    expect(findSharedNames('Sergius Murena nods; Sergius smiles.', idx)).toEqual([]);
  });
  it('an abbreviated praenomen names no one: "Ser." of Ser. Vibius Macer is not the one Servius of the cast', () => {
    const scaurus = { ...packet.cast[0], id: 'ser_sergius_scaurus_164', name: 'Ser. Sergius Scaurus', cue: 'SERVIUS SCAURUS' };
    const withServius = personIndex({ packet: { ...packet, cast: [scaurus, packet.cast[1]] }, lexicon: [], characters });
    expect(withServius.forms.has('ser')).toBe(false);
    expect(findMentions("Ser. Vibius Macer forged a codicil to a kinsman's will.", withServius).map((m) => m.id)).toEqual(['ser_vibius_macer_119']);
    // His own names still name him.
    expect(findMentions('Sergius Scaurus waits; Sergius smiles.', withServius).map((m) => m.id)).toEqual(['ser_sergius_scaurus_164', 'ser_sergius_scaurus_164']);
  });
});
