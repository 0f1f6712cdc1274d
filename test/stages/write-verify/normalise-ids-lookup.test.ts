import { describe, expect, it } from 'vitest';
import { resolver, words, type NormaliseContext } from '../../../src/stages/e-writer/normalise/ids.js';
import { Rng } from '../../../src/core/rng.js';
import { packet } from './helpers.js';

// The character resolver keeps the world's names once per list of characters and looks names up by
// their words (issue 18, seventeenth pass). The reference is the resolver as it was (0a0b187): every
// person of the world listed again per scene, every look-up a scan of them all.
const PRAE = new Set(['marcus', 'gaius', 'lucius', 'publius', 'quintus', 'gnaeus', 'titus', 'decimus', 'servius', 'aulus', 'sextus', 'tiberius', 'appius', 'manius', 'spurius', 'numerius', 'mamercus']);
function oldCharacter(ctx: NormaliseContext): (s: string) => string | null {
  const pk = ctx.packet;
  const castIds = new Set(pk.cast.map((c) => c.id));
  const out = new Map<string, { id: string; names: string[][]; cast: boolean }>();
  const add = (id: string, ...names: (string | undefined)[]) => {
    const p = out.get(id) ?? { id, names: [words(id)], cast: castIds.has(id) };
    for (const n of names) if (n) p.names.push(words(n));
    out.set(id, p);
  };
  for (const c of pk.cast) add(c.id, c.name, c.cue);
  for (const d of pk.dead) add(d.id, d.name, d.cue);
  for (const c of pk.retrieved_subgraph.characters) add(c.id, c.name);
  for (const c of ctx.characters ?? []) add(c.id, c.name, c.cue);
  const ps = [...out.values()];
  const ids = new Set(ps.map((p) => p.id));
  const pick = (tiers: { id: string }[][]) => {
    for (const t of tiers) {
      const u = [...new Set(t.map((c) => c.id))];
      if (u.length === 1) return u[0]!;
      if (u.length > 1) return null;
    }
    return null;
  };
  return (s) => {
    if (ids.has(s)) return s;
    const w = words(s);
    if (!w.length) return null;
    const exact = ps.filter((p) => p.id === w.join('_') || p.names.some((n) => n.join(' ') === w.join(' ')));
    const partial = w.some((x) => !PRAE.has(x)) ? ps.filter((p) => p.names.some((n) => w.every((x) => n.includes(x)))) : [];
    return pick([exact.filter((p) => p.cast), exact, partial.filter((p) => p.cast), partial]);
  };
}

const PRAENOMINA = ['Marcus', 'Gaius', 'Lucius', 'Publius', 'Quintus', 'Gnaeus', 'Sextus', 'Servius', 'M.', 'C.', 'Ser.'];
const NOMINA = ['Cornelius', 'Sergius', 'Cassius', 'Tullius', 'Licinius', 'Caecilius', 'Claudius', 'Valerius', 'Sempronius'];
const COGNOMINA = ['Scipio', 'Lentulus', 'Murena', 'Catilina', 'Gallus', 'Longinus', 'Cicero', 'Crassus', 'Metellus', 'Brutus', 'Pulcher'];

describe('character ids from what a model wrote (normalise/ids.ts)', () => {
  it('resolve as a scan of every person did, in a crowded world, for packets whose people the world names otherwise', () => {
    const rng = new Rng('ids-lookup');
    const characters = Array.from({ length: 1500 }, (_, i) => {
      const name = `${rng.pick(PRAENOMINA)} ${rng.pick(NOMINA)} ${rng.pick(COGNOMINA)}`;
      return { id: `${words(name).join('_')}_${i}`, name, cue: i % 3 ? name.split(' ').at(-1)!.toUpperCase() : undefined };
    });
    const base = packet();
    const [a, b, c] = [characters[5]!, characters[50]!, characters[500]!];
    const packets = [
      base,
      { ...base, cast: [{ ...base.cast[0]!, id: a.id, name: 'Gaius Sergius Murena', cue: 'MURENA' }, { ...base.cast[0]!, id: b.id, name: b.name, cue: 'BRUTUS' }], dead: [{ id: c.id, name: c.name, cue: 'OLD' }] },
      { ...base, retrieved_subgraph: { ...base.retrieved_subgraph, characters: [...base.retrieved_subgraph.characters, { ...base.retrieved_subgraph.characters[0]!, id: 'newcomer', name: 'Titus Ampius Balbus' }] } },
    ];
    const asked = [
      ...characters.slice(0, 40).flatMap((x) => [x.id, x.name, x.name.toUpperCase(), x.name.split(' ').slice(1).join(' '), x.name.split(' ').at(-1)!, `${x.name.split(' ')[0]} ${x.name.split(' ').at(-1)}`]),
      ...NOMINA, ...COGNOMINA, ...PRAENOMINA, 'Marcus', 'Gaius Sergius Murena', 'MURENA', 'Brutus', 'OLD', 'Balbus', 'Titus Ampius Balbus', 'newcomer', 'Sergius Murena', "Cicero's", '', '  ', 'nobody at all', 'crassus', 'cicero', 'Marcus Tullius Cicero',
    ];
    let resolved = 0;
    for (const pk of packets) {
      const ctx: NormaliseContext = { packet: pk, characters };
      const want = oldCharacter(ctx);
      const got = resolver(ctx).character;
      for (const s of asked) {
        expect(got(s), s).toBe(want(s));
        if (want(s)) resolved++;
      }
    }
    expect(resolved).toBeGreaterThan(200);
  });
});
