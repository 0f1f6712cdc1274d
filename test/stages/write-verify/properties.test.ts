import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseWriterOutput } from '../../../src/stages/e-writer/parse.js';
import { verifySceneOutput } from '../../../src/stages/f-verifier/verify.js';
import { ctx, fixture } from './helpers.js';

const MARKERS = ['---SCENE_TEXT---', '---CLAIMS---', '---SCENE_EVENTS---', '```json', '```', '[', ']', '{', '}', ',', '"', '> CATILINA: ', '> CRASSUS: ', '\r\n', '\n'];

describe('parser and verifier never throw', () => {
  it('on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (s) => {
        const p = parseWriterOutput(s);
        expect(Array.isArray(p.claims) && Array.isArray(p.events)).toBe(true);
        verifySceneOutput(s, ctx());
      }),
      { numRuns: 300 },
    );
  });

  it('on shuffled fragments of a real answer', () => {
    const lines = fixture('clean.txt').split('\n');
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom(...lines), fc.constantFrom(...MARKERS)), { maxLength: 60 }), (parts) => {
        const v = verifySceneOutput(parts.join('\n'), ctx());
        for (const f of v.findings) expect(f.code).toMatch(/^AUR5\d{3}$/);
      }),
      { numRuns: 300 },
    );
  });
});
