import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findMentions, personIndex, type PersonIndex } from '../../../src/stages/f-verifier/prose/names.js';
import { Rng } from '../../../src/core/rng.js';
import { ctx, packet } from './helpers.js';
import type { KnownCharacter, VerifyContext } from '../../../src/stages/f-verifier/context.js';
import { whoIndex } from '../../../src/stages/f-verifier/rules/presence.js';
import { normalizeCue } from '../../../src/stages/f-verifier/dialogue.js';

// Name mentions are found by looking each word of the text up (issue 18, seventeenth pass), not by
// one regex alternation of every form in the world. The reference below is that regex as it was:
// the look-up must give the very same mentions, on real prose and on text built to break it.
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const oneRegex = new WeakMap<PersonIndex, RegExp>();
function byOneRegex(text: string, idx: PersonIndex): { id: string; start: number; text: string }[] {
  let re = oneRegex.get(idx);
  if (!re) oneRegex.set(idx, (re = new RegExp(`(?<![\\p{L}])(${[...idx.forms.keys(), ...idx.shared.keys()].sort((a, b) => b.length - a.length).map(escape).join('|')})(?![\\p{L}])`, 'giu')));
  const out: { id: string; start: number; text: string }[] = [];
  for (const m of text.matchAll(re)) {
    if (!/^\p{Lu}/u.test(m[0])) continue;
    const id = idx.forms.get(m[0].toLowerCase());
    if (id) out.push({ id, start: m.index!, text: m[0] });
  }
  return out;
}
const names = (text: string, idx: PersonIndex) => findMentions(text, idx).filter((m) => !idx.titles.size || idx.forms.has(m.text.toLowerCase())).map(({ id, start, text: t }) => ({ id, start, text: t }));


/**
 * The forms and shared forms as personIndex built them before the world's part was kept (0a0b187,
 * with the shared names and praenomen abbreviations of the same pass): every person, world and
 * packet, merged for each scene.
 */
function oldForms(c: VerifyContext): { forms: Map<string, string>; shared: Map<string, string[]> } {
  const PRAE = new Set(['marcus', 'gaius', 'lucius', 'publius', 'quintus', 'gnaeus', 'titus', 'decimus', 'servius', 'aulus', 'sextus', 'tiberius', 'appius', 'manius', 'spurius', 'numerius', 'mamercus', 'ser', 'sex', 'app', 'mam', 'num']);
  const ENG: Record<string, string[]> = { catilina: ['catiline'], pompeius: ['pompey'], antonius: ['antony', 'mark antony', 'marc antony'], octavius: ['octavian'], octavianus: ['octavian'], vergilius: ['virgil'], horatius: ['horace'], livius: ['livy'], ovidius: ['ovid'], terentius: ['terence'], sulla: ['sylla'], tullius: ['tully'], sallustius: ['sallust'], plinius: ['pliny'] };
  const formsOf = (name: string, cue?: string) => {
    const parts = name.toLowerCase().replace(/\./g, '').split(/\s+/).filter(Boolean);
    const out = new Set<string>([parts.join(' ')]);
    for (let i = 0; i < parts.length; i++) for (let j = i + 2; j <= parts.length; j++) out.add(parts.slice(i, j).join(' '));
    if (PRAE.has(parts[0]!)) for (const x of parts.slice(2)) if (x.length >= 3) out.add(`${parts[0]} ${x}`);
    for (const x of parts.filter((x) => x.length >= 3 && !PRAE.has(x))) {
      out.add(x);
      for (const e of ENG[x] ?? []) out.add(e);
      // Added with "Tully" (session 41's audit): DPRR's consonantal I as English prose writes it, J.
      if (/^i[aeiou]/.test(x)) out.add(`j${x.slice(1)}`);
    }
    if (cue) out.add(cue.toLowerCase());
    return [...out].filter((f) => f.length >= 3 && !PRAE.has(f));
  };
  const byId = new Map<string, { name: string; inCast: boolean }>();
  const add = (id: string, name: string, inCast = false) => byId.set(id, { name, inCast: inCast || (byId.get(id)?.inCast ?? false) });
  const p = c.packet;
  for (const x of c.characters ?? []) add(x.id, x.name);
  for (const x of p.retrieved_subgraph.characters) add(x.id, x.name);
  for (const d of p.dead) add(d.id, d.name);
  for (const x of p.cast) add(x.id, x.name, true);
  const cues = new Map<string, string>();
  for (const x of [...p.cast, ...p.dead, ...(c.characters ?? [])]) if (!cues.has(x.id)) cues.set(x.id, x.cue);
  const owners = new Map<string, Set<string>>();
  for (const [id, x] of byId) for (const f of formsOf(x.name, cues.get(id))) (owners.get(f) ?? owners.set(f, new Set()).get(f)!).add(id);
  const forms = new Map<string, string>();
  const shared = new Map<string, string[]>();
  for (const [f, ids] of owners) {
    const list = [...ids];
    const cast = list.filter((id) => byId.get(id)!.inCast);
    if (list.length === 1) forms.set(f, list[0]!);
    else if (cast.length === 1) forms.set(f, cast[0]!);
    else if (f.includes(' ')) shared.set(f, list.sort());
  }
  return { forms, shared };
}

