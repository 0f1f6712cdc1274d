import { KIN_WORDS, PRAENOMINA, genderOf, intimate, kinVocatives, kinWordsFor, praenomenOf, vocatives } from '../core/forms-of-address.js';
import type { Gender } from '../domain/world.js';
import type { ScriptDoc, ScriptScene } from './script-model.js';
import { narrationPronouns, placeFindings, quotedSpeech, secretQuotes, type PlaceOnPage } from './script-reading.js';

/**
 * Reads committed scripts against the world for the errors a showrunner catches on the page
 * (issue 17, item 6). It reads text the way any writer, model or offline, puts it down: cue lines
 * and quoted speech in narration, narration sentences, scene headings.
 *   - recycled_line: one line (or one long sentence of a line) said by two different characters
 *   - wrong_praenomen: a praenomen used as a vocative that nobody else in the scene bears, or said
 *     to someone who is no intimate of the speaker (family, spouse, lover, friend)
 *   - kin_address: "Mother", "brother", "Wife"… said to nobody in the scene with that tie
 *   - pronoun: narration calls a named character "he"/"him" or "she"/"her" against their gender
 *   - secret_quoted_twice: a secret's words appear twice in one episode (quote once, then refer)
 *   - misplaced_place: a scene under one place's heading opens in another place
 * Pure: the caller parses the scripts (parseScriptMarkdown) and passes the world.
 */
export interface PersonOnPage {
  id: string;
  name: string; // "Marcus Licinius Crassus"
  cue: string; // "CRASSUS"
  gender?: Gender;
}

export interface PeopleWorld {
  people: PersonOnPage[];
  /** Relationship edges with their flags (married, lovers, sibling, parent, child, kin…). */
  ties?: { from: string; to: string; flags: string[] }[];
  places?: PlaceOnPage[];
  secrets?: { id: string; text: string }[];
}

export type PeopleFindingKind = 'recycled_line' | 'wrong_praenomen' | 'kin_address' | 'pronoun' | 'secret_quoted_twice' | 'misplaced_place';

export interface PeopleFinding {
  kind: PeopleFindingKind;
  episode: string;
  scene: string;
  cue: string;
  text: string;
  detail: string;
}

export interface PeopleCheckInput {
  episode: string;
  doc: ScriptDoc;
}

/** Normalized for comparison: case, punctuation and spacing do not make a line new. */
export function norm(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}\s]/gu, ' ').replace(/\s+/g, ' ').trim();
}

/** A line, and its sentences long enough to be recognised when said again elsewhere. */
function sayings(text: string): string[] {
  const whole = norm(text);
  const out = whole.split(' ').length >= 4 ? [whole] : [];
  for (const s of text.split(/(?<=[.!?])\s+/)) {
    const k = norm(s);
    if (k !== whole && k.split(' ').length >= 6) out.push(k);
  }
  return out;
}

/** `scope: 'season'` also holds lines across episodes (one map for the whole run). */
export function checkPeople(episodes: PeopleCheckInput[], world: PeopleWorld, opts: { scope?: 'episode' | 'season' } = {}): PeopleFinding[] {
  const out: PeopleFinding[] = [];
  let said = new Map<string, { cue: string; where: string }>();
  for (const { episode, doc } of episodes) {
    if (opts.scope !== 'season') said = new Map();
    for (const sc of doc.scenes) {
      const cast = castOf(sc, world.people);
      for (const u of utterances(sc, world.people)) {
        const base = { episode, scene: sc.id, cue: u.cue, text: u.text };
        for (const key of sayings(u.text)) {
          const first = said.get(key);
          if (first && first.cue !== u.cue) out.push({ ...base, kind: 'recycled_line', detail: `already said by ${first.cue} in ${first.where}` });
          else if (!first) said.set(key, { cue: u.cue, where: `${episode} ${sc.id}` });
        }
        out.push(...addressFindings(u, cast, world).map((f) => ({ ...base, ...f })));
      }
      for (const f of narrationPronouns(sc, world.people, world.places ?? [])) out.push({ episode, scene: sc.id, cue: '', kind: 'pronoun', ...f });
      for (const f of placeFindings(sc, world.places ?? [])) out.push({ episode, scene: sc.id, cue: '', kind: 'misplaced_place', ...f });
    }
    if (opts.scope !== 'season') for (const f of secretQuotes(doc, world.secrets ?? [])) out.push({ episode, cue: '', kind: 'secret_quoted_twice', ...f });
  }
  if (opts.scope === 'season') {
    // One document of every episode's scenes, named "s01e03 SC04", so a secret quoted in two episodes counts twice.
    const all = { title: 'season', scenes: episodes.flatMap(({ episode, doc }) => doc.scenes.map((sc) => ({ ...sc, id: `${episode} ${sc.id}` }))) };
    for (const f of secretQuotes(all, world.secrets ?? [])) out.push({ episode: f.scene.split(' ')[0]!, cue: '', kind: 'secret_quoted_twice', ...f });
  }
  return out;
}

function castOf(sc: ScriptScene, people: PersonOnPage[]): PersonOnPage[] {
  return sc.cast.map((n) => people.find((p) => p.name === n) ?? people.find((p) => p.cue.toUpperCase() === n.toUpperCase())).filter((p): p is PersonOnPage => !!p);
}

/** Cue lines, and speech quoted in narration with its one named speaker ("Servilia turns. “Gaius, not here.”"). */
function utterances(sc: ScriptScene, people: PersonOnPage[]): { cue: string; text: string }[] {
  const out: { cue: string; text: string }[] = [];
  for (const el of sc.elements) {
    if (el.kind === 'dialogue') out.push({ cue: el.cue.toUpperCase(), text: el.text });
    else for (const q of quotedSpeech(el.text, people)) out.push({ cue: q.speaker.cue.toUpperCase(), text: q.text });
  }
  return out;
}

function addressFindings(u: { cue: string; text: string }, cast: PersonOnPage[], world: PeopleWorld): { kind: PeopleFindingKind; detail: string }[] {
  const speaker = world.people.find((p) => p.cue.toUpperCase() === u.cue);
  const others = cast.filter((p) => p.cue.toUpperCase() !== u.cue);
  const flags = (to: PersonOnPage) => (speaker ? world.ties?.find((t) => t.from === speaker.id && t.to === to.id)?.flags ?? [] : []);
  const out: { kind: PeopleFindingKind; detail: string }[] = [];
  for (const v of vocatives(u.text, PRAENOMINA)) {
    const bearers = others.filter((p) => praenomenOf(p.name) === v);
    if (!bearers.length) out.push({ kind: 'wrong_praenomen', detail: `nobody else in the scene is called ${v}` });
    else if (!bearers.some((p) => intimate(flags(p)))) out.push({ kind: 'wrong_praenomen', detail: `${v} is a name for intimates; the world declares no close tie from ${u.cue} to ${bearers.map((p) => p.cue).join('/')}` });
  }
  for (const v of kinVocatives(u.text)) {
    if (!KIN_WORDS.includes(v)) continue;
    if (!others.some((p) => kinWordsFor(flags(p), genderOf(p)).includes(v))) out.push({ kind: 'kin_address', detail: `"${v}" but the world declares no such tie from ${u.cue} to anyone in the scene` });
  }
  return out;
}
