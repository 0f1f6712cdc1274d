import type { DprrPerson } from './tables.js';

/**
 * Readable Roman names from DPRR's scholarly name parts. DPRR keeps editorial marks — "(Augurinus)"
 * for a doubtful cognomen, "Scantius or Scantinius", "-" for a lost nomen, "?" — which a script
 * cannot show. We keep the first reading of each part and drop the marks; the DPRR id stays in the
 * character's description so nothing is lost.
 */
const PRAENOMEN_ABBR: Record<string, string> = {
  Lucius: 'L.', Gaius: 'C.', Marcus: 'M.', Publius: 'P.', Quintus: 'Q.', Gnaeus: 'Cn.', Titus: 'T.',
  Aulus: 'A.', Sextus: 'Sex.', Manius: "M'.", Spurius: 'Sp.', Tiberius: 'Ti.', Servius: 'Ser.',
  Decimus: 'D.', Appius: 'Ap.', Numerius: 'N.', Caeso: 'K.', Mamercus: 'Mam.',
};

/** First reading of a name part, editorial marks removed; '' if nothing usable is left. */
export function cleanNamePart(raw: string): string {
  let s = raw.trim();
  if (s === '' || s === '-' || s.toLowerCase() === 'missing') return '';
  // "Viscellius (or Visellius)" / "Scantius or Scantinius" / "(Veturius) or (Publilius)": first reading.
  s = s.split(/\s+or\s+|\s+\(or\s+/)[0];
  // "Mallius (Manlius)": drop a parenthesised alternative that follows a reading.
  s = s.replace(/\s+\([^)]*\)\s*$/, '');
  // "(Augurinus)", "Capito(linus)", "M(aia)nius": keep the letters, drop the marks.
  s = s.replace(/[()?[\]]/g, '').replace(/\./g, '').trim();
  if (/^-/.test(s) || !/^[A-Za-z][A-Za-z' -]*$/.test(s)) return '';
  return s.split(/\s+/).filter(Boolean).join(' ');
}

export interface RomanName {
  /** "M. Tullius Cicero" */
  name: string;
  /** Dialogue cue: the cognomen (or nomen) in capitals: "CICERO". Made unique by the caller. */
  cue: string;
  /** Longer cue for collisions: "MARCUS CICERO". */
  longCue: string;
  /** The path-safe id stem: "m_tullius_cicero". */
  stem: string;
}

export function romanName(p: DprrPerson): RomanName {
  const praenomen = cleanNamePart(p.praenomen);
  const nomen = cleanNamePart(p.nomen);
  const cognomen = cleanNamePart(p.cognomen);
  const other = cleanNamePart(p.other_names);
  const abbr = praenomen ? (PRAENOMEN_ABBR[praenomen] ?? praenomen) : '';
  const parts = [abbr, nomen, cognomen, other].filter(Boolean);
  const name = parts.length ? parts.join(' ') : p.dprr_id;
  const cueWord = cognomen || nomen || other || p.dprr_id;
  const cue = cueWord.toUpperCase();
  const longCue = praenomen ? `${praenomen} ${cueWord}`.toUpperCase() : cue;
  const stem = slug([abbr, nomen, cognomen].filter(Boolean).join(' ')) || slug(p.dprr_id);
  return { name, cue, longCue, stem };
}

/** Lower-case ASCII [a-z0-9_]: ids become file names, git refs and delta path segments. */
export function slug(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 48);
}

/** Character id: name stem + DPRR person number ("m_tullius_cicero_2072"); unique because person ids are. */
export function characterId(p: DprrPerson): string {
  return `${romanName(p).stem}_${p.person_id}`;
}
