import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Fountain } from 'fountain-js';
import { FOUNTAIN_KINDS, renderFountain, scriptToFountain, type FountainElement } from '../../src/season/fountain.js';
import { parseScriptMarkdown, parseSceneText, renderScriptMarkdown, type ScriptDoc } from '../../src/season/script-model.js';

const FIXTURES = path.resolve(__dirname, '../fixtures/fountain');
const KINDS = new Set<string>(FOUNTAIN_KINDS);

type Tok = { type: string; text?: string; scene_number?: string; is_title?: boolean };

function parse(src: string): Tok[] {
  return new Fountain().parse(src, true).tokens as Tok[];
}

/** The tokens of the kinds our writer emits, as comparable tuples. */
function ours(tokens: Tok[]): FountainElement[] {
  return tokens
    .filter((t) => KINDS.has(t.type))
    .map((t) => {
      if (t.type === 'page_break') return { type: 'page_break' } as FountainElement;
      const e: Record<string, unknown> = { type: t.type, text: t.text ?? '' };
      if (t.type === 'scene_heading' && t.scene_number) e.scene_number = t.scene_number;
      return e as FountainElement;
    });
}

describe('Fountain writer against the reference fixtures', () => {
  const files = fs.readdirSync(FIXTURES).filter((f) => f.endsWith('.fountain')).sort();
  it('finds the shared fixtures', () => {
    expect(files.length).toBeGreaterThanOrEqual(10);
  });
  for (const file of files) {
    it(`round-trips the element kinds it uses: ${file}`, () => {
      const src = fs.readFileSync(path.join(FIXTURES, file), 'utf8');
      let tokens: Tok[];
      try {
        tokens = parse(src);
      } catch {
        // fountain-js itself cannot read a few fixtures (e.g. ForcedElements' "~" lyrics after a
        // cue); nothing to round-trip there. Our writer never emits lyrics.
        return;
      }
      const elements = ours(tokens);
      const again = ours(parse(renderFountain(elements)));
      expect(again).toEqual(elements);
    });
  }
});

describe('episode script → Fountain', () => {
  const doc: ScriptDoc = {
    title: 'S01E03: The Grain Ships',
    scenes: [
      {
        id: 'SC01',
        heading: 'EXT. OSTIA DOCKS - DAWN',
        cast: ['Crassus', 'Tiro'],
        elements: [
          { kind: 'action', text: 'Gulls over empty quays. NO SHIPS.' },
          { kind: 'dialogue', cue: 'CRASSUS', text: 'Where is my grain?' },
          { kind: 'dialogue', cue: 'TIRO', parenthetical: 'quietly', text: 'At the bottom of the sea, dominus.' },
          { kind: 'action', text: 'INT. A heading-like line of action' },
        ],
      },
      {
        id: 'SC02',
        heading: "INT. CICERO'S HOUSE - NIGHT",
        cast: ['Cicero'],
        elements: [{ kind: 'dialogue', cue: 'McCICERO', text: 'Quo usque tandem.' }],
      },
    ],
  };

  it('parses with fountain-js into the expected headings, cues and dialogue', () => {
    const toks = parse(scriptToFountain(doc, { credit: 'compiled by', author: 'Aureus' }));
    expect(toks.filter((t) => t.type === 'scene_heading').map((t) => [t.text, t.scene_number])).toEqual([
      ['EXT. OSTIA DOCKS - DAWN', 'SC01'],
      ["INT. CICERO'S HOUSE - NIGHT", 'SC02'],
    ]);
    expect(toks.filter((t) => t.type === 'character').map((t) => t.text)).toEqual(['CRASSUS', 'TIRO', 'McCICERO']);
    expect(toks.filter((t) => t.type === 'dialogue').map((t) => t.text)).toEqual(['Where is my grain?', 'At the bottom of the sea, dominus.', 'Quo usque tandem.']);
    expect(toks.filter((t) => t.type === 'parenthetical').map((t) => t.text)).toEqual(['(quietly)']);
    const actions = toks.filter((t) => t.type === 'action').map((t) => t.text);
    expect(actions).toContain('Gulls over empty quays. NO SHIPS.');
    expect(actions).toContain('INT. A heading-like line of action');
    expect(toks.find((t) => t.type === 'title')?.text).toBe('S01E03: The Grain Ships');
  });

  it('renders spec §11.1 markdown and parses it back', () => {
    const md = renderScriptMarkdown(doc);
    expect(md).toContain("## SC02 — INT. CICERO'S HOUSE - NIGHT");
    expect(md).toContain('**Cast:** Crassus, Tiro');
    expect(md).toContain('> TIRO: (quietly) At the bottom of the sea, dominus.');
    expect(parseScriptMarkdown(md)).toEqual(doc);
  });

  it('reads the dialogue conventions writers use', () => {
    const els = parseSceneText(
      ['INT. CURIA - DAY', '', 'The senators murmur.', 'Benches creak.', '', 'CICERO: Enough.', '', 'CATO', '(coldly)', 'No.', 'Never.', '', '> CRASSUS: Gold speaks.', '', 'SILENCE.'].join('\n'),
      ['CICERO', 'CATO', 'CRASSUS'],
    );
    expect(els).toEqual([
      { kind: 'action', text: 'The senators murmur. Benches creak.' },
      { kind: 'dialogue', cue: 'CICERO', text: 'Enough.' },
      { kind: 'dialogue', cue: 'CATO', parenthetical: 'coldly', text: 'No. Never.' },
      { kind: 'dialogue', cue: 'CRASSUS', text: 'Gold speaks.' },
      { kind: 'action', text: 'SILENCE.' },
    ]);
  });
});

/**
 * The script's words, not Fountain markup (was: `[[twenty]]` became a note, `/* … *\/` a boneyard and
 * `*nobody*` italics, so the screenplay lost what the md and HTML exports show).
 */
describe('Fountain export escapes what Fountain would read as markup', () => {
  const said = 'I paid [[twenty]] talents /* to the tribune */ and *nobody* knew, not even my_son_ or \\ the scribe.';
  const doc: ScriptDoc = {
    title: 'S01E01: Debts',
    scenes: [
      {
        id: 'SC03',
        heading: 'INT. HOUSE OF SERVILIA - AFTERNOON',
        cast: ['Cato'],
        elements: [
          { kind: 'action', text: `[[Later]] ${said}` },
          { kind: 'dialogue', cue: 'CATO', parenthetical: '*aside*', text: said },
        ],
      },
    ],
  };

  it('fountain-js shows every word of action, speech and parenthetical, with no note, boneyard or emphasis', () => {
    const src = scriptToFountain(doc);
    const out = new Fountain().parse(src, true);
    const html = out.html.script;
    expect(html).not.toMatch(/<!--|class="(?:italic|bold|underline)/);
    // What a reader sees: the text of the HTML, the invisible word joiner aside.
    const seen = html.replace(/<[^>]+>/g, '\n').replace(/\u2060/g, '').replace(/&amp;/g, '&');
    expect(seen).toContain(`[[Later]] ${said}`);
    expect(seen.split('\n')).toContain(said);
    expect(seen).toContain('(*aside*)');
    const toks = out.tokens as Tok[];
    expect(toks.filter((t) => t.type === 'character').map((t) => t.text)).toEqual(['CATO']);
    // Still one action paragraph: a leading [[ no longer reads as a note line.
    expect(toks.filter((t) => t.type === 'action')).toHaveLength(1);
  });
});
