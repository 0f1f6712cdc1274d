import { genderOf } from '../core/forms-of-address.js';
import type { Gender } from '../domain/world.js';
import type { ScriptDoc, ScriptScene } from './script-model.js';
import { escapeRegExp } from '../core/regex.js';

/**
 * The readings behind the people check (script-people.ts): who a narration sentence is about,
 * who speaks a quote, where a scene opens, where a secret's words recur. General text rules, not
 * the offline writer's phrases, so they hold on model prose too.
 */

export interface PlaceOnPage {
  id: string;
  name: string; // "Campus Martius", "The Subura"
  description: string;
}

interface Named {
  id: string;
  name: string;
  cue: string;
  gender?: Gender;
}

/** The words a person is called by in narration: full name, each name part of two letters or more, the cue. */
function callings(p: Named): string[] {
  const cue = p.cue.charAt(0) + p.cue.slice(1).toLowerCase();
  return [...new Set([p.name, ...p.name.split(/\s+/).filter((w) => w.length > 2 && !w.endsWith('.')), cue])];
}

const word = (w: string) => new RegExp(`(?<![\\p{L}])${escapeRegExp(w)}(?![\\p{L}])`, 'u');

/** People named in a text, by any of their names (a praenomen alone names nobody: many share it). */
export function namedIn(text: string, people: Named[]): Named[] {
  return people.filter((p) => callings(p).filter((c) => !/^(Gaius|Marcus|Lucius|Quintus|Publius|Gnaeus|Decimus|Titus|Sextus|Aulus|Servius|Tiberius)$/.test(c)).some((c) => word(c).test(text)));
}

const MALE = /\b(he|him|his|himself)\b/i;
const FEMALE = /\b(she|her|hers|herself)\b/i;
/** Nouns for other people a pronoun could point to ("the consul … his rod"). */
const MALE_NOUNS = /\b(man|men|boy|father|son|brother|husband|consul|senator|praetor|lictor|slave|freedman|centurion|soldier|priest|clerk|steward|doorkeeper|scribe|usher|magistrate|juror|tribune|general|guard|messenger|runner|boatman|baker|god|king|master|stranger|secretary|friend|client|patron|prosecutor|witness|informer)s?\b/i;
const FEMALE_NOUNS = /\b(woman|women|girl|mother|daughter|sister|wife|maid|matron|priestess|vestal|goddess|lady|domina|widow|mistress|nurse|slave girl)s?\b/i;

/**
 * Narration clauses that name people of one gender only and use only the other gender's pronouns,
 * with no other candidate in sight: nobody of the pronoun's gender in the cast or named in the
 * clause before, no common noun for such a person ("the consul … his rod"), no capitalised name
 * the world does not know.
 */
