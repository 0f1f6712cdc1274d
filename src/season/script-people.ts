import { KIN_WORDS, PRAENOMINA, vocatives } from '../core/forms-of-address.js';
import type { ScriptDoc } from './script-model.js';

/**
 * Reads committed scripts against the world for the errors a showrunner catches on the page
 * (issue 17, item 6): a line said by two different characters in one episode, a character
 * addressed by a praenomen nobody in the scene bears ("Gaius" said to Crassus), and a kin word
 * used as a form of address ("Mother") where the world declares no kin in the scene. Pure: the
 * caller parses the scripts (parseScriptMarkdown) and passes the world's people.
 *
 * Pronouns are not checked yet: the world does not declare characters' gender.
 */
export interface PersonOnPage {
  id: string;
  name: string; // "Marcus Licinius Crassus"
  cue: string; // "CRASSUS"
}

export interface PeopleFinding {
  kind: 'recycled_line' | 'wrong_praenomen' | 'kin_address';
  episode: string;
  scene: string;
  cue: string;
  text: string;
  detail: string;
}

/** Normalized for comparison: case, punctuation and spacing do not make a line new. */
function norm(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}\s]/gu, '').replace(/\s+/g, ' ').trim();
}

export interface PeopleCheckInput {
  episode: string;
  doc: ScriptDoc;
}

/**
 * `kin` holds pairs of ids the world declares family (relationships flagged kin or married are
 * not enough for "Mother": only kin counts for a kin word).
 */
export function checkPeople(episodes: PeopleCheckInput[], people: PersonOnPage[], kin: [string, string][]): PeopleFinding[] {
  const byCue = new Map(people.map((p) => [p.cue.toUpperCase(), p]));
  const byName = new Map(people.map((p) => [p.name, p]));
  const isKin = (a: string, b: string) => kin.some(([x, y]) => (x === a && y === b) || (x === b && y === a));
  const out: PeopleFinding[] = [];
  for (const { episode, doc } of episodes) {
    const said = new Map<string, { cue: string; scene: string }>();
    for (const sc of doc.scenes) {
      const cast = sc.cast.map((n) => byName.get(n) ?? people.find((p) => p.cue.toUpperCase() === n.toUpperCase())).filter((p): p is PersonOnPage => !!p);
      for (const el of sc.elements) {
        if (el.kind !== 'dialogue') continue;
        const cue = el.cue.toUpperCase();
        const speaker = byCue.get(cue);
        const base = { episode, scene: sc.id, cue, text: el.text };
        const key = norm(el.text);
        const first = said.get(key);
        if (key.split(' ').length >= 4 && first && first.cue !== cue) out.push({ ...base, kind: 'recycled_line', detail: `already said by ${first.cue} in ${first.scene}` });
        else if (!first) said.set(key, { cue, scene: sc.id });
        const others = cast.filter((p) => p.cue.toUpperCase() !== cue);
        for (const v of vocatives(el.text, PRAENOMINA)) {
          if (!others.some((p) => p.name.split(/\s+/)[0] === v)) out.push({ ...base, kind: 'wrong_praenomen', detail: `nobody else in the scene is called ${v}` });
        }
        for (const v of vocatives(el.text, KIN_WORDS)) {
          if (!speaker || !others.some((p) => isKin(speaker.id, p.id))) out.push({ ...base, kind: 'kin_address', detail: `"${v}" but the world declares no kin of ${cue} in the scene` });
        }
      }
    }
  }
  return out;
}
