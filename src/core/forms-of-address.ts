import type { Gender } from '../domain/world.js';

/**
 * How people name and address each other, from what the world declares: gender (pronouns,
 * Husband/Wife), family ties (relationship flags) and intimacy (a praenomen is for family, spouses,
 * lovers and friends; everyone else says "Crassus"). The offline writer addresses people by these
 * rules; the season's people check (season/script-people.ts) reads any script against them.
 */

/** Roman praenomina, the first names only family and intimates use. */
export const PRAENOMINA = ['Gaius', 'Marcus', 'Lucius', 'Quintus', 'Publius', 'Gnaeus', 'Decimus', 'Titus', 'Sextus', 'Aulus', 'Servius', 'Tiberius', 'Manius', 'Spurius', 'Appius', 'Numerius'];
/** Kin words that, as a form of address, claim a family tie. */
export const KIN_WORDS = ['Mother', 'Father', 'Son', 'Daughter', 'Brother', 'Sister', 'Husband', 'Wife', 'Uncle', 'Aunt'];

/** Relationship flags that make two people intimates (a praenomen between them is natural). */
export const INTIMATE_FLAGS = ['married', 'lovers', 'former_lovers', 'kin', 'sibling', 'parent', 'child', 'step', 'adopted', 'adoptive_parent', 'friend'];

/**
 * A character's gender: as declared, else male when the name starts with a praenomen (only men bore
 * one), else unknown — worlds written before the field still load, and the writers then repeat
 * the name instead of guessing a pronoun.
 */
export function genderOf(c: { name: string; gender?: Gender }): Gender | undefined {
  if (c.gender) return c.gender;
  return praenomenOf(c.name) ? 'male' : undefined;
}

/** The usual abbreviations (DPRR writes "M. Tullius Cicero"). */
const ABBREVIATED: Record<string, string> = {
  'C.': 'Gaius', 'M.': 'Marcus', 'L.': 'Lucius', 'Q.': 'Quintus', 'P.': 'Publius', 'Cn.': 'Gnaeus', 'D.': 'Decimus', 'T.': 'Titus',
  'Sex.': 'Sextus', 'A.': 'Aulus', 'Ser.': 'Servius', 'Ti.': 'Tiberius', "M'.": 'Manius', 'Sp.': 'Spurius', 'Ap.': 'Appius', 'N.': 'Numerius',
};

/** The praenomen a name starts with, written out or abbreviated ("Marcus Licinius Crassus", "M. Tullius Cicero" → "Marcus"). */
export function praenomenOf(name: string): string | undefined {
  const first = name.split(/\s+/)[0] ?? '';
  return PRAENOMINA.includes(first) ? first : ABBREVIATED[first];
}

/**
 * The kin words `speaker` may call someone by, given the flags of the speaker→addressee edge and
 * the addressee's gender. Flags describe the speaker's side ('parent': the speaker is the
 * addressee's parent, so the addressee is "Son"/"Daughter"). A bare 'kin' names no particular tie,
 * so it allows no kin word.
 */
export function kinWordsFor(flags: readonly string[], addressee: Gender | undefined): string[] {
  const by = (m: string, f: string) => (addressee === 'male' ? [m] : addressee === 'female' ? [f] : [m, f]);
  const out: string[] = [];
  if (flags.includes('married')) out.push(...by('Husband', 'Wife'));
  if (flags.includes('parent') || flags.includes('adoptive_parent')) out.push(...by('Son', 'Daughter'));
  if (flags.includes('child') || flags.includes('adopted')) out.push(...by('Father', 'Mother'));
  if (flags.includes('sibling')) out.push(...by('Brother', 'Sister'));
  return out;
}

export function intimate(flags: readonly string[]): boolean {
  return flags.some((f) => INTIMATE_FLAGS.includes(f));
}

/** Words used as a vocative: set off by commas or ending the sentence ("Gaius, …", "…, Mother."). */
export function vocatives(line: string, words: readonly string[], flags = 'g'): string[] {
  const alt = words.join('|');
  const re = new RegExp(`(?:^|[,;:—–-]\\s*|[.!?]\\s+)(?:my\\s+)?(${alt})(?=\\s*[,.!?;—–]|$)`, flags);
  return [...line.matchAll(re)].map((m) => m[1]!);
}

/** Kin words as vocatives, in any case ("Listen, brother."), returned capitalised. */
export function kinVocatives(line: string): string[] {
  return vocatives(line, KIN_WORDS, 'gi').map((w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase());
}

export interface Addressee {
  name: string;
  gender?: Gender;
}

/**
 * Whether a line may be said to `addressee` (undefined when nobody is addressed), `flags` being
 * the speaker→addressee relationship flags: every praenomen it uses as a vocative is the
 * addressee's and the two are intimates, and every kin word fits the declared tie.
 */
export function vocativesFit(line: string, addressee: Addressee | undefined, flags: readonly string[] = []): boolean {
  const kin = kinVocatives(line);
  if (kin.length && (!addressee || !kin.every((k) => kinWordsFor(flags, genderOf(addressee)).includes(k)))) return false;
  const praenomina = vocatives(line, PRAENOMINA);
  if (!praenomina.length) return true;
  return !!addressee && intimate(flags) && praenomina.every((v) => v === praenomenOf(addressee.name));
}

/**
 * What the speaker calls the addressee to their face: the praenomen between intimates, else the
 * short name (a woman's name is her nomen anyway: "Servilia", "Terentia").
 */
export function formOfAddress(addressee: Addressee, short: string, flags: readonly string[]): string {
  const p = praenomenOf(addressee.name);
  return p && intimate(flags) ? p : short;
}

export type PronounForm = 'he' | 'him' | 'his' | 'himself';

const PRONOUNS: Record<Gender, Record<PronounForm, string>> = {
  male: { he: 'he', him: 'him', his: 'his', himself: 'himself' },
  female: { he: 'she', him: 'her', his: 'her', himself: 'herself' },
};

/** A pronoun for someone of this gender; undefined when the world does not say (use the name). */
export function pronoun(gender: Gender | undefined, form: PronounForm): string | undefined {
  return gender ? PRONOUNS[gender][form] : undefined;
}
