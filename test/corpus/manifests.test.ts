import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { catalogEntry } from '../../src/diagnostics/catalog.js';
import '../../src/diagnostics/codes/verify.js';
import { readPacket } from '../../src/stages/f-verifier/load.js';

// These tests only check that the two held-out corpora are well-formed: every file and packet
// exists, every expected code is a stable catalog code, every quoted span is really in its file
// (and in the part of the answer the manifest says), and each class has enough cases. Running the
// verifier against the corpora, and the recall / false-positive targets, belong to issues 13 and 14
// (see test/fixtures/writer-corpus/README.md and test/fixtures/prose-corpus/README.md).

const FIX = path.resolve(__dirname, '..', 'fixtures');
const WRITER = path.join(FIX, 'writer-corpus');
const PROSE = path.join(FIX, 'prose-corpus');

const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));
const packetSchema = new Ajv2020({ strict: false, allErrors: true }).compile(
  readJson(path.resolve(__dirname, '..', '..', 'schemas', 'scene_packet.schema.json')) as object,
);

function expectScenePacket(file: string): void {
  expect(existsSync(file), file).toBe(true);
  const p = readPacket(file); // throws AUR5081 when it is not a scene packet
  expect(packetSchema(p), `${file}: ${JSON.stringify(packetSchema.errors)}`).toBe(true);
  expect(p.director_instructions.sequence.length).toBeGreaterThan(0);
}

/** The three parts of an answer, located loosely (any marker form), to check where a span sits. */
function parts(text: string): { prose: string; claims: string; events: string } {
  const at = (re: RegExp) => {
    const m = re.exec(text);
    return m ? m.index : -1;
  };
  const c = at(/^.*claims.*$/im);
  const e = at(/^.*scene[ _]events.*$/im);
  const end = text.length;
  return {
    prose: text.slice(0, c >= 0 ? c : e >= 0 ? e : end),
    claims: c >= 0 ? text.slice(c, e >= 0 ? e : end) : '',
    events: e >= 0 ? text.slice(e) : '',
  };
}

interface WriterEntry {
  file: string;
  packet: string;
  style: string[];
  sound: boolean;
  expect: 'pass' | { code: string; why: string; also?: string[] };
  needs_format_fix: boolean;
}

describe('writer-corpus manifest (issue 13)', () => {
  const manifest = readJson(path.join(WRITER, 'manifest.json')) as WriterEntry[];

  it('lists every answer file once, and only existing files', () => {
    const listed = manifest.map((e) => e.file);
    expect(new Set(listed).size).toBe(listed.length);
    const onDisk = readdirSync(WRITER).filter((f) => f.endsWith('.txt')).sort();
    expect([...listed].sort()).toEqual(onDisk);
  });

  it('points every answer at a real scene packet', () => {
    for (const p of new Set(manifest.map((e) => e.packet))) expectScenePacket(path.join(WRITER, p));
  });

  it('gives each answer a style, a soundness and an expectation that agree', () => {
    for (const e of manifest) {
      expect(e.style.length, e.file).toBeGreaterThan(0);
      expect(typeof e.needs_format_fix, e.file).toBe('boolean');
      if (e.sound) expect(e.expect, e.file).toBe('pass');
      else {
        expect(typeof e.expect, e.file).toBe('object');
        const x = e.expect as { code: string; why: string; also?: string[] };
        for (const code of [x.code, ...(x.also ?? [])]) {
          expect(code, e.file).toMatch(/^AUR50\d\d$/);
          expect(() => catalogEntry(code), `${e.file}: ${code}`).not.toThrow();
        }
        expect(x.why.length, e.file).toBeGreaterThan(10);
      }
    }
  });

  it('has enough answers, sound and defective, in the forms issue 13 measured', () => {
    expect(manifest.length).toBeGreaterThanOrEqual(45);
    expect(manifest.filter((e) => e.sound).length).toBeGreaterThanOrEqual(30);
    expect(manifest.filter((e) => !e.sound).length).toBeGreaterThanOrEqual(15);
    expect(new Set(manifest.map((e) => e.packet)).size).toBeGreaterThanOrEqual(6);
    const styles = new Set(manifest.flatMap((e) => e.style));
    for (const s of [
      'markers_bold', 'markers_h3', 'markers_h2_title', 'markers_lower', 'markers_mixed_case', 'whole_answer_markdown_fence',
      'json_fenced', 'preamble', 'trailing_note_with_brackets', 'cue_gt', 'cue_plain', 'cue_bold', 'cue_paren', 'cue_bold_paren',
      'cue_fountain_centered', 'smart_quotes', 'super_title_card', 'event_extra_field_outcome', 'event_without_deltas',
      'claim_kind_character', 'claims_none', 'ids_as_names', 'ids_capitals', 'operator_by_name', 'transfer_keyed_denarii',
      'subtract_values_signed', 'claims_over_limit_honest', 'fact_claim_secret_held_by_cast',
    ]) expect(styles.has(s), s).toBe(true);
    // Defects come in more than one form too.
    expect(new Set(manifest.filter((e) => !e.sound).map((e) => (e.expect as { code: string }).code)).size).toBeGreaterThanOrEqual(12);
  });

  it('holds full scenes: every sound answer has a scene text of a real scene length', () => {
    for (const e of manifest.filter((x) => x.sound)) {
      const words = parts(readFileSync(path.join(WRITER, e.file), 'utf8')).prose.split(/\s+/).filter(Boolean).length;
      expect(words, e.file).toBeGreaterThanOrEqual(300);
    }
  });
});

