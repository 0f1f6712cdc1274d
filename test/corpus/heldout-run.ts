import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SceneVerification } from '../../src/stages/f-verifier/verify.js';
import { FAMILY_CODES, hardFindings as hard, verifyCorpus } from './corpus-base.js';

// The checks of a held-out corpus that records its first run (prose-corpus-heldout-2 and -3, see
// their READMEs): answers written once and never edited to pass, an `expect` committed before the
// first run, and where the verifier disagrees a note saying so, which the test asserts as today's
// outcome so that a fix to the verifier flips the assertion visibly instead of passing quietly.

export interface HeldoutEntry {
  file: string;
  packet: string;
  class: string;
  location: 'prose';
  expect: 'hard' | 'none' | 'soft_or_none';
  span: string | null;
  code_family: string | null;
  /** The planted defect the verifier does not catch today: "<code>: why". */
  known_miss?: string;
  /** Hard findings the verifier makes today that the text does not deserve: "<code>[, <code>]: why". */
  known_false_positive?: string;
  /** Soft findings the verifier makes today on an answer expected to raise nothing: "<code>: why". */
  known_soft?: string;
}

/** A held-out folder's manifest, and (once the suite's beforeAll has run) each answer's verification. */
export function heldoutRun(dir: string): { manifest: HeldoutEntry[]; result: (file: string) => SceneVerification } {
  const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as HeldoutEntry[];
  let results = new Map<string, SceneVerification>();
  beforeAll(async () => {
    results = await verifyCorpus(dir, manifest);
  }, 120_000);
  return { manifest, result: (file) => results.get(file)! };
}

/** The codes a `known_*` note names before its colon. */
export const codesOf = (note: string | undefined): string[] => (note ? note.split(':')[0]!.split(',').map((c) => c.trim()) : []);

/** Every answer listed once, with a packet, an expectation, a span that is in the file, and well-formed notes. */
export function expectWellFormed(dir: string, manifest: readonly HeldoutEntry[]): void {
  expect(manifest.map((e) => e.file).sort()).toEqual(readdirSync(dir).filter((f) => f.endsWith('.txt')).sort());
  for (const e of manifest) {
    expect(['hard', 'none', 'soft_or_none'], e.file).toContain(e.expect);
    if (e.class === 'clean') expect([e.span, e.code_family, e.expect], e.file).toEqual([null, null, 'none']);
    else expect(readFileSync(path.join(dir, e.file), 'utf8'), e.file).toContain(e.span);
    for (const note of [e.known_miss, e.known_false_positive, e.known_soft]) if (note) expect(note, e.file).toMatch(/^AUR50\d\d(?:, AUR50\d\d)*: .{20,}$/);
    if (e.known_miss) expect(e.expect, e.file).toBe('hard');
    if (e.known_soft) expect(e.expect, e.file).toBe('none');
  }
}

/** The test's title for an entry: its expectation and the note it carries. */
export function outcomeTitle(e: HeldoutEntry): string {
  const note = e.known_miss
    ? `known miss ${codesOf(e.known_miss).join(', ')}`
    : e.known_false_positive
      ? `known false positive ${codesOf(e.known_false_positive).join(', ')}`
      : e.known_soft
        ? `known soft ${codesOf(e.known_soft).join(', ')}`
        : 'as expected';
  return `${e.file}: expect ${e.expect}, ${note}`;
}

/** Today's outcome of one answer, exactly as its entry records it. */
export function expectOutcome(e: HeldoutEntry, v: SceneVerification): void {
  const fam = e.code_family ? FAMILY_CODES[e.code_family] : undefined;
  const fps = codesOf(e.known_false_positive);
  const codes = [...new Set(hard(v).map((f) => f.code))].sort();
  const said = v.findings.map((f) => `${f.severity} ${f.code} ${f.span?.text ?? ''}`).join('\n');
  // The planted defect: caught by its own family, or (a known miss) not caught at all.
  if (e.expect === 'hard') expect(codes.some((c) => fam!.test(c)), said).toBe(!e.known_miss);
  // Nothing hard beyond the defect's family and the known false positives, and each of those still fires.
  const beyond = codes.filter((c) => !(e.expect === 'hard' && fam!.test(c)));
  expect(beyond, said).toEqual([...fps].sort());
  // A control or clean answer expected to raise nothing at all raises nothing, not even a soft
  // finding, beyond the soft findings its note names.
  if (e.expect === 'none' && !e.known_false_positive) {
    expect([...new Set(v.findings.map((f) => f.code))].sort(), said).toEqual(codesOf(e.known_soft).sort());
    expect(v.findings.every((f) => f.severity === 'soft'), said).toBe(true);
  }
}

/** How many answers of each kind a held-out corpus holds. */
export interface HeldoutCounts {
  clean: number;
  controls: number;
  defects: number;
  /** Distinct defect families among the defects, when a set plants two defects of one family (default: one family per defect). */
  families?: number;
}

/**
 * The suite of a held-out corpus: its manifest well-formed, its answers counted by kind (each
 * planted defect of its own family), and every answer's outcome as its entry records it.
 */
export function describeHeldout(title: string, dir: string, n: HeldoutCounts): void {
  const { manifest, result } = heldoutRun(dir);
  describe(title, () => {
    it('lists every answer once, with a packet, an expectation and a span that is in the file', () => {
      expectWellFormed(dir, manifest);
    });

    const families = n.families ?? n.defects;
    const ofFamilies = families === n.defects ? 'each of its own family' : `of ${families} families`;
    it(`holds ${n.clean} clean answers, ${n.controls} near misses and ${n.defects} defects planted in the prose, ${ofFamilies}`, () => {
      expect(manifest.filter((e) => e.class === 'clean')).toHaveLength(n.clean);
      expect(manifest.filter((e) => e.class.startsWith('control_'))).toHaveLength(n.controls);
      const defects = manifest.filter((e) => e.expect === 'hard');
      expect(defects).toHaveLength(n.defects);
      expect(new Set(defects.map((e) => e.code_family)).size).toBe(families);
    });

    for (const e of manifest) it(outcomeTitle(e), () => expectOutcome(e, result(e.file)));
  });
}
