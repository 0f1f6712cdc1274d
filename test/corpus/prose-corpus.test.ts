import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { VerifyContext } from '../../src/stages/f-verifier/context.js';
import { readPacket } from '../../src/stages/f-verifier/load.js';
import { corpusBase, FAMILY_CODES, hardFindings as hard, WRITER_CORPUS } from './corpus-base.js';
import { verifySceneOutput, type SceneVerification } from '../../src/stages/f-verifier/verify.js';

// Issue 14: every file of test/fixtures/prose-corpus through the real normaliser and verifier, against
// its packet and the world it was planned in (the writer corpus's: the starter world with Catiline
// dead, and its plan's evaluated prerequisites). Recall is measured per defect family; the near-miss
// controls and the clean drafts measure false positives. `npm run bench` reports the same figures.

const P = path.resolve(__dirname, '..', 'fixtures', 'prose-corpus');
const W = WRITER_CORPUS;

interface Entry {
  file: string;
  packet: string;
  class: string;
  location: string;
  expect: 'hard' | 'none' | 'soft_or_none';
  span: string | null;
  code_family: string | null;
}

/**
 * The recall each family must reach (issue 14's target: 0.95 in every class). A floor below it is
 * a measured gap, said next to it; raise it when the gap closes.
 */
export const RECALL_FLOOR: Record<string, number> = {
  anachronism: 0.95,
  length: 0.95,
  dead: 0.95,
  presence: 0.95,
  teleport: 0.95,
  overspend: 0.95,
  forbidden: 0.95,
  // 8 of 9 since session 27: p048's "It is all there: who pays the Subura crews, and who drinks with
  // them." (after Crassus draws the tablet back, and Terentia answers that he has told her nothing) names
  // what the tablet holds, not who pays; it was hard only because the speaker's cue "CRASSUS" was read as
  // the secret's Crassus. Without the cue it was a weak match (soft); since session 30 it is none, as a hint
  // that names none of the secret's people tells the rival no one (beats.ts secretTold), and as held-out
  // corpus 67's bn04, the same offer written blind as a clean answer, is none.
  outcome: 0.88,
  cliffhanger: 0.95,
  canon: 0.95,
};

const manifest = JSON.parse(readFileSync(path.join(P, 'manifest.json'), 'utf8')) as Entry[];
let base: Omit<VerifyContext, 'packet'>;
const results = new Map<string, SceneVerification>();

beforeAll(async () => {
  base = await corpusBase();
  for (const e of manifest) {
    results.set(e.file, verifySceneOutput(readFileSync(path.join(P, e.file), 'utf8'), { ...base, packet: readPacket(path.join(W, e.packet)) }));
  }
  // 160 answers through the verifier: on a loaded shared machine this outlasts the default hook
  // timeout. Speed is measured by bench/prose.mjs, not here.
}, 300_000);

/** Caught: a hard finding with a code of the defect's own family (a finding of another family is not a catch). */
function caught(e: Entry): boolean {
  const v = results.get(e.file)!;
  const re = FAMILY_CODES[e.code_family!];
  return hard(v).some((f) => re!.test(f.code));
}

describe('prose corpus (issue 14): planted defects, near misses and clean drafts through the verifier', () => {
  const families = [...new Set(manifest.filter((e) => e.expect === 'hard').map((e) => e.code_family!))];

  for (const fam of families) {
    it(`${fam}: recall reaches its floor (${RECALL_FLOOR[fam]})`, () => {
      const planted = manifest.filter((e) => e.expect === 'hard' && e.code_family === fam);
      const missed = planted.filter((e) => !caught(e)).map((e) => e.file);
      const recall = (planted.length - missed.length) / planted.length;
      expect(RECALL_FLOOR[fam], fam).toBeDefined();
      expect(recall, `${fam} missed: ${missed.join(', ')}`).toBeGreaterThanOrEqual(RECALL_FLOOR[fam]!);
    });
  }

  it('every anachronism is quoted: the finding names the planted word', () => {
    for (const e of manifest.filter((x) => x.expect === 'hard' && x.code_family === 'anachronism')) {
      const fs = hard(results.get(e.file)!).filter((f) => f.code === 'AUR5050');
      const bare = (t: string) => t.toLowerCase().replace(/[^a-z0-9]+/g, ' ');
      const said = bare(fs.map((f) => f.message).join(' '));
      const key = bare(e.span!).split(' ').find((w) => w.length > 1 && said.split(' ').includes(w));
      expect(key, `${e.file}: ${said}`).toBeDefined();
    }
  });

  it('a claim carrying an anachronism or a living man’s death is rejected: it never becomes canon', () => {
    for (const e of manifest.filter((x) => x.location === 'claim' && (x.code_family === 'anachronism' || x.class === 'living_said_dead_claim'))) {
      const v = results.get(e.file)!;
      expect(v.rejected_claims.length, e.file).toBeGreaterThan(0);
      for (const c of v.accepted_claims) expect(e.span && c.text.includes(e.span), e.file).toBeFalsy();
    }
  });

  it('near-miss controls: at most 2% hard, none on a control that expects no finding of its family', () => {
    const controls = manifest.filter((e) => e.class.startsWith('control_'));
    const hardOnes = controls.filter((e) => hard(results.get(e.file)!).length > 0).map((e) => `${e.file}: ${hard(results.get(e.file)!).map((f) => f.message).join('; ')}`);
    expect(hardOnes.length / controls.length, hardOnes.join('\n')).toBeLessThanOrEqual(0.02);
  });

  it('anachronism controls (Roman time words, idioms, oaths) raise no AUR5050 at all', () => {
    for (const e of manifest.filter((x) => x.class.startsWith('control_') && x.code_family === 'anachronism')) {
      expect(results.get(e.file)!.findings.filter((f) => f.code === 'AUR5050'), e.file).toEqual([]);
    }
  });

  it('clean drafts: no finding at all', () => {
    for (const e of manifest.filter((x) => x.class === 'clean')) expect(results.get(e.file)!.findings, e.file).toEqual([]);
  });

  it('covers the corpus: 92 planted defects in 10 families, 54 controls, 14 clean drafts', () => {
    expect(manifest.filter((e) => e.expect === 'hard')).toHaveLength(92);
    expect(families.sort()).toEqual(Object.keys(RECALL_FLOOR).sort());
    expect(manifest.filter((e) => e.class.startsWith('control_'))).toHaveLength(54);
    expect(manifest.filter((e) => e.class === 'clean')).toHaveLength(14);
  });
});
