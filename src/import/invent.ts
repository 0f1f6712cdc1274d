import type { Bdi, Desire, DesireKind, Register, StatName, Voice } from '../domain/world.js';
import { round } from '../core/json.js';
import type { Rng } from '../core/rng.js';
import type { OfficeTier, SourcePerson } from './model.js';
import { TIER_DIGNITAS } from './dprr/offices.js';
import { aucYear } from '../core/roman-date.js';

/**
 * The invented layer of an imported world: what no prosopography records (wealth, temperament,
 * desires, voices, ledgers, secrets). Every draw comes from an Rng forked by purpose and person id,
 * so the same seed gives the same world whatever the import order or size.
 */
const clamp = (n: number, lo = 0, hi = 100) => Math.max(lo, Math.min(hi, n));
const span = (rng: Rng, lo: number, hi: number) => lo + rng.next() * (hi - lo);

const WEALTH_BASE: Record<OfficeTier, number> = {
  dictator: 85, censor: 80, consul: 74, praetor: 62, aedile: 58, tribune: 45, priest: 55,
  quaestor: 45, senator: 45, officer: 35, eques: 62, none: 25,
};

export function inventStats(p: SourcePerson, degree: number, rng: Rng): Record<StatName, number> {
  const dignitas = clamp(TIER_DIGNITAS[p.tier] + 3 * Math.max(0, p.consulships - 1) + (p.patrician ? 4 : 0) + (p.nobilis ? 3 : 0) + span(rng, -3, 3));
  const auctoritas = clamp(0.55 * dignitas + 3 * Math.min(p.offices.length, 10) + 8 * p.triumphs + 5 * Math.min(p.priesthoods, 2) + span(rng, -5, 5));
  const gratia = clamp(15 + 5 * Math.min(degree, 8) + 0.2 * dignitas + span(rng, 0, 15));
  const fama = clamp(0.45 * dignitas + 10 * p.triumphs + 2 * Math.min(p.offices.length, 10) + 4 * Math.min(p.defeats, 2) + span(rng, 0, 15));
  const wealth = clamp(WEALTH_BASE[p.tier] + (p.eques ? 15 : 0) + (p.patrician ? 5 : 0) + span(rng, -15, 15));
  const cunning = clamp(span(rng, 30, 85) + (p.novus ? 8 : 0) + (p.offices.length > 5 ? 5 : 0));
  const courage = clamp(span(rng, 25, 80) + Math.min(20, 6 * p.military));
  return {
    wealth: Math.round(wealth),
    dignitas: Math.round(dignitas),
    auctoritas: Math.round(auctoritas),
    gratia: Math.round(gratia),
    fama: Math.round(fama),
    cunning: Math.round(cunning),
    courage: Math.round(courage),
  };
}

/**
 * A year as a Roman counted it, "the year 691 of the City" (core/roman-date's aucYear): imported
 * text can reach a scene's prose, where the verifier's era rule rightly refuses "63 BC". Source
 * years are negative for BC.
 */
export const cityYear = (year: number): string => `the year ${aucYear(-year)} of the City`;

/**
 * An office as prose may name it: DPRR's English glosses dropped ("legatus (lieutenant)" → "legatus",
 * "senator - office unknown" → "senator"); "lieutenant" is in the lexicon's anachronisms.
 */
export const officeWords = (name: string): string => name.replace(/\s*\([^)]*\)/g, '').replace(/\s*-\s*office unknown$/, '').trim();

/** Standing as a Roman would say it. */
export function standing(p: SourcePerson): string {
  if (p.female) return p.tier === 'priest' ? 'Vestal' : 'matron';
  const labels: Record<OfficeTier, string> = {
    dictator: 'dictator', censor: 'censorius', consul: 'consular', praetor: 'praetorian', aedile: 'aedilician',
    tribune: 'tribunician', quaestor: 'quaestorian', senator: 'senator', officer: 'officer', priest: 'priest',
    eques: 'eques', none: 'private citizen',
  };
  return (p.novus ? 'novus homo, ' : p.patrician ? 'patrician, ' : '') + labels[p.tier];
}

