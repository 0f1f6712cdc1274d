import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { corpusLines } from './helpers.js';
import type { ScenePacket } from '../../../src/domain/packet.js';
import type { Claim } from '../../../src/domain/scene.js';
import { loadWorldOrThrow } from '../../../src/store/load.js';
import { packageRoot } from '../../../src/paths.js';
import type { VerifyContext } from '../../../src/stages/f-verifier/context.js';
import { readPacket } from '../../../src/stages/f-verifier/load.js';
import { worldVerifyContext } from '../../../src/stages/f-verifier/world-context.js';
import { sentencesOf, tagsOnly } from '../../../src/stages/f-verifier/prose/parse.js';
import { MODAL, plainNextWord, STATIVE, subjectVerb } from '../../../src/stages/f-verifier/prose/subjects.js';
import { findMentions, personIndex, type PersonIndex } from '../../../src/stages/f-verifier/prose/names.js';
import { couldMatch, couldMatchBound, passageBound, passageEntities, roughSignature } from '../../../src/stages/f-verifier/prose/facts.js';
import { possibleRoots } from '../../../src/stages/f-verifier/prose/roots.js';
import { claimRules, NAME_PATTERNS_MAX, namePatternsHeld } from '../../../src/stages/f-verifier/rules/claims.js';

// Issue 18, ninth pass: stage F reads each sentence of a scene once for all its forbidden facts,
// and a window of two sentences through its sentences. These are the properties that keep the
// findings the same, checked on every line of the corpora (real-model prose and the offline writer's).
const FIX = path.resolve(__dirname, '..', '..', 'fixtures');
const W = path.join(FIX, 'writer-corpus');
const sentences = [...new Set(corpusLines().flatMap((l) => sentencesOf(l)))];
let ctx: VerifyContext;
let idx: PersonIndex;

beforeAll(async () => {
  const { world } = await loadWorldOrThrow(packageRoot());
  world.characters = JSON.parse(readFileSync(path.join(W, 'world-characters.json'), 'utf8'));
  const packet: ScenePacket = readPacket(path.join(W, 'packets', 'SC05.json'));
  ctx = { ...worldVerifyContext(world, []), packet };
  idx = personIndex(ctx);
});

/** The people and places of a text, read on the whole text (what a window's were before the pass). */
function direct(text: string): string[] {
  return [...passageEntities(text, idx)].sort();
}

describe("a window's people and places are its two sentences'", () => {
  it('no name, title or place reading spans or changes at the join of two adjacent corpus sentences', () => {
    let named = 0;
    for (let i = 0; i + 1 < sentences.length; i++) {
      const w = `${sentences[i]}\u2063${sentences[i + 1]}`;
      const bound = [...passageBound(w, personIndex(ctx)).entities].sort();
      expect(bound, w).toEqual(direct(w));
      if (bound.length) named++;
    }
    expect(named).toBeGreaterThan(500);
  });
  it('a title ("the consul") and a place at the start of the second sentence read as they do alone', () => {
    const titled = [...idx.titles.keys()][0];
    expect(titled).toBeDefined();
    const w = `Crassus waits by the door.\u2063The ${titled} turns. Ostia burns and the Forum is empty.`;
    expect([...passageBound(w, personIndex(ctx)).entities].sort()).toEqual(direct(w));
  });
});

describe('a text scanned for names again gets the answer its own index gives it', () => {
  it('kept per name index and exact text: the same frozen answer for the same text, its own for another text or index', () => {
    const named = sentences.filter((t) => findMentions(t, idx).length > 0);
    expect(named.length).toBeGreaterThan(100);
    const [a, b] = [named[0], named.find((t) => JSON.stringify(findMentions(t, idx)) !== JSON.stringify(findMentions(named[0], idx)))!];
    expect(findMentions(a, idx)).toBe(findMentions(a, idx));
    expect(Object.isFrozen(findMentions(a, idx))).toBe(true);
    // Each answer is what a fresh index (a fresh memo) scans, text by text.
    const fresh = personIndex(ctx);
    for (const t of named.slice(0, 200)) expect(findMentions(t, idx), t).toEqual(findMentions(t, fresh));
    expect(findMentions(b, idx)).not.toEqual(findMentions(a, idx));
    // An index that knows nobody finds nobody, whatever another index found in the same text.
    const pk = ctx.packet;
    const nobody = personIndex({ ...ctx, characters: [], packet: { ...pk, cast: [], dead: [], retrieved_subgraph: { ...pk.retrieved_subgraph, characters: [] } } });
    expect(findMentions(a, nobody)).toEqual([]);
  });
});

describe('the bound read once per passage is the bound read per fact', () => {
  it('couldMatchBound on a passage bound answers as couldMatch on the passage, for every forbidden fact', () => {
    const facts = [...ctx.packet.constraints.forbidden_facts, ...ctx.packet.retrieved_subgraph.secrets.map((s) => s.text)];
    expect(facts.length).toBeGreaterThan(3);
    let could = 0;
    for (const f of facts) {
      const sig = roughSignature(f, idx);
      for (let i = 0; i + 1 < sentences.length; i += 3) {
        for (const p of [sentences[i], `${sentences[i]}\u2063${sentences[i + 1]}`]) {
          const b = passageBound(p, idx);
          // A fact's entity is held by the passage's own (a shared name's by any of its bearers), a
          // word also by that word inside a name of one of the fact's people (`word#@id|…`).
          const people = new Set([...sig.entities].filter((e) => e.startsWith('@')).flatMap((e) => e.split('|')));
          const inName = (e: string) => [...b.entities].some((x) => x.startsWith(`${e}#`) && x.slice(e.length + 1).split('|').some((y) => people.has(y)));
          const shared = [...sig.entities].filter((e) => e.split('|').some((x) => b.entities.has(x)) || (!e.startsWith('@') && inName(e))).length;
          const parts = p.split('\u2063').map(possibleRoots);
          const most = [...sig.roots].filter((r) => parts.some((c) => c.has(r))).length;
          const expected = most >= 2 && 1.5 * shared + most >= 4.5;
          expect(couldMatchBound(b, sig), `${f} / ${p}`).toBe(expected);
          expect(couldMatch(p, sig, idx)).toBe(expected);
          if (expected) could++;
        }
      }
    }
    expect(could).toBeGreaterThan(0);
  });
});

