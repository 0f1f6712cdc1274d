import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { vocatives, vocativesFit } from '../../src/core/forms-of-address.js';
import { parseScriptMarkdown } from '../../src/season/script-model.js';
import { checkPeople, type PersonOnPage } from '../../src/season/script-people.js';
import { cleanup, cli, git, makeWorld } from '../pipeline/world.js';

const PEOPLE: PersonOnPage[] = [
  { id: 'caesar', name: 'Gaius Julius Caesar', cue: 'CAESAR' },
  { id: 'crassus', name: 'Marcus Licinius Crassus', cue: 'CRASSUS' },
  { id: 'servilia', name: 'Servilia', cue: 'SERVILIA' },
  { id: 'cicero', name: 'Marcus Tullius Cicero', cue: 'CICERO' },
  { id: 'terentia', name: 'Terentia', cue: 'TERENTIA' },
];

/** Written the way a model writes a script: stage business, idioms, a vocative mid-sentence. */
const SCRIPT = `# S01E02: The Dowry

## SC01 — INT. SERVILIA'S HOUSE - NIGHT

**Cast:** Servilia, Marcus Licinius Crassus

The lamps gutter. Servilia does not rise.

> SERVILIA: You may love me, Gaius, or you may manage me. Not both on the same day.
> CRASSUS: Everything in this city has a price, and I know most of them.

## SC02 — INT. CICERO'S HOUSE - DAY

**Cast:** Marcus Tullius Cicero, Terentia

> TERENTIA: You may speak to the Senate all day, Marcus. At night you will answer to me.
> CICERO: Everything in this city has a price, and I know most of them!
> CICERO: Yes, Mother.

## SC03 — EXT. FORUM - DAY

**Cast:** Gaius Julius Caesar, Servilia

> SERVILIA: Gaius, not here.
> CAESAR: Then where?
`;

describe('forms of address', () => {
  it('finds vocatives set off by commas or ending a sentence, not a name in passing', () => {
    expect(vocatives('You may love me, Gaius, or you may manage me.', ['Gaius'])).toEqual(['Gaius']);
    expect(vocatives('Mother, today you will see your son pontifex.', ['Mother'])).toEqual(['Mother']);
    expect(vocatives('Ask Gaius Antonius what he owes.', ['Gaius'])).toEqual([]);
    expect(vocativesFit('You may love me, Gaius, or you may manage me.', 'Gaius Julius Caesar')).toBe(true);
    expect(vocativesFit('You may love me, Gaius, or you may manage me.', 'Marcus Licinius Crassus')).toBe(false);
    expect(vocativesFit('Mother, today you will see your son pontifex.', 'Servilia')).toBe(false);
    expect(vocativesFit('The Senate will wait.', undefined)).toBe(true);
  });
});

describe('the people check reads a script against the world', () => {
  it('finds a praenomen for the wrong man, a kin word without kin, and a line said by two people', () => {
    const found = checkPeople([{ episode: 's01e02', doc: parseScriptMarkdown(SCRIPT) }], PEOPLE, []);
    expect(found.map((f) => [f.kind, f.scene, f.cue])).toEqual([
      ['wrong_praenomen', 'SC01', 'SERVILIA'],
      ['recycled_line', 'SC02', 'CICERO'],
      ['kin_address', 'SC02', 'CICERO'],
    ]);
    // Terentia's "Marcus" is Cicero's praenomen and Servilia's "Gaius" in SC03 is Caesar's: no finding.
  });

  it('accepts a kin word when the world declares the kin', () => {
    const found = checkPeople([{ episode: 's01e02', doc: parseScriptMarkdown(SCRIPT) }], PEOPLE, [['cicero', 'terentia']]);
    expect(found.map((f) => f.kind)).not.toContain('kin_address');
  });
});

/** A 3-episode offline season per seed, every committed script read against the starter world. */
const SEEDS = ['alpha', 'beta', 'gamma'];
const roots: string[] = [];
afterAll(cleanup);

describe('an offline season addresses people as the world allows', () => {
  for (const seed of SEEDS) {
    it(`seed ${seed}: no praenomen for the wrong person, no kin word without kin`, async () => {
      const root = await makeWorld(`people-${seed}`);
      roots.push(root);
      const r = await cli(['season', 'run', '--count', '3', '--seed', seed, '--json'], root);
      expect(r.code, r.stderr).toBe(0);
      const chars = JSON.parse(fs.readFileSync(path.join(root, 'world/characters.json'), 'utf8')).characters as PersonOnPage[];
      const rels = JSON.parse(fs.readFileSync(path.join(root, 'world/relationships.json'), 'utf8')).relationships as { from: string; to: string; flags?: string[] }[];
      const kin = rels.filter((x) => x.flags?.includes('kin')).map((x) => [x.from, x.to] as [string, string]);
      const dirs = fs.readdirSync(path.join(root, 'seasons/season_01')).filter((d) => d.startsWith('episode_')).sort();
      expect(dirs.length).toBe(3);
      const eps = dirs.map((d) => ({ episode: d, doc: parseScriptMarkdown(fs.readFileSync(path.join(root, 'seasons/season_01', d, 'episode_script.md'), 'utf8')) }));
      expect(eps.flatMap((e) => e.doc.scenes).length).toBeGreaterThan(20);
      const found = checkPeople(eps, chars, kin);
      expect(found.filter((f) => f.kind !== 'recycled_line')).toEqual([]);
      // Not yet held: the offline writer's short reply pools wrap over a 20-scene episode, so a
      // reply comes back in another mouth (issue 17, item 6, left open). Reported, not asserted.
      console.info(`seed ${seed}: ${found.filter((f) => f.kind === 'recycled_line').length} recycled lines in 3 episodes`);
      expect(git(root, 'tag', '--list', 's01e*').split('\n').filter(Boolean).length).toBe(3);
    }, 300_000);
  }
});