/** The crowded world's scenes: its own packet, one whose cast and dead are namesakes of the crowd, renamed and recued, and newcomers the world does not know. */
function scenes(base: VerifyContext): VerifyContext[] {
  const crowd = base.characters!.slice(5);
  const pk = base.packet;
  const [a, b, c, d] = [crowd[3]!, crowd[10]!, crowd[42]!, crowd[77]!];
  const castOf = (x: typeof a, extra: Partial<(typeof pk.cast)[number]> = {}) => ({ ...pk.cast[0]!, id: x.id, name: x.name, cue: x.cue, status: 'alive' as const, ...extra });
  return [
    base,
    { ...base, packet: { ...pk, cast: [castOf(a), castOf(b, { name: 'Gaius Sergius Murena', cue: 'MURENA' })], dead: [{ id: c.id, name: c.name, cue: c.cue }], retrieved_subgraph: { ...pk.retrieved_subgraph, characters: [...pk.retrieved_subgraph.characters, { ...pk.retrieved_subgraph.characters[0]!, id: d.id, name: 'Lucius Cassius Gallus Minor', faction: 'optimates' }] } } },
    { ...base, packet: { ...pk, cast: [...pk.cast, castOf({ ...a, id: 'newcomer_1', name: 'Titus Ampius Balbus', cue: 'BALBUS' })], retrieved_subgraph: { ...pk.retrieved_subgraph, characters: [...pk.retrieved_subgraph.characters, { ...pk.retrieved_subgraph.characters[0]!, id: 'newcomer_2', name: 'Quintus Cornelius Scipio', faction: 'populares' }] } } },
  ];
}

const PRAENOMINA = ['Marcus', 'Gaius', 'Lucius', 'Publius', 'Quintus', 'Gnaeus', 'Sextus', 'Servius', 'Tiberius', 'Aulus', 'M.', 'C.', 'L.', 'Ser.', 'Sex.', 'Ti.'];
const NOMINA = ['Cornelius', 'Sergius', 'Cassius', 'Tullius', 'Licinius', 'Caecilius', 'Iunius', 'Claudius', 'Valerius', 'Aemilius', 'Sempronius', 'Calpurnius', 'Hortensius', 'Lucretius', "Pompeius", 'Antonius', 'Octavius', 'Terentius'];
const COGNOMINA = ['Scipio', 'Lentulus', 'Sulla', 'Murena', 'Catilina', 'Gallus', 'Longinus', 'Cicero', 'Crassus', 'Metellus', 'Silanus', 'Brutus', 'Pulcher', 'Dolabella', 'Torquatus', 'Cethegus', 'Scaurus', 'Caepio', 'Lepidus', 'Cato'];

/** A world of ~800 Romans who share every name part, as gentes do (ids, cues and numbered namesakes too). */
function crowdedContext(): VerifyContext {
  const base = ctx(packet());
  const rng = new Rng('names-lookup');
  const characters = [...(base.characters ?? [])];
  for (let i = 0; i < 800; i++) {
    const name = `${rng.pick(PRAENOMINA)} ${rng.pick(NOMINA)} ${rng.pick(COGNOMINA)}${i % 7 === 0 ? ` ${['II', 'III', 'Iii', 'Minor'][i % 4]}` : ''}`;
    characters.push({ id: `p_${i}`, name, cue: name.split(' ').at(-1)!.toUpperCase(), status: i % 5 === 0 ? 'dead' : 'alive', location: 'forum' });
  }
  return { ...base, characters };
}

function proseFiles(): string[] {
  const root = path.resolve(__dirname, '../../fixtures');
  const out: string[] = [];
  for (const dir of ['prose-corpus', 'prose-corpus-heldout', 'writer-corpus']) {
    for (const f of fs.readdirSync(path.join(root, dir))) if (f.endsWith('.txt')) out.push(fs.readFileSync(path.join(root, dir, f), 'utf8'));
  }
  return out;
}

