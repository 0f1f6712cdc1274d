import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findMentions, personIndex, type PersonIndex } from '../../../src/stages/f-verifier/prose/names.js';
import { Rng } from '../../../src/core/rng.js';
import { ctx, packet } from './helpers.js';
import type { VerifyContext } from '../../../src/stages/f-verifier/context.js';

// Name mentions are found by looking each word of the text up (issue 18, seventeenth pass), not by
// one regex alternation of every form in the world. The reference below is that regex as it was:
// the look-up must give the very same mentions, on real prose and on text built to break it.
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const oneRegex = new WeakMap<PersonIndex, RegExp>();
function byOneRegex(text: string, idx: PersonIndex): { id: string; start: number; text: string }[] {
  let re = oneRegex.get(idx);
  if (!re) oneRegex.set(idx, (re = new RegExp(`(?<![\\p{L}])(${[...idx.forms.keys()].sort((a, b) => b.length - a.length).map(escape).join('|')})(?![\\p{L}])`, 'giu')));
  const out: { id: string; start: number; text: string }[] = [];
  for (const m of text.matchAll(re)) {
    if (!/^\p{Lu}/u.test(m[0])) continue;
    const id = idx.forms.get(m[0].toLowerCase());
    if (id) out.push({ id, start: m.index!, text: m[0] });
  }
  return out;
}
const names = (text: string, idx: PersonIndex) => findMentions(text, idx).filter((m) => !idx.titles.size || idx.forms.has(m.text.toLowerCase())).map(({ id, start, text: t }) => ({ id, start, text: t }));

const PRAENOMINA = ['Marcus', 'Gaius', 'Lucius', 'Publius', 'Quintus', 'Gnaeus', 'Sextus', 'Servius', 'Tiberius', 'Aulus', 'M.', 'C.', 'L.', 'Ser.', 'Sex.', 'Ti.'];
const NOMINA = ['Cornelius', 'Sergius', 'Cassius', 'Tullius', 'Licinius', 'Caecilius', 'Iunius', 'Claudius', 'Valerius', 'Aemilius', 'Sempronius', 'Calpurnius', 'Hortensius', 'Lucretius', "Pompeius", 'Antonius', 'Octavius', 'Terentius'];
const COGNOMINA = ['Scipio', 'Lentulus', 'Sulla', 'Murena', 'Catilina', 'Gallus', 'Longinus', 'Cicero', 'Crassus', 'Metellus', 'Silanus', 'Brutus', 'Pulcher', 'Dolabella', 'Torquatus', 'Cethegus', 'Scaurus', 'Caepio', 'Lepidus', 'Cato'];

/** A world of ~800 Romans who share every name part, as gentes do (ids, cues and numbered namesakes too). */
function crowdedContext(): VerifyContext {
  const base = ctx(packet());
  const rng = new Rng('names-lookup');
  const characters = [...(base.characters ?? [])];
  for (let i = 0; i < 800; i++) {
    const name = `${rng.pick(PRAENOMINA)} ${rng.pick(NOMINA)} ${rng.pick(COGNOMINA)}${i % 7 === 0 ? ` ${['II', 'III', 'Iii', 'Minor'][i % 4]}` : ''}`;
    characters.push({ id: `p_${i}`, name, cue: name.split(' ').at(-1)!.toUpperCase(), status: i % 5 === 0 ? 'dead' : 'alive', location: 'forum' });
  }
  return { ...base, characters };
}

function proseFiles(): string[] {
  const root = path.resolve(__dirname, '../../fixtures');
  const out: string[] = [];
  for (const dir of ['prose-corpus', 'prose-corpus-heldout', 'writer-corpus']) {
    for (const f of fs.readdirSync(path.join(root, dir))) if (f.endsWith('.txt')) out.push(fs.readFileSync(path.join(root, dir, f), 'utf8'));
  }
  return out;
}

describe('name mentions found by look-up (prose/names.ts)', () => {
  it('are the very mentions one regex of every form found, on every prose corpus file, in a crowded world', () => {
    const idx = personIndex(crowdedContext());
    const files = proseFiles();
    expect(files.length).toBeGreaterThan(100);
    let mentions = 0;
    for (const text of files) {
      const want = byOneRegex(text, idx);
      expect(names(text, idx)).toEqual(want);
      mentions += want.length;
    }
    expect(mentions).toBeGreaterThan(200);
  });

  it('are the same on text built to break a look-up: namesakes side by side, case, hyphens, odd letters, names inside words', () => {
    const idx = personIndex(crowdedContext());
    const rng = new Rng('names-adversarial');
    const glue = [' ', '  ', ', ', '-', "'", '’', '\n', ' and ', 'que ', '. ', ' (', ') ', '—', 'x', '2', ' Sergiusque ', ' SERGIUS ', ' sergius ', ' Caſſius ', ' KATO ', ' İulius ', ' Cassius’s ', ' Cassius-Gallus '];
    const parts = [...PRAENOMINA, ...NOMINA, ...COGNOMINA, 'Cicero', 'Marcus Tullius Cicero', 'Catilina', 'Catiline', 'Pompey', 'II', 'III', 'Iii', 'Minor'];
    let mentions = 0;
    for (let n = 0; n < 200; n++) {
      let text = '';
      for (let k = 0; k < 30; k++) {
        const p = rng.pick(parts);
        text += (rng.next() < 0.1 ? p.toLowerCase() : rng.next() < 0.05 ? p.toUpperCase() : p) + rng.pick(glue);
      }
      const want = byOneRegex(text, idx);
      expect(names(text, idx)).toEqual(want);
      mentions += want.length;
    }
    expect(mentions).toBeGreaterThan(300);
  });
});
