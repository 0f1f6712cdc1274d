/**
 * Forms of address that claim a tie: a praenomen (only family and intimates use it) or a kin
 * word ("Mother"). The offline writer borrows a character's sample line only when its vocatives
 * fit the person spoken to; the season's people check (season/script-people.ts) reads scripts for them.
 */
/** Roman praenomina, the first names only family and intimates use. */
export const PRAENOMINA = ['Gaius', 'Marcus', 'Lucius', 'Quintus', 'Publius', 'Gnaeus', 'Decimus', 'Titus', 'Sextus', 'Aulus', 'Servius', 'Tiberius', 'Manius', 'Spurius', 'Appius', 'Numerius'];
/** Kin words that, as a form of address, claim a family tie. */
export const KIN_WORDS = ['Mother', 'Father', 'Son', 'Daughter', 'Brother', 'Sister', 'Husband', 'Wife', 'Uncle', 'Aunt'];

/** Words used as a vocative: set off by commas or ending the sentence ("Gaius, …", "…, Mother."). */
export function vocatives(line: string, words: readonly string[]): string[] {
  const alt = words.join('|');
  const re = new RegExp(`(?:^|[,;:—–-]\\s*|[.!?]\\s+)(${alt})(?=\\s*[,.!?;—–]|$)`, 'g');
  return [...line.matchAll(re)].map((m) => m[1]!);
}

/**
 * Whether a line may be said to `addresseeName` (a full name, or undefined when nobody is
 * addressed): every praenomen it uses as a vocative is the addressee's, and it claims no kinship
 * (the world declares no family in a form the line could be checked against).
 */
export function vocativesFit(line: string, addresseeName: string | undefined): boolean {
  if (vocatives(line, KIN_WORDS).length) return false;
  const first = addresseeName?.split(/\s+/)[0];
  return vocatives(line, PRAENOMINA).every((v) => v === first);
}
