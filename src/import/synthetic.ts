import { Rng } from '../core/rng.js';
import { assembleWorld, type AssembledWorld } from './assemble.js';
import { tieTemplate, COLLEAGUE } from './dprr/relations.js';
import { slug } from './dprr/names.js';
import { worldRepoFiles, type RepoFiles } from './files.js';
import type { StarterKit } from './kit.js';
import type { OfficeTier, SourcePerson, SourceTie } from './model.js';

/**
 * Synthetic worlds of any size (10 … 10,000 principals and beyond) for benchmarks and scale
 * tests: Roman-shaped but entirely invented persons, families and careers, run through the same
 * assembly as the DPRR import so they are valid in the same way. Same (principals, seed) ⇒ same bytes.
 */
const PRAENOMINA = ['Lucius', 'Gaius', 'Marcus', 'Publius', 'Quintus', 'Gnaeus', 'Titus', 'Aulus', 'Sextus', 'Servius', 'Decimus', 'Tiberius'];
const ABBR: Record<string, string> = { Lucius: 'L.', Gaius: 'C.', Marcus: 'M.', Publius: 'P.', Quintus: 'Q.', Gnaeus: 'Cn.', Titus: 'T.', Aulus: 'A.', Sextus: 'Sex.', Servius: 'Ser.', Decimus: 'D.', Tiberius: 'Ti.' };
const NOMINA = ['Aemilius', 'Antonius', 'Aurelius', 'Caecilius', 'Calpurnius', 'Cassius', 'Claudius', 'Cornelius', 'Domitius', 'Fabius', 'Fulvius', 'Hortensius', 'Iulius', 'Iunius', 'Licinius', 'Livius', 'Lucretius', 'Manlius', 'Marcius', 'Memmius', 'Minucius', 'Mucius', 'Octavius', 'Papirius', 'Plautius', 'Pompeius', 'Porcius', 'Postumius', 'Sempronius', 'Sergius', 'Servilius', 'Sulpicius', 'Terentius', 'Titius', 'Tullius', 'Valerius', 'Vettius', 'Vibius'];
const COGNOMINA = ['Albinus', 'Balbus', 'Bibulus', 'Brutus', 'Caepio', 'Cato', 'Celer', 'Cethegus', 'Cotta', 'Crassus', 'Dolabella', 'Flaccus', 'Galba', 'Gallus', 'Lentulus', 'Lepidus', 'Longinus', 'Macer', 'Metellus', 'Murena', 'Naso', 'Nerva', 'Paullus', 'Piso', 'Pulcher', 'Rufus', 'Scaurus', 'Silanus', 'Sulla', 'Torquatus', 'Varro', 'Vatia'];
const TIERS: [OfficeTier, number][] = [['consul', 0.08], ['praetor', 0.2], ['aedile', 0.1], ['tribune', 0.14], ['quaestor', 0.2], ['priest', 0.05], ['senator', 0.08], ['eques', 0.1], ['none', 0.05]];
const OFFICE_OF: Record<OfficeTier, string[]> = {
  dictator: ['dictator'], censor: ['censor'], consul: ['quaestor', 'praetor', 'consul'], praetor: ['quaestor', 'praetor'],
  aedile: ['quaestor', 'aedilis curulis'], tribune: ['quaestor', 'tribunus plebis'], quaestor: ['quaestor'],
  priest: ['pontifex'], senator: ['senator - office unknown'], officer: ['tribunus militum'], eques: [], none: [],
};

function addTo<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const l = m.get(k);
  if (l) l.push(v);
  else m.set(k, [v]);
}

function pickTier(r: Rng): OfficeTier {
  let x = r.next();
  for (const [t, p] of TIERS) if ((x -= p) < 0) return t;
  return 'none';
}

export interface SyntheticOptions {
  principals: number;
  seed: string;
  /** Supporting (non-principal) characters per principal; default 0.5. */
  supporting?: number;
}

