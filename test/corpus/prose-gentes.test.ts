import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ScenePacket } from '../../src/domain/packet.js';
import type { Finding } from '../../src/domain/scene.js';
import type { KnownCharacter, VerifyContext } from '../../src/stages/f-verifier/context.js';
import { readPacket } from '../../src/stages/f-verifier/load.js';
import { verifySceneOutput } from '../../src/stages/f-verifier/verify.js';

// Forbidden facts (AUR5046) in a world whose Romans share nomina and cognomina and whose secrets are
// templated: test/fixtures/prose-corpus-gentes, two packets of the synthetic world syn1k (`aureus
// import synthetic syn1k --principals 667 --seed bench`), where the offline episode failed on SC12:
// "Sergius" of the cast's Cn. Sergius Murena was read inside the forbidden fact's "Ser. Sergius
// Scaurus" (two men bear that name), so the allowed secret's telling was the forbidden fact's.

const G = path.resolve(__dirname, '..', 'fixtures', 'prose-corpus-gentes');

interface Entry {
  file: string;
  packet: string;
  expect: 'hard' | 'flag' | 'none';
  fact: string | null;
  span: string;
  note: string;
}

const manifest = JSON.parse(readFileSync(path.join(G, 'manifest.json'), 'utf8')) as Entry[];
const characters = JSON.parse(readFileSync(path.join(G, 'world-characters.json'), 'utf8')) as KnownCharacter[];
const packets: Record<string, ScenePacket> = {};
const results = new Map<string, Finding[]>();

const ctxOf = (packet: ScenePacket): VerifyContext => ({ packet, lexicon: [], characters });
const told = (fs: Finding[]) => fs.filter((f) => f.code === 'AUR5046');
const factOf = (f: Finding) => f.message.replace(/^the prose states a forbidden fact: /, '');

beforeAll(() => {
  for (const s of ['SC07', 'SC12']) packets[s] = readPacket(path.join(G, 'packets', `${s}.json`));
  for (const e of manifest) results.set(e.file, verifySceneOutput(readFileSync(path.join(G, e.file), 'utf8'), ctxOf(readPacket(path.join(G, e.packet)))).findings);
});

/** A scene of the packet (its cast swapped for `cast` when given) whose text is `body`. */
function scene(id: string, body: string, cast?: ScenePacket['cast']): Finding[] {
  const p = { ...packets[id], ...(cast ? { cast } : {}) };
  const raw = `---SCENE_TEXT---\n## ${id} — INT. HOUSE - DUSK\n\n**Cast:** ${p.cast.map((c) => c.name).join(', ')}\n\n${body}\n\n---CLAIMS---\n[]\n---SCENE_EVENTS---\n[]\n`;
  return told(verifySceneOutput(raw, ctxOf(p)).findings);
}

describe('shared Roman names: the corpus', () => {
  it('every planted span is in its file', () => {
    for (const e of manifest) expect(readFileSync(path.join(G, e.file), 'utf8'), e.file).toContain(e.span);
  });
  for (const e of manifest) {
    it(`${e.file}: ${e.expect} (${e.note})`, () => {
      const fs = told(results.get(e.file)!);
      if (e.expect === 'none') return expect(fs.map(factOf)).toEqual([]);
      // The one fact it tells, and no other fact of the same template about another man.
      expect(fs.map(factOf)).toEqual([e.fact]);
      if (e.expect === 'hard') expect(fs[0].severity).toBe('hard');
    });
  }
});

describe('shared Roman names: whose a fact told is', () => {
  it('a quote that tells the predicate of someone it names is his fact, not the same fact of the teller', () => {
    // As the offline writer tells a secret (the 10,000-character synthetic world's SC02 failed so).
    const body = 'Sergius Murena lets slip that the secret ("Cassia paid the divisores of three tribes at the last election"); by nightfall the story comes back to Gnaeus Murena from three strangers.';
    expect(scene('SC12', body).map(factOf)).toEqual(['Cassia paid the divisores of three tribes at the last election.']);
    // Told of the teller himself, it is his.
    expect(scene('SC12', 'Cassia says it plainly: Sergius Murena paid the divisores of three tribes at the last election.').map(factOf)).toEqual([
      'Cn. Sergius Murena paid the divisores of three tribes at the last election.',
    ]);
  });
});

describe('shared Roman names: who a name is', () => {
  it('"Sergius" alone, when the only Sergius in the cast is Scaurus, tells his forbidden fact', () => {
    const scaurus = { ...packets.SC12.cast[0], id: 'ser_sergius_scaurus_164', name: 'Ser. Sergius Scaurus', cue: 'SERVIUS SCAURUS' };
    const cast = [scaurus, packets.SC12.cast[1]];
    expect(scene('SC12', "**LUCIUS GALLUS III:** Sergius forged a codicil to a kinsman's will. I saw the wax.", cast).map(factOf)).toEqual(["Ser. Sergius Scaurus forged a codicil to a kinsman's will."]);
  });
  it('a pronoun after his name tells it; the same predicate told of the man a line names is his alone', () => {
    expect(scene('SC12', "Sergius Scaurus came by this morning, smiling. He forged a codicil to a kinsman's will, and he laughed about it.").map((f) => [factOf(f), f.severity])).toEqual([
      ["Ser. Sergius Scaurus forged a codicil to a kinsman's will.", 'hard'],
    ]);
    // Murena's own forbidden secret, thrown at him: not each other man's "skimmed the grain money".
    expect(scene('SC07', "**CATO:** You skimmed the grain money meant for the aediles' distribution, Murena.").map(factOf)).toEqual([
      "Ser. Calpurnius Murena skimmed the grain money meant for the aediles' distribution.",
    ]);
  });
});
