import nlp from 'compromise';
import { describe, expect, it } from 'vitest';
import { corpusLines } from './helpers.js';
import { endsWithin, parsed, sentencesOf, tagsOnly, tokenized, tokensFrom, tokensOf, type Term } from '../../../src/stages/f-verifier/prose/parse.js';
import { mayComply } from '../../../src/stages/f-verifier/prose/compliance-verbs.js';
import { contentRoots, possibleRoots } from '../../../src/stages/f-verifier/prose/roots.js';

// Issue 18: the prose reader's shortcuts must not change what it reads. Sentences are split by the
// tokenizer alone, and a fact is matched against a sentence only when the roots the sentence could
// have (read without tagging) allow it; both are checked here on every line of the three corpora, as
// are the tags of the subject's verb read from a document made without its chunk and root steps.
const lines = corpusLines();

describe('the prose reader reads alike without tagging', () => {
  it('the tokenizer splits every corpus line into the same sentences as the tagger (and both where compromise reads on)', () => {
    expect(lines.length).toBeGreaterThan(800);
    for (const l of lines) expect(sentencesOf(l), l).toEqual((nlp(l).sentences().out('array') as string[]).flatMap(endsWithin));
  });
  it('a line and each of its sentences tokenized without the second normalisation are what nlp.tokenize makes of them', () => {
    // Every field of every term (text, pre, post, normal, machine, implicit, alias, tags, …), in order;
    // but the id a contraction's terms get, which ends in a random digit (compromise's uuid).
    const terms = (doc: unknown) => JSON.stringify((doc as { docs: unknown[][] }).docs, (k, v: unknown) => (k === 'id' ? undefined : v instanceof Set ? [...(v as Set<unknown>)] : v));
    let n = 0;
    for (const l of lines) {
      for (const t of [l, ...sentencesOf(l)]) {
        expect(terms(tokenized(t)), t).toBe(terms(nlp.tokenize(t)));
        n++;
      }
    }
    expect(n).toBeGreaterThan(2000);
    expect(terms(tokenized(''))).toBe(terms(nlp.tokenize('')));
  });
  it('a quotation closed by its own full stop or "!" ends its sentence before a capital; a question, a comma or a title does not', () => {
    expect(sentencesOf('"You came." Catiline steps out from behind the shrine.')).toEqual(['"You came."', 'Catiline steps out from behind the shrine.']);
    expect(sentencesOf('He says, “Enough!” Crassus laughs.')).toEqual(['He says, “Enough!”', 'Crassus laughs.']);
    expect(sentencesOf('"Well?" Crassus asks, and counts the coins.')).toHaveLength(1);
    expect(sentencesOf('"Sit," Crassus says. "Eat."')).toEqual(['"Sit," Crassus says.', '"Eat."']);
    expect(sentencesOf('"Go." he says.')).toHaveLength(1);
    expect(endsWithin('The lamps are lit. Terentia slips in.')).toEqual(['The lamps are lit.', 'Terentia slips in.']);
    expect(endsWithin('He salutes Gen. Crassus.')).toHaveLength(1);
  });
  it('a line is split once: a line read again gets the same frozen answer', () => {
    const l = lines.find((x) => sentencesOf(x).length > 1)!;
    expect(sentencesOf(l)).toBe(sentencesOf(l));
    expect(Object.isFrozen(sentencesOf(l))).toBe(true);
  });
  it("a sentence's tokens kept from its line are the tokens it has alone", () => {
    let kept = 0;
    for (const l of lines) {
      for (const s of sentencesOf(l)) {
        const alone = tokensFrom((nlp.tokenize(s) as unknown as { docs: Term[][] }).docs.flat());
        const t = tokensOf(s);
        expect([[...t.forms].sort(), t.spaced], s).toEqual([[...alone.forms].sort(), alone.spaced]);
        kept++;
      }
    }
    expect(kept).toBeGreaterThan(1000);
  });
  it('the roots a sentence could have hold every root tagging gives it', () => {
    const texts = new Set(lines.flatMap((l) => [l, ...sentencesOf(l), ...[...l.matchAll(/["“]([^"”]*)["”]/g)].map((m) => m[1])]));
    let roots = 0;
    for (const t of texts) {
      const could = possibleRoots(t);
      const missing = [...contentRoots(t)].filter((r) => !could.has(r));
      roots += contentRoots(t).size;
      expect(missing, t).toEqual([]);
    }
    expect(roots).toBeGreaterThan(2000);
  });
  it('a contraction split by the tagger ("he\'s", "she\'d", "let\'s") keeps its roots in reach', () => {
    for (const t of ["He's sold the warehouses.", "She'd burned the letters.", "Let's count the coins.", "The ship's gone down with the grain.", "Crassus ain't paying."]) {
      const could = possibleRoots(t);
      expect([...contentRoots(t)].filter((r) => !could.has(r)), t).toEqual([]);
    }
  });
});

describe("the subject's verb reads tags from a document made without chunks or roots", () => {
  it('every term of "He <corpus sentence>" has the text and tags nlp() gives it', () => {
    type T = { text: string; tags: Set<string> | string[] };
    const read = (docs: T[][]) => docs.map((ts) => ts.map((t) => [t.text, [...t.tags]]));
    let terms = 0;
    for (const s of new Set(lines.flatMap(sentencesOf))) {
      const he = `He ${s}`;
      const want = (nlp(he).json() as { terms: T[] }[]).map((x) => x.terms);
      const got = (tagsOnly(he) as unknown as { docs: T[][] }).docs;
      expect(read(got), he).toEqual(read(want));
      terms += got.flat().length;
    }
    expect(terms).toBeGreaterThan(10000);
  });
});

describe('the compliance check tags only sentences that could hold one of its verbs', () => {
  it('every corpus sentence where compromise reads a verb complianceIn answers with passes the bound', () => {
    const answers = new Set(['give in', 'give way', 'relent', 'yield', 'consent', 'agree', 'comply', 'submit', 'capitulate', 'concede', 'acquiesce', 'obey', 'surrender', 'let go', 'cave', 'cave in', 'back down', 'say yes', 'nod assent', 'accept', 'give', 'hand', 'hand over', 'deliver', 'release', 'turn over', 'give up', 'yield up', 'entrust', 'slide', 'press', 'pass', 'push', 'take', 'receive', 'pocket', 'close on', 'gather', 'gather up', 'seize', 'snatch', 'grab', 'scoop up', 'follow', 'answer', 'heed', 'rise', 'surge', 'pour', 'stream', 'flood', 'march', 'take up', 'go after']);
    let found = 0;
    for (const s of new Set(lines.flatMap(sentencesOf))) {
      const verbs = (parsed(s).verbs().json() as { verb?: { infinitive?: string } }[]).map((v) => (v.verb?.infinitive ?? '').toLowerCase());
      if (!verbs.some((v) => answers.has(v))) continue;
      found++;
      expect(mayComply(s), s).toBe(true);
    }
    expect(found).toBeGreaterThan(100);
    // And the bound does prune: most sentences hold none of the verbs.
    expect(lines.flatMap(sentencesOf).filter((s) => !mayComply(s)).length).toBeGreaterThan(lines.length / 4);
  });
});