/** Persons and ties of a synthetic world, ranked like the DPRR selection (living first). */
export function syntheticSource(o: SyntheticOptions): { persons: SourcePerson[]; ties: SourceTie[] } {
  const rng = new Rng(`synthetic/${o.seed}`);
  const total = o.principals + Math.round(o.principals * (o.supporting ?? 0.5));
  const persons: SourcePerson[] = [];
  for (let i = 0; i < total; i++) {
    const r = rng.fork(`person/${i}`);
    const female = r.next() < 0.12;
    const nomen = r.pick(NOMINA);
    const tier: OfficeTier = female ? (r.next() < 0.1 ? 'priest' : 'none') : pickTier(r);
    const praenomen = female ? '' : r.pick(PRAENOMINA);
    const cognomen = female ? '' : r.pick(COGNOMINA);
    const fname = female ? nomen.replace(/ius$/, 'ia') : `${ABBR[praenomen]} ${nomen} ${cognomen}`;
    const cue = (female ? fname : cognomen).toUpperCase();
    const start = -100 + r.int(20);
    const offices = OFFICE_OF[tier].map((name, k) => ({ name, year: start + 8 * k + r.int(4) }));
    // Principals are alive; a quarter of the supporting cast is dead (ancestors and victims).
    const alive = i < o.principals || r.next() >= 0.25;
    persons.push({
      id: `${slug(female ? fname : `${ABBR[praenomen]} ${nomen} ${cognomen}`)}_${i + 1}`,
      name: fname,
      cue,
      longCue: female ? cue : `${praenomen} ${cognomen}`.toUpperCase(),
      female,
      alive,
      nomen,
      patrician: r.next() < 0.15,
      nobilis: tier === 'consul' || r.next() < 0.2,
      novus: tier === 'consul' && r.next() < 0.1,
      eques: tier === 'eques',
      tier,
      highest_office: offices.length ? offices[offices.length - 1].name : '',
      offices,
      consulships: tier === 'consul' ? 1 + (r.next() < 0.1 ? 1 : 0) : 0,
      triumphs: tier === 'consul' && r.next() < 0.3 ? 1 : 0,
      priesthoods: tier === 'priest' ? 1 : 0,
      military: r.int(3),
      defeats: r.next() < 0.1 ? 1 : 0,
      source_ref: `Synthetic person ${i + 1}`,
      era: [start - 25, alive ? -44 : start + 10],
      origin: '',
    });
  }
  // Living persons rank first, as in the DPRR selection, so principals = the first N.
  const ranked = [...persons.slice(0, o.principals), ...persons.slice(o.principals).filter((p) => p.alive), ...persons.slice(o.principals).filter((p) => !p.alive)];

  const ties: SourceTie[] = [];
  const push = (a: SourcePerson, b: SourcePerson, rel: string, inverse: string) => {
    const t1 = tieTemplate(rel), t2 = tieTemplate(inverse);
    ties.push({ from: a.id, to: b.id, weights: { ...t1.weights }, flags: [...t1.flags] });
    ties.push({ from: b.id, to: a.id, weights: { ...t2.weights }, flags: [...t2.flags] });
  };
  const byGens = new Map<string, SourcePerson[]>();
  for (const p of persons) addTo(byGens, p.nomen, p);
  const tRng = rng.fork('ties');
  for (const nomen of NOMINA) {
    const members = byGens.get(nomen) ?? [];
    for (let k = 1; k < members.length; k++) {
      // Families: each member is kin of one earlier member of the gens (a forest of households).
      const a = members[k], b = members[Math.max(0, k - 1 - tRng.int(Math.min(k, 4)))];
      const kind = tRng.int(3);
      if (kind === 0) push(a, b, a.female ? 'sister of' : 'brother of', b.female ? 'sister of' : 'brother of');
      else if (kind === 1 && !b.female) push(a, b, a.female ? 'daughter of' : 'son of', 'father of');
      else push(a, b, 'cousin of', 'cousin of');
    }
  }
  const women = persons.filter((p) => p.female);
  const men = persons.filter((p) => !p.female);
  for (const w of women) if (men.length && tRng.next() < 0.8) push(w, tRng.pick(men), 'married to', 'married to');
  // Colleagues: same collegial office and year.
  const colleges = new Map<string, SourcePerson[]>();
  for (const p of persons) for (const off of p.offices) if (off.name !== 'senator - office unknown') addTo(colleges, `${off.name}/${off.year}`, p);
  for (const key of [...colleges.keys()].sort()) {
    const l = colleges.get(key)!.slice(0, 6);
    for (const a of l) for (const b of l) if (a !== b) ties.push({ from: a.id, to: b.id, weights: { ...COLLEAGUE.weights }, flags: [...COLLEAGUE.flags] });
  }
  return { persons: ranked, ties };
}

export function generateSyntheticWorld(o: SyntheticOptions, kit: StarterKit): AssembledWorld {
  if (!Number.isInteger(o.principals) || o.principals < 1) throw new RangeError('principals must be a positive integer');
  const { persons, ties } = syntheticSource(o);
  return assembleWorld(persons, ties, kit, {
    seed: `synthetic/${o.seed}`,
    principals: o.principals,
    date: { year_bc: 63, month: 1, day: 1 },
    title: `Synthetic Rome: ${o.principals} principals (seed ${o.seed}), every person invented for benchmarks`,
    provenance: 'A synthetic person: name, career, family and everything else invented.',
  });
}

export function syntheticRepoFiles(o: SyntheticOptions, kit: StarterKit): { files: RepoFiles; assembled: AssembledWorld } {
  const assembled = generateSyntheticWorld(o, kit);
  const notice = `# Notes\n\nA synthetic world generated by \`aureus import synthetic --principals ${o.principals} --seed ${o.seed}\` for benchmarks and scale tests.\nEvery person, family, career, ledger and secret is invented. Operators, style, locations, threads, constraints\nand season goals come from the Aureus starter kit.\n`;
  return { files: worldRepoFiles(assembled.world, assembled.seasonGoals, kit, { 'NOTICE.md': notice }), assembled };
}
