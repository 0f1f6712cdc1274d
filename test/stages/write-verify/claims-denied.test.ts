import { describe, expect, it } from 'vitest';
import { verifySceneOutput } from '../../../src/stages/f-verifier/verify.js';
import { ctx, fixture } from './helpers.js';

/**
 * A claim the scene's narration denies in the same place (prose audit, session 41, finding 8) is refused
 * from canon with a soft AUR5045 naming the sentence; the scene stands. A claim the scene only does not
 * mention, or one a character denies in speech, or a negation elsewhere or of something else, is no denial.
 */
const clean = fixture('clean.txt');
const [textPart, rest] = clean.split('---CLAIMS---');
const eventsPart = rest.split('---SCENE_EVENTS---')[1];
const KEEP = 'A cup set down too hard.';
// The scene's extra who speaks (SOSIA) is introduced by its claim, as in clean.txt.
const SOSIA = { id: 'c1', kind: 'minor_character', text: 'Sosia, a doorkeeper at Villa of Crassus' };
const answer = (line: string, claim: { kind: string; text: string }) =>
  `${textPart.replace(KEEP, `${KEEP}\n${line}`)}---CLAIMS---\n${JSON.stringify([SOSIA, { id: 'c2', ...claim }])}\n---SCENE_EVENTS---${eventsPart}`;
const verdict = (line: string, claim: { kind: string; text: string }) => verifySceneOutput(answer(line, claim), ctx());

describe('a claim the narration denies in its own place (AUR5045, soft)', () => {
  const denied: Array<[string, string, { kind: string; text: string }]> = [
    ['the audit\'s bust (F8)', 'The atrium is bare: Crassus has never allowed a bust or statue in his house.', { kind: 'object', text: "A marble bust of Catilina's father stands in the atrium, garlanded." }],
    ['a fountain the peristyle had not, past tense, the place fronted in the claim', 'The peristyle had no fountain, only a dry basin full of leaves.', { kind: 'place_detail', text: 'In the peristyle stands a fountain shaped like a dolphin.' }],
    ['"not a single lamp"', 'Not a single lamp burned in the atrium that night; they ate by the light of the brazier.', { kind: 'object', text: 'A silver lamp hangs in the atrium on a chain.' }],
    ['a raven the study has never held, the claim about its owner', 'Crassus has never kept a raven or any other bird in his study; he cannot abide the noise.', { kind: 'object', text: 'Crassus keeps a tame raven in his study.' }],
  ];
  for (const [what, line, claim] of denied) {
    it(`refuses ${what}`, () => {
      const v = verdict(line, claim);
      expect(v.hard).toBe(false);
      expect(v.accepted_claims.map((c) => c.id)).toEqual(['c1']);
      expect(v.rejected_claims.map((c) => c.id)).toEqual(['c2']);
      const f = v.findings.filter((x) => x.code === 'AUR5045');
      expect(f.map((x) => [x.severity, x.rule])).toEqual([['soft', 'claims.denied_by_scene']]);
      expect(f[0].message).toContain(line.split(/[;:]/)[0].slice(0, 20));
      expect(f[0].span!.text).toBe(line);
      expect(answer(line, claim).split('\n')[f[0].span!.line - 1]).toBe(line);
    });
  }
});

describe('a claim the scene does not deny stays canon', () => {
  const bust = { kind: 'object', text: "A marble bust of Catilina's father stands in the atrium, garlanded." };
  const kept: Array<[string, string, { kind: string; text: string }]> = [
    ['a scene that never mentions it (mere absence)', 'Rain runs off the roof tiles into the impluvium.', bust],
    ['a negated verb, not a negated thing', 'Cicero does not look at the bust in the atrium.', bust],
    ['"no one" looking at it', 'No one in the atrium looks at the bust.', bust],
    ['a negation in another room', 'There is no bust in the tablinum; Catilina\'s father watches from the atrium.', bust],
    ['a negation undone', 'There had been no bust in the atrium until that morning.', bust],
    ['a character who denies it in speech', '> CRASSUS: There is no bust in my atrium, Cicero. You are seeing ghosts.', bust],
    ['a negation in a place the claim does not name', 'The tablinum is bare: Crassus allows no bust there.', bust],
  ];
  for (const [what, line, claim] of kept) {
    it(`accepts it despite ${what}`, () => {
      const v = verdict(line, claim);
      expect(v.findings.map((x) => x.code)).not.toContain('AUR5045');
      expect(v.accepted_claims.map((c) => c.id)).toEqual(['c1', 'c2']);
    });
  }
});