const NEXT_STEP: Record<OfficeTier, string> = {
  dictator: 'DEFEND_DIGNITAS', censor: 'DEFEND_DIGNITAS', consul: 'SEEK_PROVINCE', praetor: 'STAND_FOR_CONSUL',
  aedile: 'STAND_FOR_PRAETOR', tribune: 'STAND_FOR_PRAETOR', priest: 'GUARD_THE_RITES', quaestor: 'STAND_FOR_TRIBUNATE',
  senator: 'STAND_FOR_QUAESTOR', officer: 'STAND_FOR_QUAESTOR', eques: 'WIN_TAX_CONTRACT', none: 'FIND_A_PATRON',
};

function desireSet(p: SourcePerson): [DesireKind, string, number][] {
  if (p.female && p.tier === 'priest') return [['knowledge', 'keep the rites pure and the secrets of the temple', 0.6], ['security', 'keep the order of Vesta above faction', 0.5]];
  if (p.female) return [['love', 'see her children married well', 0.6], ['security', 'keep the household safe from proscription and debt', 0.55], ['loyalty', 'hold the family together', 0.45]];
  switch (p.tier) {
    case 'dictator': case 'censor': case 'consul':
      return [['power', 'keep the first place in the Senate', 0.8], ['reputation', 'be remembered as the saviour of the Republic', 0.6], ['security', 'never face a court after leaving office', 0.45]];
    case 'praetor': case 'aedile':
      return [['power', 'reach the consulship in his year', 0.75], ['reputation', 'give games the city will not forget', 0.5], ['wealth', 'recover what the campaign cost', 0.45]];
    case 'tribune':
      return [['justice', 'put the grain law through the assembly', 0.6], ['power', 'be the voice of the plebs', 0.6], ['reputation', 'outlive his tribunate in the people\'s memory', 0.4]];
    case 'priest':
      return [['knowledge', 'read the auspices before anyone else', 0.55], ['reputation', 'be consulted by consuls', 0.5], ['secrecy', 'keep what the college knows', 0.35]];
    case 'eques':
      return [['wealth', 'win the next tax contract', 0.8], ['security', 'keep the courts friendly to the equites', 0.5]];
    case 'none':
      return [['wealth', 'clear his debts', 0.5], ['loyalty', 'serve a patron who rises', 0.5]];
    default:
      return [['reputation', 'be noticed by a consular', 0.6], ['wealth', 'pay for the next election', 0.45], ['loyalty', 'repay his patron', 0.4]];
  }
}

export function inventBdi(p: SourcePerson, rng: Rng, opts: { rival?: string; beliefs: string[] }): Bdi {
  const desires: Desire[] = desireSet(p).map(([kind, text, w]) => ({ kind, text, weight: round(clamp(w + span(rng, -0.1, 0.1), 0.05, 1), 2) }));
  if (p.novus) desires.push({ kind: 'reputation', text: 'make the nobiles accept a new man', weight: round(span(rng, 0.5, 0.8), 2) });
  if (opts.rival && (p.defeats > 0 || rng.next() < 0.25)) {
    desires.push({ kind: 'revenge', text: p.defeats > 0 ? 'avenge the defeat at the polls' : 'bring down a rival', weight: round(span(rng, 0.4, 0.75), 2), target: opts.rival });
  }
  const intentions = p.alive ? [p.female && p.tier !== 'priest' ? 'SECURE_MARRIAGE_ALLIANCE' : NEXT_STEP[p.tier]] : [];
  return { beliefs: opts.beliefs, desires, intentions };
}

