import type { OfficeTier } from '../model.js';

/**
 * DPRR office names → the cursus honorum tier that drives dignitas. Order matters: the first
 * matching pattern wins ("consul suffectus" is a consul, "proconsul" a praetor-level command,
 * "repulsa (cos.)" an electoral defeat and no office at all).
 */
const TIER_PATTERNS: [RegExp, OfficeTier][] = [
  [/^repulsa/, 'none'],
  [/designatus/, 'none'],
  [/^dictator/, 'dictator'],
  [/^triumvir rei publicae constituendae/, 'dictator'],
  [/^censor/, 'censor'],
  [/^consul/, 'consul'],
  [/^magister equitum/, 'praetor'],
  [/^(proconsul|praetor|propraetor|promagistrate|interrex|praefectus urbi)/, 'praetor'],
  [/^aedilis/, 'aedile'],
  [/^tribunus plebis/, 'tribune'],
  [/^(quaestor|proquaestor)/, 'quaestor'],
  [/^(pontifex|augur|virgo vestalis|rex sacrorum|flamen|decemvir sacris|quindecemvir|septemvir epulonum|epulo|haruspex|salius|fetialis|curio maximus)/i, 'priest'],
  [/^(senator|princeps senatus|legatus|iudex)/, 'senator'],
  [/^(tribunus militum|praefectus|officer|centurio|decurio|navarchus|monetalis|moneyer|triumvir|quattuorvir|quinquevir|duovir|decemvir|vigintivir|curator)/, 'officer'],
  [/^(publicanus|magister societatis|magister scripturae|redemptor|scriba)/, 'eques'],
];

export function officeTier(officeName: string): OfficeTier {
  const o = officeName.trim();
  for (const [re, tier] of TIER_PATTERNS) if (re.test(o) || re.test(o.toLowerCase())) return tier;
  return 'officer';
}

/** Base dignitas of a tier (0..100): the rank a Roman audience would grant. */
export const TIER_DIGNITAS: Record<OfficeTier, number> = {
  dictator: 97,
  censor: 94,
  consul: 88,
  praetor: 70,
  aedile: 58,
  tribune: 52,
  quaestor: 42,
  priest: 48,
  senator: 36,
  officer: 28,
  eques: 24,
  none: 12,
};

/** Tiers in rank order; a person's tier is the highest reached. */
export const TIER_ORDER: OfficeTier[] = ['dictator', 'censor', 'consul', 'praetor', 'aedile', 'tribune', 'priest', 'quaestor', 'senator', 'officer', 'eques', 'none'];

export function higherTier(a: OfficeTier, b: OfficeTier): OfficeTier {
  return TIER_ORDER.indexOf(a) <= TIER_ORDER.indexOf(b) ? a : b;
}

export const isPriesthood = (o: string) => officeTier(o) === 'priest';
export const isMilitary = (o: string) => /^(legatus \(lieutenant\)|tribunus militum|praefectus (classis|equitum|fabrum)|proconsul|propraetor|triumphator|centurio|officer|magister equitum)/.test(o);
export const isTriumph = (o: string) => /^triumphator/.test(o);
export const isDefeat = (o: string) => /^repulsa/.test(o);
/** Offices whose holders in the same year were colleagues (and rivals) in the same college. */
export const COLLEGIAL = new Set(['consul', 'consul suffectus', 'praetor', 'censor', 'tribunus plebis', 'aedilis curulis', 'aedilis plebis', 'quaestor']);

/** DPRR's annual magistracies in the English a model writes, most senior first. */
const ANNUAL: [RegExp, string][] = [
  [/^dictator$/, 'dictator'],
  [/^censor$/, 'censor'],
  [/^consul( suffectus)?$/, 'consul'],
  [/^praetor$/, 'praetor'],
  [/^aedilis (curulis|plebis)$/, 'aedile'],
  [/^tribunus plebis$/, 'tribune of the plebs'],
  [/^quaestor$/, 'quaestor'],
];

/**
 * The office a person holds in the world's year, for the prose reader's titles ("the consul"): an
 * annual magistracy begun that year, else the chief pontificate (held for life) begun by then.
 * DPRR years are negative for BC.
 */
export function officeInYear(offices: { name: string; year: number }[], yearBc: number): string | undefined {
  const now = offices.filter((o) => o.year === -yearBc);
  for (const [re, english] of ANNUAL) if (now.some((o) => re.test(o.name))) return english;
  return offices.some((o) => o.name === 'pontifex maximus' && o.year <= -yearBc) ? 'pontifex maximus' : undefined;
}