const FAMILIES = ['dead', 'presence', 'teleport', 'overspend', 'forbidden', 'outcome', 'cliffhanger', 'length', 'canon', 'anachronism'] as const;
interface ProseEntry {
  file: string;
  packet: string;
  class: string;
  location: 'prose' | 'cue' | 'json' | 'claim' | 'event';
  expect: 'hard' | 'soft_or_none' | 'none';
  span: string | null;
  code_family: (typeof FAMILIES)[number] | null;
}

describe('prose-corpus manifest (issue 14)', () => {
  const manifest = readJson(path.join(PROSE, 'manifest.json')) as ProseEntry[];

  it('lists every answer file once, and only existing files', () => {
    const listed = manifest.map((e) => e.file);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual(readdirSync(PROSE).filter((f) => f.endsWith('.txt')).sort());
  });

  it('points every answer at a real scene packet of the writer corpus', () => {
    for (const p of new Set(manifest.map((e) => e.packet))) expectScenePacket(path.join(WRITER, p));
  });

  it('quotes each span verbatim, in the part of the answer its location names', () => {
    for (const e of manifest) {
      expect(['prose', 'cue', 'json', 'claim', 'event']).toContain(e.location);
      expect(['hard', 'soft_or_none', 'none']).toContain(e.expect);
      if (e.class === 'clean') {
        expect(e.span, e.file).toBeNull();
        expect(e.expect, e.file).toBe('none');
        continue;
      }
      expect(FAMILIES, e.file).toContain(e.code_family);
      expect(typeof e.span, e.file).toBe('string');
      const text = readFileSync(path.join(PROSE, e.file), 'utf8');
      expect(text.includes(e.span!), `${e.file}: span not found: ${e.span}`).toBe(true);
      const p = parts(text);
      const where = { prose: p.prose, cue: p.prose, claim: p.claims, event: p.events, json: p.claims + p.events }[e.location];
      expect(where.includes(e.span!), `${e.file}: span not in its ${e.location}`).toBe(true);
      // A prose defect is stated only in the prose: the JSON sections stay clean.
      if (e.location === 'prose' && e.expect === 'hard') expect((p.claims + p.events).includes(e.span!), e.file).toBe(false);
    }
  });

  it('has at least 8 planted defects per class, 40 near-miss controls and 10 clean drafts', () => {
    for (const f of FAMILIES) {
      const n = manifest.filter((e) => e.expect === 'hard' && e.code_family === f).length;
      expect(n, f).toBeGreaterThanOrEqual(8);
    }
    const controls = manifest.filter((e) => e.class.startsWith('control_'));
    expect(controls.length).toBeGreaterThanOrEqual(40);
    for (const c of controls) expect(['none', 'soft_or_none'], c.file).toContain(c.expect);
    expect(manifest.filter((e) => e.class === 'clean').length).toBeGreaterThanOrEqual(10);
    // Defects are also planted outside the prose: in cue lines, claims, event text and the JSON.
    for (const loc of ['cue', 'claim', 'event', 'json'] as const) {
      expect(manifest.some((e) => e.expect === 'hard' && e.location === loc), loc).toBe(true);
    }
  });

  it('plants anachronisms both on and off the shipped lexicon', () => {
    const lexicon = readFileSync(path.resolve(__dirname, '..', '..', 'style', 'lexicon.md'), 'utf8').toLowerCase();
    const words = manifest.filter((e) => e.expect === 'hard' && e.code_family === 'anachronism').map((e) => e.span!.toLowerCase());
    const onLexicon = words.filter((w) => lexicon.includes(`| ${w} |`));
    expect(onLexicon.length).toBeGreaterThan(0);
    expect(words.length - onLexicon.length).toBeGreaterThanOrEqual(5);
  });
});