const SAMPLES: Record<Register, string[]> = {
  patrician: ['My ancestors sat in this Curia before yours could read.', 'The Republic is a house; some of us own it.', 'Dignitas is not bought. It is inherited, and defended.'],
  orator: ['How long, then, will you abuse our patience?', 'I ask the court one question, and I ask it twice.', 'Words are cheaper than swords, and they cut longer.'],
  soldier: ['Give me the legion and a road. I will give you the province.', 'I have slept in mud for this city.', 'Orders, not speeches.'],
  street: ['Grain is up again. Somebody is getting rich.', 'Keep your voice down. The Subura has ears.', 'Pay first. Then we talk.'],
  merchant: ['Everything has a price, senator. Even silence.', 'The contract for Asia will not wait for your scruples.', 'I lend at twelve in the hundred, and I always collect.'],
  matron: ['My husband speaks in the Senate. I speak to his friends.', 'A marriage is a treaty. Read the clauses.', 'Sons are the only votes a woman casts.'],
  priestly: ['The birds flew left. The assembly will not meet today.', 'The gods keep accounts too.', 'What the college decides, the city obeys.'],
  servile: ['Yes, dominus.', 'I saw nothing, and I will say so under oath.', 'Freedom has a price; I have nearly saved it.'],
};

export function inventVoice(p: SourcePerson, rng: Rng): Voice {
  let register: Register;
  if (p.female) register = p.tier === 'priest' ? 'priestly' : 'matron';
  else if (p.tier === 'priest') register = 'priestly';
  else if (p.eques) register = 'merchant';
  else if (p.military >= 2 && ['dictator', 'consul', 'praetor', 'officer'].includes(p.tier)) register = 'soldier';
  else if (['dictator', 'censor', 'consul', 'praetor', 'quaestor', 'senator'].includes(p.tier)) register = p.patrician ? 'patrician' : 'orator';
  else if (['aedile', 'tribune'].includes(p.tier)) register = 'orator';
  else if (p.tier === 'officer') register = 'soldier';
  else register = 'street';
  const tags: string[] = [];
  if (p.novus) tags.push('novus homo');
  if (p.patrician) tags.push('patrician');
  if (p.consulships > 0) tags.push('consular');
  if (p.triumphs > 0) tags.push('triumphator');
  if (p.origin) tags.push(`from ${p.origin}`);
  tags.push(rng.pick(['measured', 'sardonic', 'blunt', 'florid', 'guarded', 'warm', 'cold', 'pious', 'impatient']));
  const lines = rng.shuffle(SAMPLES[register]).slice(0, 2);
  return { register, tags, sample_lines: lines };
}

/** Denarii from the 0..100 wealth stat: roughly exponential, as Roman fortunes were (a Crassus is a thousand clerks). */
export function denariiFor(wealth: number, rng: Rng): number {
  return Math.round((2000 * Math.exp(wealth / 12) * span(rng, 0.85, 1.15)) / 100) * 100;
}

export interface SecretTemplate {
  text: (s: string, h: string, office: string) => string;
  legal: number;
  pub: number;
  half: number;
}

export const SECRET_TEMPLATES: SecretTemplate[] = [
  { text: (s, _h, o) => `${s} took a bribe of forty thousand denarii while ${o}.`, legal: 0.75, pub: 0.6, half: 6 },
  { text: (s, h) => `${s} owes ${h} more than he can repay and has pledged his Tusculan estate in secret.`, legal: 0.3, pub: 0.5, half: 5 },
  { text: (s) => `${s} forged a codicil to a kinsman's will.`, legal: 0.8, pub: 0.7, half: 8 },
  { text: (s) => `${s} writes in cipher to a declared enemy of the Senate.`, legal: 0.55, pub: 0.75, half: 4 },
  { text: (s) => `${s} paid the divisores of three tribes at the last election.`, legal: 0.7, pub: 0.5, half: 5 },
  { text: (s, h) => `${s} and ${h} were lovers while both were married to others.`, legal: 0.15, pub: 0.7, half: 7 },
  { text: (s) => `${s} skimmed the grain money meant for the aediles' distribution.`, legal: 0.65, pub: 0.8, half: 5 },
  { text: (s) => `${s} hid a runaway witness in a villa outside the city.`, legal: 0.6, pub: 0.45, half: 4 },
  { text: (s, h) => `${s} bought the silence of ${h} after a death at a dinner party.`, legal: 0.7, pub: 0.65, half: 6 },
  { text: (s) => `${s} consulted a Chaldean astrologer about the consuls' deaths.`, legal: 0.5, pub: 0.6, half: 4 },
];