describe('name mentions found by look-up (prose/names.ts)', () => {
  it('resolve every form as the index of every person did, scene by scene over one world', () => {
    const ctxs = scenes(crowdedContext());
    let compared = 0;
    for (const c of ctxs) {
      const want = oldForms(c);
      const idx = personIndex(c);
      expect(new Set(idx.forms.keys())).toEqual(new Set(want.forms.keys()));
      for (const [f, id] of want.forms) expect(idx.forms.get(f)).toBe(id);
      expect(new Set(idx.shared.keys())).toEqual(new Set(want.shared.keys()));
      for (const [f, ids] of want.shared) expect(idx.shared.get(f)).toEqual(ids);
      compared += want.forms.size + want.shared.size;
    }
    expect(compared).toBeGreaterThan(3000);
  });

  it('are the very mentions one regex of every form found, on every prose corpus file, in a crowded world', () => {
    const files = proseFiles();
    expect(files.length).toBeGreaterThan(100);
    let mentions = 0;
    // Every other file in the world's own scene, every sixth in the others (the reference regex is slow).
    for (const [n, c] of scenes(crowdedContext()).entries()) {
      const idx = personIndex(c);
      for (const text of files.filter((_, i) => (n === 0 ? i % 2 === 0 : i % 6 === n))) {
        const want = byOneRegex(text, idx);
        expect(names(text, idx)).toEqual(want);
        mentions += want.length;
      }
    }
    expect(mentions).toBeGreaterThan(100);
  });

  it('are the same on text built to break a look-up: namesakes side by side, case, hyphens, odd letters, names inside words', () => {
    const idx = personIndex(crowdedContext());
    const rng = new Rng('names-adversarial');
    const glue = [' ', '  ', ', ', '-', "'", '’', '\n', ' and ', 'que ', '. ', ' (', ') ', '—', 'x', '2', ' Sergiusque ', ' SERGIUS ', ' sergius ', ' Caſſius ', ' KATO ', ' İulius ', ' Cassius’s ', ' Cassius-Gallus '];
    const parts = [...PRAENOMINA, ...NOMINA, ...COGNOMINA, 'Cicero', 'Marcus Tullius Cicero', 'Catilina', 'Catiline', 'Pompey', 'II', 'III', 'Iii', 'Minor'];
    let mentions = 0;
    for (let n = 0; n < 200; n++) {
      let text = '';
      for (let k = 0; k < 30; k++) {
        const p = rng.pick(parts);
        text += (rng.next() < 0.1 ? p.toLowerCase() : rng.next() < 0.05 ? p.toUpperCase() : p) + rng.pick(glue);
      }
      const want = byOneRegex(text, idx);
      expect(names(text, idx)).toEqual(want);
      mentions += want.length;
    }
    expect(mentions).toBeGreaterThan(300);
  });
});

/** whoIndex as it was (0a0b187): every person and cue of the world registered again for each scene. */
function oldWho(c: VerifyContext) {
  const PRAE = new Set(['MARCUS', 'GAIUS', 'LUCIUS', 'PUBLIUS', 'QUINTUS', 'GNAEUS', 'TITUS', 'DECIMUS', 'SERVIUS', 'AULUS', 'SEXTUS', 'TIBERIUS', 'APPIUS', 'MANIUS', 'SPURIUS', 'NUMERIUS', 'MAMERCUS']);
  const cuesOf = (x: { name: string; cue: string }) => {
    const n = x.name.toUpperCase();
    return [...new Set([normalizeCue(x.cue), n, ...n.split(/\s+/).filter((y) => y.length >= 4 && !PRAE.has(y))].filter(Boolean))];
  };
  const byId = new Map<string, { id: string; name: string; dead: boolean; inCast: boolean; location?: string }>();
  const add = (x: KnownCharacter, inCast: boolean, dead: boolean) => {
    const prior = byId.get(x.id);
    byId.set(x.id, { id: x.id, name: x.name, dead: dead || (prior?.dead ?? false), inCast: inCast || (prior?.inCast ?? false), location: prior?.location ?? x.location });
  };
  const p = c.packet;
  for (const x of c.characters ?? []) add(x, false, x.status === 'dead');
  for (const x of p.retrieved_subgraph.characters) add({ id: x.id, name: x.name, cue: x.name.split(/\s+/).pop()!, status: x.status, location: x.location }, false, x.status === 'dead');
  for (const d of p.dead) add({ ...d, status: 'dead' }, false, true);
  for (const x of p.cast) add(x, true, x.status === 'dead');
  const byCue = new Map<string, unknown>();
  const sources = [...p.cast, ...p.dead, ...(c.characters ?? []), ...p.retrieved_subgraph.characters.map((x) => ({ id: x.id, name: x.name, cue: x.name.split(/\s+/).pop()! }))];
  for (const x of sources) for (const k of cuesOf(x)) if (!byCue.has(k)) byCue.set(k, byId.get(x.id)!);
  return { byCue, byId };
}

describe('who a cue or an id names (rules/presence.ts whoIndex)', () => {
  it('is what registering every person of the world for each scene gave, over one world', () => {
    let compared = 0;
    for (const c of scenes(crowdedContext())) {
      const want = oldWho(c);
      const got = whoIndex(c);
      for (const [k, who] of want.byCue) {
        expect(got.byCue.has(k)).toBe(true);
        expect(got.byCue.get(k)).toEqual(who);
      }
      for (const k of ['NOBODY', 'CROWD', 'SERGIUS MURENA', '']) expect(got.byCue.has(k)).toBe(want.byCue.has(k));
      for (const [id, who] of want.byId) expect(got.byId.get(id)).toEqual(who);
      expect(got.byId.get('no_such_id')).toBeUndefined();
      compared += want.byCue.size;
    }
    expect(compared).toBeGreaterThan(1500);
  });
});
