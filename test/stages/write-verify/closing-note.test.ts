import { describe, expect, it } from 'vitest';
import { verifySceneOutput } from '../../../src/stages/f-verifier/verify.js';
import { parseWriterOutput } from '../../../src/stages/e-writer/parse.js';
import { ctx, fixture } from './helpers.js';

/**
 * A writer's closing note at the tail of SCENE_TEXT (prose audit, session 41, finding 7): the note is
 * about the writing, so it is dropped with a `closing_note` normalisation, judged by no rule, and never
 * reaches the committed scene text. A last line of speech or narration that uses the same words stays.
 */
const clean = fixture('clean.txt');
const [textPart, rest] = clean.split('---CLAIMS---');
const body = textPart.replace('---SCENE_TEXT---', '').trimEnd();
const LAST = '> CRASSUS: Keep the purse, Cicero. I will come for the interest.';
const answer = (tail: string, text = body) => `---SCENE_TEXT---\n${text}\n\n${tail}\n\n---CLAIMS---${rest}`;

const notes = [
  // The audit's own forms (P7a, P7b), on this packet: an anachronism listed, the forbidden fact named as left out.
  ['a rule, then a bold Note: listing the modern words avoided', '---\n\n**Note:** I avoided modern words such as "clock" and "okay", and kept the scene to about three hundred words. Let me know if you\'d like it longer.'],
  ["an italic (Author's note: …) naming the forbidden fact it left out", "*(Author's note: the packet says no one here may state that Crassus skims the grain dole, so I left that out.)*"],
  ['a bracketed word count with the beats covered', '[Word count: ~310 | Beats covered: a04 — Crassus lends Cicero the money; a05 — Cicero fumbles the snub, okay]'],
  ['an italic word count with an offer to expand', '*Word count: about 300. I can expand the scene if you need more of Tertulla, or make it okay for a shorter slot.*'],
  ['a bare offer after a blank line, no rule, no label', "Let me know if you'd like a longer version, or a darker tone for Crassus — I kept it okay for the packet."],
  ['a "Notes:" label over a list of what was done', '***\n\n**Notes:**\n\n- Kept the grain dole out entirely: Crassus skims the grain dole is forbidden here.\n- Sosia is the one invention.'],
  ['an unlabelled account of the writing, then a question', "I've kept the scene to roughly three hundred words and avoided modern words like okay. Would you like me to expand Tertulla's part?"],
  ['a P.S. offering a revision', 'P.S. Happy to revise the ending if the hook should bite harder — okay?'],
] as const;

describe("a writer's closing note at the end of SCENE_TEXT", () => {
  for (const [what, tail] of notes) {
    it(`drops ${what}, on the record, before any rule reads it`, () => {
      const v = verifySceneOutput(answer(tail), ctx());
      expect(v.findings.filter((f) => f.severity === 'hard'), what).toEqual([]);
      expect(v.findings.map((f) => f.code)).not.toContain('AUR5060');
      const note = v.normalisations.find((n) => n.code === 'closing_note');
      expect(note, what).toBeDefined();
      expect(note!.what).toMatch(/^ignored \d line\(s\) at the end of SCENE_TEXT \("/);
      // What is committed is the scene's own text, up to its last line.
      expect(v.parsed.scene_text.trimEnd().endsWith(LAST)).toBe(true);
      expect(v.parsed.scene_text).not.toMatch(/okay|packet|word count|---|\*\*\*/i);
    });
  }

  it('keeps the raw-file line numbers of the scene (the tail is cut, nothing before it moves)', () => {
    const raw = answer(notes[0][1]);
    const p = parseWriterOutput(raw);
    const lines = raw.split('\n');
    const text = p.scene_text.split('\n');
    expect(lines[p.text_first_line - 1 + text.length - 1]).toBe(LAST);
  });

  it('drops a note after a scene that ends in speech, in the JSON-answer form too', () => {
    const json = JSON.stringify({ scene_text: `${body}\n\n---\n\n*Word count: about 300. Let me know if you'd like any changes.*`, claims: [], scene_events: [] });
    const p = parseWriterOutput(json);
    expect(p.scene_text.trimEnd().endsWith(LAST)).toBe(true);
    expect(p.normalisations.map((n) => n.code)).toContain('closing_note');
  });
});

describe('a last line that only looks like a note stays in the scene', () => {
  const controls = [
    ['a character asking to be told, in quotes', '"Let me know if the grain ships come in before the Ides," Crassus tells Cicero at the door.'],
    ['a speaker cue asking whether he would like more', "> CRASSUS: Let me know if you'd like more wine, Consul. The words can wait; the interest cannot."],
    ['narration after a closing scene break', '---\n\nLater, alone, Crassus writes the sum in his ledger and underlines it twice.'],
    ['a narrator who notes the sum', 'Tertulla notes the sum in the margin of the ledger, and says nothing.'],
    ['first-person narration that keeps its words', 'I kept the tablet, and I kept my words to myself; I have avoided that house ever since.'],
    ['narration with the offer inside quoted speech', 'Crassus smiles. "Let me know if you would like the scene played again," he says, and the guests laugh.'],
    ['a written note shown on screen', 'Note: "Bring the ledger at dawn. Come alone."'],
    ['a screenplay cue over an offer', "CRASSUS\nLet me know if you'd like a longer loan. The terms will not change."],
  ] as const;
  for (const [what, tail] of controls) {
    it(`keeps ${what}`, () => {
      const v = verifySceneOutput(answer(tail), ctx());
      expect(v.normalisations.map((n) => n.code), what).not.toContain('closing_note');
      expect(v.parsed.scene_text).toContain(tail.split('\n').pop()!);
    });
  }

  it('never drops the whole scene text, even when it is all a note', () => {
    const p = parseWriterOutput(`---SCENE_TEXT---\nLet me know if you'd like the scene longer.\n\n---CLAIMS---\n[]\n---SCENE_EVENTS---\n[]\n`);
    expect(p.scene_text).toBe("Let me know if you'd like the scene longer.");
    expect(p.normalisations.map((n) => n.code)).not.toContain('closing_note');
  });
});