export function narrationPronouns(sc: ScriptScene, people: Named[], places: PlaceOnPage[]): { text: string; detail: string }[] {
  const out: { text: string; detail: string }[] = [];
  const known = new Set([...people.flatMap((p) => p.name.split(/\s+/)), ...people.map((p) => p.cue.charAt(0) + p.cue.slice(1).toLowerCase()), ...places.flatMap((l) => l.name.split(/\s+/))]);
  const cast = sc.cast.map((n) => people.find((p) => p.name === n || p.cue.toUpperCase() === n.toUpperCase())).filter((p): p is Named => !!p);
  for (const el of sc.elements) {
    if (el.kind !== 'action') continue;
    let before: Named[] = [];
    for (const s of el.text.replace(/[“"][^”"]*[”"]/g, ' ').split(/(?<=[.!?;])\s+/)) {
      const named = namedIn(s, people);
      const prior = before;
      before = named;
      const genders = new Set(named.map((p) => genderOf(p)));
      if (named.length === 0 || genders.size !== 1 || genders.has(undefined)) continue;
      const g = [...genders][0];
      const m = (g === 'male' ? FEMALE : MALE).exec(s);
      if (!m || (g === 'male' ? MALE : FEMALE).test(s) || (g === 'male' ? FEMALE_NOUNS : MALE_NOUNS).test(s)) continue;
      const other = [...cast.filter((p) => !named.includes(p)), ...prior].some((p) => genderOf(p) !== g);
      const strangers = [...s.matchAll(/(?<=\s)\p{Lu}\p{L}+/gu)].map((x) => x[0]).filter((w) => !known.has(w) && !/^(I|Rome|Roman|Senate|Forum|Curia)$/.test(w));
      if (other || strangers.length) continue;
      out.push({ text: s, detail: `"${m[1]}" for ${named.map((p) => p.cue).join('/')} (${g})` });
    }
  }
  return out;
}

/** Speech in quotation marks inside narration, with the one person named before it in the paragraph. */
export function quotedSpeech(text: string, people: Named[]): { speaker: Named; text: string }[] {
  const out: { speaker: Named; text: string }[] = [];
  for (const m of text.matchAll(/[“"]([^”"]{3,})[”"]/g)) {
    const before = text.slice(0, m.index).split(/(?<=[.!?])\s+/).slice(-2).join(' ');
    // A quote inside a sentence ("hands Cato the secret (\"…\")") is a text, not speech.
    if (/\(\s*$/.test(before)) continue;
    const who = namedIn(before, people);
    if (who.length === 1) out.push({ speaker: who[0]!, text: m[1]!.trim() });
  }
  return out;
}

/** The location a heading names ("EXT. CAMPUS MARTIUS - DAY"), the longest name that fits. */
export function placeOfHeading(heading: string, places: PlaceOnPage[]): PlaceOnPage | undefined {
  const h = heading.toUpperCase();
  return [...places].sort((a, b) => b.name.length - a.name.length).find((l) => h.includes(l.name.toUpperCase()) || h.includes(l.name.replace(/^The\s+/i, '').toUpperCase()));
}

const norm = (t: string) => t.toLowerCase().replace(/[^\p{L}\p{N}\s]/gu, ' ').replace(/\s+/g, ' ').trim();

/** Runs of `n` words of a text, for recognising a quoted passage. */
function shingles(text: string, n: number): string[] {
  const w = norm(text).split(' ');
  const out: string[] = [];
  for (let i = 0; i + n <= w.length; i++) out.push(w.slice(i, i + n).join(' '));
  return out;
}

/**
 * A scene whose opening paragraph sets it somewhere else: "in/at the Subura" under a Campus
 * Martius heading, or eight words of another place's description. The heading place's own
 * description may name its neighbours (the Curia is "on the edge of the Forum").
 */
export function placeFindings(sc: ScriptScene, places: PlaceOnPage[]): { text: string; detail: string }[] {
  const here = placeOfHeading(sc.heading, places);
  const first = sc.elements.find((e) => e.kind === 'action');
  if (!here || !first) return [];
  const opening = first.text.split(here.description).join(' ');
  const out: { text: string; detail: string }[] = [];
  for (const other of places) {
    if (other.id === here.id || here.name.includes(other.name.replace(/^The\s+/i, ''))) continue;
    const bare = other.name.replace(/^The\s+/i, '');
    const setIn = new RegExp(`\\b(in|at|inside|within|into|through)\\s+(the\\s+)?${escapeRegExp(bare)}\\b`, 'i').test(opening);
    const own = shingles(opening, 8);
    const described = other.description && shingles(other.description, 8).some((s) => own.includes(s));
    if (setIn || described) out.push({ text: first.text, detail: `a scene at ${here.name} opens ${setIn ? 'in' : 'with the description of'} ${other.name}` });
  }
  return out;
}

/** Secrets whose words (their text, or twelve words running of it) appear more than once in an episode. */
export function secretQuotes(doc: ScriptDoc, secrets: { id: string; text: string }[]): { scene: string; text: string; detail: string }[] {
  const out: { scene: string; text: string; detail: string }[] = [];
  const scenes = doc.scenes.map((sc) => ({ id: sc.id, text: norm(sc.elements.map((e) => e.text).join(' ')) }));
  for (const s of secrets) {
    const key = norm(s.text);
    const probe = key.split(' ').length > 12 ? key.split(' ').slice(0, 12).join(' ') : key;
    if (probe.split(' ').length < 5) continue;
    const hits = scenes.flatMap((sc) => Array.from({ length: sc.text.split(probe).length - 1 }, () => sc.id));
    if (hits.length > 1) out.push({ scene: hits[1]!, text: s.text, detail: `${s.id} quoted ${hits.length} times (${hits.join(', ')}); quote once, then refer to it` });
  }
  return out;
}