describe('a canon claim that kills a living man is still rejected when no name is tested first (AUR5042)', () => {
  // No subject: an empty one names no entity of the world (AUR5044), and these claims are about their text.
  const claim = (text: string): Claim => ({ id: 'c1', kind: 'fact', text }) as Claim;
  it('every death phrasing is caught, and a claim with no death word is not', () => {
    const living = ctx.packet.cast.find((c) => c.status !== 'dead')!;
    const name = living.name.split(/\s+/).pop()!;
    const deaths = ['died', 'is dead', 'was dead', 'lies dead', 'lay dead', 'was killed', 'has been killed', 'was murdered', 'was executed', 'was slain', 'is slain', 'was buried', 'is buried'].map((d) => `${name} ${d} in the night.`);
    const ofs = ['death', 'execution', 'funeral', 'murder', 'corpse', 'body', 'widow'].flatMap((w) => [`The ${w} of ${name} was announced.`, `${name}'s ${w} was announced.`]);
    const only = (text: string) => claimRules([claim(text)], { ...ctx, packet: { ...ctx.packet, constraints: { ...ctx.packet.constraints, allowed_inventions: { ...ctx.packet.constraints.allowed_inventions, kinds: ['fact'], max: 5 } } } }, '');
    for (const t of [...deaths, ...ofs]) expect(only(t).findings.map((f) => f.code), t).toEqual(['AUR5042']);
    for (const t of [`${name} walks in the night.`, `${name} fears for his life.`]) expect(only(t).findings.map((f) => f.code), t).toEqual([]);
  });
});

describe('the claim rules’ name patterns are bounded (a long process keeps no pattern per name it ever saw)', () => {
  it('after more living names than the bound, fewer patterns than the bound are kept, and a death is still caught', () => {
    const claim = (text: string): Claim => ({ id: 'c1', kind: 'fact', text, subject: '' }) as unknown as Claim;
    const base = ctx.packet.cast.find((c) => c.status !== 'dead')!;
    const names = Array.from({ length: Math.ceil(NAME_PATTERNS_MAX / 3) }, (_, i) => `Quintus Gens${i.toString(36)} Cognom${i.toString(36)}`);
    // Each living cast member brings four name forms (full name, cue, nomen, cognomen): 4/3 of the bound, all tested.
    const cast = names.map((name, i) => ({ ...base, id: `x${i}`, name, cue: `GENS${i.toString(36).toUpperCase()}` }));
    const packet = { ...ctx.packet, cast, constraints: { ...ctx.packet.constraints, allowed_inventions: { ...ctx.packet.constraints.allowed_inventions, kinds: ['fact'], max: 5 } } };
    const v = claimRules([claim(`${names.at(-1)} was killed at dawn.`)], { ...ctx, characters: [], packet }, '');
    expect(v.findings.map((f) => f.code)).toEqual(['AUR5042']);
    expect(namePatternsHeld().death).toBeGreaterThan(0);
    expect(namePatternsHeld().death).toBeLessThanOrEqual(NAME_PATTERNS_MAX);
    expect(namePatternsHeld().word).toBeLessThanOrEqual(NAME_PATTERNS_MAX);
  });
});

describe('a modal or stative word after a subject is read without tagging', () => {
  it('the plain next word is term 1 of the tagged "He <words>" for every corpus sentence and the words after each name in it', () => {
    let plain = 0;
    let skipped = 0;
    const texts = new Set(sentences.flatMap((s) => [s, ...findMentions(s, idx).map((m) => s.slice(m.end).slice(0, 80))]));
    for (const s of texts) {
      const w = plainNextWord(s);
      if (!w) continue;
      plain++;
      if (MODAL.test(w) || STATIVE.test(w)) skipped++;
      const t = (tagsOnly(`He ${s.trim()}`) as unknown as { docs: { text: string }[][] }).docs[0]?.[1];
      expect(t?.text.toLowerCase(), s).toBe(w);
    }
    expect(plain).toBeGreaterThan(1000);
    expect(skipped).toBeGreaterThan(20);
  });
  it('only a plain word followed by white space is read so', () => {
    for (const t of ["wasn't there", 'was, perhaps', 'was-', 'was', 'Ωs was', '“was” he']) expect(plainNextWord(t), t).toBeNull();
    expect(plainNextWord('  Was there')).toBe('was');
  });
  it('a named subject followed by a modal or a state is no deed; a present verb is', () => {
    const m = (text: string) => findMentions(text, idx);
    const name = [...idx.forms.keys()].find((f) => /^[a-z]+$/.test(f) && f.length > 4)!;
    const N = name[0].toUpperCase() + name.slice(1);
    for (const t of [`${N} was there.`, `${N} would go.`, `${N} owns the house.`, `${N} had left.`]) expect(subjectVerb(t, m(t)), t).toBeNull();
    expect(subjectVerb(`${N} walks in.`, m(`${N} walks in.`))?.sure).toBe(true);
  });
});
