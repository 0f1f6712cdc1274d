import type { VerifyContext } from '../context.js';
import { KIN_WORDS, praenomenOf } from '../../../core/forms-of-address.js';
import { lexiconTags } from './parse.js';
import { SAID_VERB, TOLD } from './said.js';
import type { PersonIndex } from './names.js';

/*
 * A said-tag whose speaker is named by a name nobody the scene knows bears ('"The ships are late," says Gnaeus
 * Plautius', 'Plautius said, "Move."'): a person the Writer invented, speaking in narration as a cue line's unknown
 * speaker does (AUR5012, rules/prose-strangers.ts). Read only where the reader found no known speaker and no pronoun's
 * tag before it (reader.ts). A capitalised word there is not a person when it is an English word compromise knows
 * ("Nobody answers", "Mother said", "Rome cries"), a god, a title used as a name ("Domina says"), a place the world
 * knows, or a word of a known person's name (names.ts nameWords: a shared form is still someone known).
 */

/** A said-tag's speaker the person index does not know: the name as written, and whether it surely names a person. */
export interface Stranger {
  name: string;
  sure: boolean;
  /** The tag's verb is in the past ("said", "snapped"): in a scene told in the present, a line remembered, not said now. */
  past: boolean;
}

/** Gods and deified things a line may call on or a vision give a voice: never an extra the Writer invented. */
const GODS = new Set(
  'jupiter jove juno minerva mars venus apollo diana mercury mercurius neptune vulcan vesta ceres bacchus liber pluto dis proserpina janus saturn saturnus quirinus hercules castor pollux fortuna bellona cupid amor victoria fides concordia pax spes salus lares penates manes lemures orcus sol luna aurora faunus pan priapus isis cybele magna mater'.split(' '),
);
/** Roman titles and forms of address a tag may name someone by, which compromise's English lexicon does not know. */
const TITLES = new Set(
  'domina dominus consul proconsul senator tribune praetor propraetor quaestor aedile censor dictator lictor centurion legate imperator pontifex augur haruspex flamen vestal matrona patronus patrona optio decurion prefect praefectus magister'.split(' '),
);
/** compromise's tags for a person's name: a word it knows only so ("Minerva" is a FemaleName) may still be a name. */
const NAME_TAGS = ['FirstName', 'MaleName', 'FemaleName', 'LastName', 'Person'];
const KIN = new Set(KIN_WORDS.map((w) => w.toLowerCase()));

/** A capitalised word, or an abbreviated praenomen ("Cn.", "M."). */
const WORD = String.raw`(?:\p{Lu}\p{Ll}{0,3}\.|\p{Lu}[\p{Ll}'’]+)`;
const PHRASE = String.raw`${WORD}(?:\s+${WORD}){0,3}`;
/** A name that opens its clause and says the tag's verb ('Plautius said, "…"', '"…," Lucius Vettius snapped.'). */
const NAME_THEN_VERB = new RegExp(String.raw`(?<![\p{L}'’.])(${PHRASE})\s+(?:\p{Ll}+ly\s+)?(${SAID_VERB}\b|${TOLD})`, 'gu');
/** The verb right after the quotation, then its speaker ('"…," says Gnaeus Plautius'). */
const VERB_THEN_NAME = new RegExp(String.raw`"…"[*_,.!?…:;\s—–-]*(?:\p{Ll}+ly\s+)?(${SAID_VERB})\s+(${PHRASE})`, 'gu');
/** What may stand before a name that opens its clause: the sentence's start, a quotation and its stop, a dash. */
const OPENS = /(?:^|"…"|[,.!?…:;—–-])[\s"“”'‘’*_]*$/u;

type Kind = 'praenomen' | 'name' | 'known' | 'other';

function kindOf(word: string, index: PersonIndex, places: ReadonlySet<string>): Kind {
  const w = word.toLowerCase().replace(/['’]$/, '');
  if (praenomenOf(word)) return 'praenomen';
  if (index.nameWords.has(w.replace(/\.$/, '')) || index.forms.has(w)) return 'known';
  // An adverb opening the clause ("Suddenly Plautius said") is in no name.
  if (GODS.has(w) || TITLES.has(w) || KIN.has(w) || places.has(w) || w.endsWith('ly')) return 'other';
  // A word compromise knows only as a person's name ("Minerva", "Diana" are names to it) may be one; any other it knows is not.
  const tags = lexiconTags(w);
  if (tags.length && !tags.some((t) => NAME_TAGS.includes(t))) return 'other';
  return 'name';
}

/**
 * The person a phrase names, if it is an unknown person's name: its leading words that are no name ("Then Plautius")
 * dropped; every other word a name or a praenomen, one at least a name and none a known person's.
 */
function strangerIn(phrase: string, verb: string, index: PersonIndex, places: ReadonlySet<string>): Stranger | null {
  const words = phrase.split(/\s+/);
  const kinds = words.map((w) => kindOf(w, index, places));
  const from = kinds.findIndex((k) => k !== 'other');
  if (from < 0) return null;
  // "The Aquila answered", "His Sempronius says": a ship or a thing of someone's, no one's name.
  if (words.slice(0, from).some((w) => lexiconTags(w.toLowerCase()).some((t) => t === 'Determiner' || t === 'Possessive'))) return null;
  const rest = kinds.slice(from);
  if (rest.some((k) => k === 'other' || k === 'known') || !rest.includes('name')) return null;
  const name = words.slice(from).join(' ');
  const names = rest.filter((k) => k === 'name').length;
  // A praenomen and a name, two names, or a gentile name's ending: a Roman's name. Else (Davus, Syrus) a name most likely.
  const sure = rest[0] === 'praenomen' || names >= 2 || /(?:ius|ia)$/u.test(name);
  return { name, sure, past: /^(?:said|told|asked|\p{Ll}+ed)$/u.test(verb.split(/\s+/)[0]!) };
}

/** The words of the world's place names and the scene's own ("Rome", "Ostia", "Subura"), lower case. */
function placeWords(ctx: VerifyContext): Set<string> {
  const names = [...(ctx.locations ?? []).map((l) => l.name), ctx.packet.setting.location_name];
  return new Set(names.flatMap((n) => n.toLowerCase().split(/[^\p{L}]+/u)).filter((w) => w.length >= 3));
}

/**
 * The stranger a sentence's said-tag names (`narr`: the sentence with its quotations blanked), the first in the
 * sentence; null when none. A name after "the", a possessive or a preposition ("the Fortuna answered", "Plautius's
 * wife says") is not read: the clause opens on it, or it follows the verb right after the quotation.
 */
export function strangerSaid(narr: string, index: PersonIndex, ctx: VerifyContext): (Stranger & { start: number }) | null {
  if (!narr.includes('"…"')) return null;
  const places = placeWords(ctx);
  const found: (Stranger & { start: number })[] = [];
  for (const m of narr.matchAll(NAME_THEN_VERB)) {
    if (!OPENS.test(narr.slice(0, m.index))) continue;
    const s = strangerIn(m[1]!, m[2]!, index, places);
    if (s) found.push({ ...s, start: m.index! });
  }
  for (const m of narr.matchAll(VERB_THEN_NAME)) {
    const at = m.index! + m[0].length;
    if (/^['’]s?\b/u.test(narr.slice(at))) continue;
    const s = strangerIn(m[2]!, m[1]!, index, places);
    if (s) found.push({ ...s, start: at - m[2]!.length });
  }
  return found.sort((a, b) => a.start - b.start)[0] ?? null;
}
