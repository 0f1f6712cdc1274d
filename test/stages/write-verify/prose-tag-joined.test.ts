import { describe, expect, it } from 'vitest';
import { tagJoined } from '../../../src/stages/f-verifier/prose/tag-joined.js';
import { sentencesOf } from '../../../src/stages/f-verifier/prose/parse.js';
import { codes, findings, usePackets } from './prose-scenes.js';

// A line ending on "!" or "…" whose said-tag compromise cut off into a sentence of its own ('"Save it!"' and
// 'Crassus shouted.'): told in the present, the lone past tag read as a memory and the uncast or dead speaker went
// unseen, where the same line with a comma or a question mark was AUR5016 / AUR5015 (session 43). Sentences written for
// these tests against the starter world's packets: SC24 (Caesar, Cato, Servilia; Catiline dead; Terentia and Cicero
// alive and not in it), SC05 (Clodius, Crassus).
usePackets();

const presentScene = (s: string) => `Cato sets down his cup. He turns to the window. Caesar pours the wine and laughs. ${s} Cato does not turn.`;

describe('a said-tag after an exclaimed or trailing line (tag-joined.ts)', () => {
  it('joins the tag to its line, and only a tag: a name and a said-tag verb', () => {
    expect(sentencesOf('"Save it!" Crassus shouted. Cato waits.')).toEqual(['"Save it!" Crassus shouted.', 'Cato waits.']);
    expect(sentencesOf('"Save it…" Marcus Crassus murmured from the door.')).toEqual(['"Save it…" Marcus Crassus murmured from the door.']);
    expect(tagJoined(['“Out!”', 'Terentia quietly whispered.'])).toEqual(['“Out!” Terentia quietly whispered.']);
    // Not a tag: another verb, a line that ends on a full stop, a sentence before that is no quotation.
    expect(tagJoined(['"Out!"', 'Crassus turns away.'])).toEqual(['"Out!"', 'Crassus turns away.']);
    expect(tagJoined(['"Out."', 'Crassus shouted.'])).toEqual(['"Out."', 'Crassus shouted.']);
    expect(tagJoined(['Out!', 'Crassus shouted.'])).toEqual(['Out!', 'Crassus shouted.']);
    expect(tagJoined(['He says, “Enough!”', 'Crassus laughs.'])).toEqual(['He says, “Enough!”', 'Crassus laughs.']);
  });

  it('an uncast or dead speaker tagged in the past after "!" or "…" in a scene told in the present is on stage; near misses stay clean', () => {
    const hits: [string, string, string][] = [
      ['AUR5016', 'SC24', presentScene('"Save it for the Subura!" Terentia shouted from the doorway.')],
      ['AUR5016', 'SC24', presentScene('"You started without me!" Cicero cried.')],
      ['AUR5016', 'SC24', presentScene('"So this is how it ends…" Terentia murmured.')],
      ['AUR5015', 'SC24', presentScene('"You poured for everyone but me!" Catiline laughed.')],
    ];
    for (const [code, scene, body] of hits) expect(codes(findings(scene, body)), body).toEqual([code]);
    const clean: [string, string][] = [
      // A cast member's line, a remembered one, a name and another verb, a name inside the line.
      ['SC24', presentScene('"Save it!" Servilia shouted.')],
      ['SC24', presentScene('She remembers the night it began. "Never!" Terentia had shouted, years ago.')],
      ['SC24', presentScene('"Out!" Terentia\'s letter lies unopened on the table.')],
      ['SC24', presentScene('"Terentia!" Servilia shouted.')],
    ];
    for (const [scene, body] of clean) expect(findings(scene, body).filter((f) => f.code === 'AUR5015' || f.code === 'AUR5016'), body).toEqual([]);
  });
});
