import { describe, expect, it } from 'vitest';
import { verifySceneOutput } from '../../../src/stages/f-verifier/verify.js';
import { validators } from '../../../src/stages/f-verifier/schemas.js';
import type { VerifierReport } from '../../../src/domain/scene.js';
import { ctx, fixture, packet } from './helpers.js';

/**
 * The normaliser of issue 13 on the clean villa scene re-dressed one form at a time: each form is
 * read as the canonical one (no hard finding, the change on the record), and the planted defects
 * it must not hide still fail.
 */
const clean = fixture('clean.txt');
const [textPart, rest] = clean.split('---CLAIMS---');
const [claimsPart, eventsPart] = rest.split('---SCENE_EVENTS---');
const answer = (o: { text?: string; claims?: string; events?: string } = {}) =>
  `---SCENE_TEXT---${o.text ?? textPart.replace('---SCENE_TEXT---', '')}---CLAIMS---\n${o.claims ?? claimsPart}\n---SCENE_EVENTS---\n${o.events ?? eventsPart}`;
const events = JSON.parse(eventsPart) as Record<string, unknown>[];
const withEvents = (f: (e: Record<string, any>[]) => void) => {
  const e = structuredClone(events) as Record<string, any>[];
  f(e);
  return answer({ events: JSON.stringify(e, null, 2) });
};
const codes = (raw: string, c = ctx()) => verifySceneOutput(raw, c).findings.map((f) => f.code);
// clean.txt has one screenplay cue (TERTULLA on its own line): its cue_form note is not the point here.
const noted = (raw: string, c = ctx()) => verifySceneOutput(raw, c).normalisations.map((n) => n.code).filter((x) => x !== 'cue_form');

describe('normaliser: speaker cues', () => {
  const forms = [
    'CATILINA: You thought you were rid of me?',
    '**CATILINA:** You thought you were rid of me?',
    '> CATILINA: You thought you were rid of me?',
    'CATILINA (rising): You thought you were rid of me?',
    '**CATILINA** (rising): You thought you were rid of me?',
    '> CATILINA (O.S.): You thought you were rid of me?',
    '                    CATILINA\n          You thought you were rid of me?',
    '                    CATILINA (O.S.)\n               (softly)\n          You thought you were rid of me?',
  ];
  for (const line of forms) {
    it(`reads "${line.trim().split('\n')[0]}" as a speaker (the dead man is caught)`, () => {
      const raw = answer({ text: textPart.replace('---SCENE_TEXT---', '').replace('A cup set down too hard.', `A cup set down too hard.\n${line}`) });
      expect(codes(raw)).toContain('AUR5010');
    });
  }

  it('reads a camera direction in capitals ("VARO\'S POV:", "ANGLE ON …:", "CLOSE ON …:") as no speaker (held-out corpus 66, bm19), and still reads an uncast cue', () => {
    const put = (line: string) => answer({ text: textPart.replace('---SCENE_TEXT---', '').replace('A cup set down too hard.', `A cup set down too hard.\n${line}`) });
    for (const line of ["TERTULLA'S POV: the cup, the wet ring it leaves.", 'ANGLE ON THE DOOR: nobody comes.', 'CLOSE ON TERTULLA: her hands are still.']) {
      expect(codes(put(line)), line).not.toContain('AUR5012');
    }
    expect(codes(put('MARCUS PORCIUS CATO: You thought you were rid of me?'))).toContain('AUR5012');
  });

  it('reads an HTML comment line as no part of the scene: not its last line for the button-line rule (held-out corpus 62, bi05)', () => {
    const raw = answer({ text: `${textPart.replace('---SCENE_TEXT---', '').trimEnd()}\n\n<!-- CLAIMS and SCENE_EVENTS below, in one block: the scene above runs to its hook -->\n` });
    expect(codes(raw)).not.toContain('AUR5060');
  });

  it('reads a bold label of the Writer\'s notes ("**Beats covered:**", "**Notes:**", "HOOK:") as no speaker (held-out corpus 62, bi04)', () => {
    const put = (line: string) => answer({ text: `${textPart.replace('---SCENE_TEXT---', '')}\n${line}\n` });
    for (const line of ['**Beats covered:**\n\n- b04: the dagger stays hidden.', '**Notes:** the hook is the knock.', 'HOOK: the knock at the door.']) {
      expect(codes(put(line)), line).not.toContain('AUR5012');
    }
  });

  it('reads SUPER: and TITLE: cards as on-screen text, not speakers, and says so', () => {
    const raw = answer({ text: `\n## SC04 — INT. VILLA OF CRASSUS - NIGHT\n\nSUPER: Rome. The Ides.\n${textPart.replace('---SCENE_TEXT---', '').replace(/^\n## SC04.*\n/, '')}` });
    expect(codes(raw)).toEqual([]);
    expect(noted(raw)).toContain('title_card');
  });
});

describe('normaliser: sections and JSON', () => {
  it('reads smart quotes used as JSON delimiters (jsonrepair: a soft AUR5003, on the record)', () => {
    const raw = answer({ claims: '[{“id”: “c1”, “kind”: “minor_character”, “text”: “Sosia, a doorkeeper at Villa of Crassus’ gate”}]' });
    const v = verifySceneOutput(raw, ctx());
    expect(v.findings.map((f) => [f.code, f.severity])).toEqual([['AUR5003', 'soft']]);
    expect(v.parsed.claims).toEqual([{ id: 'c1', kind: 'minor_character', text: 'Sosia, a doorkeeper at Villa of Crassus’ gate' }]);
    expect(noted(raw)).toEqual(['json_repaired']);
  });

  const markerForms: [string, (n: string) => string][] = [
    ['**NAME**', (n) => `**${n}**`],
    ['### NAME', (n) => `### ${n}`],
    ['## Name Words', (n) => `## ${n.split('_').map((w) => w[0] + w.slice(1).toLowerCase()).join(' ')}`],
    ['--- name words ---', (n) => `--- ${n.toLowerCase().replace('_', ' ')} ---`],
    ['**NAME:**', (n) => `**${n}:**`],
    ['1. NAME', (n) => `${['SCENE_TEXT', 'CLAIMS', 'SCENE_EVENTS'].indexOf(n) + 1}. ${n}`],
    ['## NAME (what it holds)', (n) => `## ${n} (${n === 'SCENE_TEXT' ? 'screenplay' : 'JSON'})`],
    ['<name> … </name>', (n) => `<${n.toLowerCase()}>`],
    // Word order from another language (held-out corpus 117, dl13: "## Text of Scene", "## Events of Scene").
    ['## Words of (the) Scene', (n) => ({ SCENE_TEXT: '## Text of Scene', CLAIMS: '## Claims of the scene', SCENE_EVENTS: '**Events of Scene**' })[n]!],
  ];
  for (const [label, mark] of markerForms) {
    it(`reads section markers written as ${label}`, () => {
      let raw = answer().replace(/---(SCENE_TEXT|CLAIMS|SCENE_EVENTS)---/g, (_m, n: string) => mark(n));
      if (label.startsWith('<')) raw = raw.replace('<claims>', '</scene_text>\n<claims>').replace('<scene_events>', '</claims>\n<scene_events>') + '\n</scene_events>\n';
      const v = verifySceneOutput(raw, ctx());
      expect(v.findings).toEqual([]);
      expect(v.parsed.scene_text).toBe(verifySceneOutput(clean, ctx()).parsed.scene_text);
      expect(noted(raw)).toContain('section_marker');
    });
  }

  it('leaves a trailing Note with brackets out of unfenced JSON instead of misreading it', () => {
    const raw = `${answer()}\nNote: e1 is the loan [a04]; the snub [a05] fails as planned.\n`;
    const v = verifySceneOutput(raw, ctx());
    expect(v.findings).toEqual([]);
    expect(v.parsed.events).toHaveLength(2);
    expect(v.normalisations.find((n) => n.code === 'text_around_json')?.what).toContain('Note: e1 is the loan');
  });

  // Markdown around the word is packaging (held-out corpus 65, bl05: "### Claims" over "- None.").
  for (const empty of ['None', 'none.', '[]', '', 'N/A', 'None — this scene introduces nothing new.', '- None.', '* none', '*None.*', '**None**', '- _None — nothing new is introduced._', '1. None.']) {
    it(`reads CLAIMS "${empty}" as an empty list`, () => {
      const v = verifySceneOutput(answer({ claims: empty }), ctx());
      expect(v.form_errors).toEqual([]);
      expect(v.parsed.claims).toEqual([]);
      // The claimed extra is gone, so Sosia speaking is now the only finding.
      expect(v.findings.map((f) => f.code)).toEqual(['AUR5012']);
    });
  }

  // An undecorated marker with its value on the same line, as models write it (held-out corpus 3, y08):
  // before, the line was read as a speaker CLAIMS and the section as missing (AUR5001).
  const inlineAnswer = (claimsLine: string, eventsLine = '---SCENE_EVENTS---\n') =>
    answer().replace(/---CLAIMS---\n[\s\S]*?\n---SCENE_EVENTS---\n/, `${claimsLine}\n\n${eventsLine}`);
  for (const line of ['CLAIMS: None', 'Claims: none.', 'claims: []', 'CLAIMS:   NONE — nothing new in this scene', 'Claims: N/A']) {
    it(`reads the undecorated marker with an inline value "${line}" as the CLAIMS section`, () => {
      const v = verifySceneOutput(inlineAnswer(line), ctx());
      expect(v.form_errors).toEqual([]);
      expect(v.parsed.claims).toEqual([]);
      expect(v.findings.map((f) => f.code)).toEqual(['AUR5012']);
      expect(noted(inlineAnswer(line))).toContain('section_marker');
    });
  }

  // Held-out corpus 19, f14: a heading over a label that names the section again with its value.
  for (const [heading, label] of [['# Claims', 'Claims: None'], ['## CLAIMS', 'CLAIMS: []'], ['**Claims**', 'Claims: none.']]) {
    it(`reads "${label}" under the heading "${heading}" as the CLAIMS section's value`, () => {
      const raw = inlineAnswer(`${heading}\n\n${label}`);
      const v = verifySceneOutput(raw, ctx());
      expect(v.form_errors).toEqual([]);
      expect(v.parsed.claims).toEqual([]);
      expect(v.findings.map((f) => f.code)).toEqual(['AUR5012']);
    });
  }

  it('reads "SCENE_EVENTS: [" with the JSON starting on the marker line, and a one-line claims list after "CLAIMS:"', () => {
    const oneLine = JSON.stringify(JSON.parse(claimsPart));
    const raw = inlineAnswer(`CLAIMS: ${oneLine}`, `Scene_Events: ${eventsPart.trim()}\n`);
    const v = verifySceneOutput(raw, ctx());
    expect(v.form_errors).toEqual([]);
    expect(v.findings).toEqual([]);
    expect(v.parsed.claims).toHaveLength(2);
    expect(v.parsed.events).toHaveLength(2);
  });

  it('still reads a line that only starts like a section as the scene text: speech, SCENE_TEXT or "Events" with a value', () => {
    // "None of …" is words after a cue, not a value; SCENE_TEXT and a bare "Events" never take an inline value undecorated.
    for (const line of ['CLAIMS: None of this is yours to give.', 'SCENE_TEXT: INT. VILLA - NIGHT', 'Events: []']) {
      const raw = answer({ text: textPart.replace('---SCENE_TEXT---', '').replace('A cup set down too hard.', `A cup set down too hard.\n${line}`) });
      const v = verifySceneOutput(raw, ctx());
      expect(v.parsed.scene_text, line).toContain(line);
      expect(v.form_errors, line).toEqual([]);
      expect(v.parsed.claims, line).toHaveLength(2);
    }
  });

  it('sets form_errors exactly when a section cannot be found or read', () => {
    expect(verifySceneOutput(clean, ctx()).form_errors).toEqual([]);
    const table = answer({ events: '| id | type |\n| --- | --- |\n| e1 | operator |' });
    expect(verifySceneOutput(table, ctx()).form_errors).toEqual(['the SCENE_EVENTS section is not JSON: no JSON array or object found']);
    expect(verifySceneOutput(clean.split('---SCENE_EVENTS---')[0], ctx()).form_errors).toEqual(['the SCENE_EVENTS section is missing from the writer output']);
    // A schema problem is not a form problem: the JSON was read.
    expect(verifySceneOutput(fixture('events_schema.txt'), ctx()).form_errors).toEqual([]);
  });
});

describe('normaliser: ids, operators, fields and deltas', () => {
  it('resolves actors, targets and transfer parties written as names or capitals', () => {
    const raw = withEvents((e) => {
      e[0].actor = 'Marcus Crassus';
      e[0].target = 'CICERO';
      e[0].deltas[0].from = 'Crassus';
      e[0].deltas[0].to = 'Tullius Cicero';
    });
    const v = verifySceneOutput(raw, ctx());
    expect(v.findings).toEqual([]);
    expect(v.parsed.events[0]).toMatchObject({ actor: 'crassus', target: 'cicero' });
    expect(v.parsed.events[0].deltas[0]).toMatchObject({ from: 'crassus', to: 'cicero' });
    expect(v.normalisations.filter((n) => n.code === 'id_resolved')).toHaveLength(4);
  });

  it('reads an event type in capitals, and leaves an unknown type to the schema', () => {
    expect(codes(withEvents((e) => (e[0].type = 'Operator')))).toEqual([]);
    expect(codes(withEvents((e) => (e[0].type = 'scheme')))).toEqual(['AUR5004']);
  });

  it('leaves an ambiguous name as written (a praenomen names no one)', () => {
    expect(codes(withEvents((e) => (e[0].actor = 'Marcus')))).toEqual(['AUR5004']);
  });

  for (const op of ['Loan Leash', 'LOAN LEASH', 'loan_leash', 'OP_LOAN_LEASH', 'Loan Leash: Crassus lends money']) {
    it(`resolves operator "${op}" to op_loan_leash`, () => {
      const v = verifySceneOutput(withEvents((e) => (e[0].operator_id = op)), ctx());
      expect(v.findings).toEqual([]);
      expect(v.parsed.events[0].operator_id).toBe('op_loan_leash');
    });
  }

  it('keeps extra fields out of the judged event, and reads a missing deltas as none', () => {
    const raw = withEvents((e) => {
      e[1].outcome = 'fail';
      e.push({ id: 'e3', type: 'dialogue', actor: 'tertulla', text: 'Tertulla spills the wine.' });
    });
    const v = verifySceneOutput(raw, ctx());
    expect(v.findings).toEqual([]);
    expect(v.parsed.events[1]).not.toHaveProperty('outcome');
    expect(v.parsed.events[2].deltas).toEqual([]);
    expect(noted(raw)).toEqual(['field_ignored', 'deltas_missing']);
  });

  it('reads a transfer keyed denarii (spec §8.2) and a signed subtract', () => {
    const raw = withEvents((e) => {
      e[0].deltas[0] = { path: 'assets.cash_ledger', op: 'transfer', from: 'crassus', to: 'cicero', denarii: 5000 };
      e[1].deltas[0].value = -3;
    });
    expect(codes(raw)).toEqual([]);
    expect(noted(raw)).toEqual(['transfer_key', 'signed_subtract']);
  });

  it('still fails an overdraft written with the denarii key, and a change the plan does not require', () => {
    expect(codes(withEvents((e) => (e[0].deltas[0] = { path: 'assets.cash_ledger', op: 'transfer', from: 'crassus', to: 'cicero', denarii: 500000 })))).toContain('AUR5020');
    // An add of a negative number is not a signed subtract: it is a different change.
    expect(codes(withEvents((e) => (e[1].deltas[0] = { path: 'characters.cicero.stats.fama', op: 'add', value: -3 })))).toContain('AUR5034');
  });

  it('derives the bookkeeping delta the model left out, on the event aligned to its application', () => {
    const p = packet();
    p.constraints.required_deltas.push({ application_id: 'a04', path: 'threads.thr_debt.last_progress_episode', op: 'set', value: 1 } as never);
    const v = verifySceneOutput(clean, ctx(p));
    expect(v.findings).toEqual([]);
    expect(v.parsed.events[0].deltas.at(-1)).toEqual({ path: 'threads.thr_debt.last_progress_episode', op: 'set', value: 1 });
    expect(noted(clean, ctx(p))).toEqual(['bookkeeping_derived']);
    // A story delta left out is never derived.
    p.constraints.required_deltas.push({ application_id: 'a04', path: 'threads.thr_debt.progress', op: 'add', value: 0.1 } as never);
    expect(codes(clean, ctx(p))).toEqual(['AUR5031']);
  });

  it('reads the list wrapped in its section name, one item without its list, op words and numbers as strings', () => {
    const wrapped = answer({ events: JSON.stringify({ events: events }) });
    expect(codes(wrapped)).toEqual([]);
    expect(noted(wrapped)).toEqual(['list_unwrapped']);
    const loose = withEvents((e) => {
      e[0].deltas = [{ ...e[0].deltas[0], amount: '5,000' }, { ...e[0].deltas[1], op: 'Increase', value: '0.3' }];
      e[1].deltas = { ...e[1].deltas[0], op: 'decrease' };
    });
    const v = verifySceneOutput(loose, ctx());
    expect(v.findings).toEqual([]);
    expect(v.parsed.events[0].deltas[0].amount).toBe(5000);
    expect(noted(loose)).toEqual(['number_string', 'delta_op', 'number_string', 'list_unwrapped', 'delta_op']);
    // An op word that changes the meaning is still judged: "decrease" where the plan adds.
    expect(codes(withEvents((e) => (e[0].deltas[1].op = 'decrease')))).toEqual(['AUR5031', 'AUR5032']);
  });

  it('holds a claim to the lexicon, naming the claim and quoting its line', () => {
    const raw = answer({ claims: '[\n  {"id":"c1","kind":"minor_character","text":"Sosia, a doorkeeper at Villa of Crassus"},\n  {"id":"c2","kind":"object","text":"A police whistle on the doorkeeper\'s belt."}\n]' });
    const [f] = verifySceneOutput(raw, ctx()).findings;
    expect([f.code, f.severity, f.message]).toEqual(['AUR5050', 'hard', 'anachronism "police" in claim c2']);
    expect(raw.replace(/\r/g, '').split('\n')[f.span!.line - 1]).toBe(f.span!.text);
    expect(f.span!.text).toContain('police whistle');
  });

  it('maps claim kind "character" to minor_character', () => {
    const raw = answer({ claims: '[{"id":"c1","kind":"character","text":"Sosia, a doorkeeper at Villa of Crassus"}]' });
    const v = verifySceneOutput(raw, ctx());
    expect(v.findings).toEqual([]);
    expect(v.accepted_claims).toEqual([{ id: 'c1', kind: 'minor_character', text: 'Sosia, a doorkeeper at Villa of Crassus' }]);
    expect(noted(raw)).toEqual(['claim_kind']);
  });
});

describe('normaliser: on the record', () => {
  it('fits an attempt of verifier_report.json (schema), and the schema refuses a malformed one', () => {
    const raw = `Here is the scene.\n\n${answer().replace(/---(SCENE_TEXT|CLAIMS|SCENE_EVENTS)---/g, '**$1**')}`;
    const v = verifySceneOutput(raw, ctx());
    expect(v.hard).toBe(false);
    expect(v.normalisations.map((n) => n.code)).toEqual(['section_marker', 'preamble', 'cue_form']);
    const report: VerifierReport = {
      format: 1,
      episode_id: 's01e01',
      scenes: [{ scene: 'SC04', attempts: [{ attempt: 1, model: 'm', mode: 'write', raw_file: 'drafts/SC04.1.txt', findings: v.findings, critic: null, verdict: 'PASS', normalisations: v.normalisations }], final_verdict: 'PASS', manual_review: false }],
      episode_findings: [],
      budget: { per_scene: 2, per_episode: 12, used: 0 },
      verdict: 'PASS',
    };
    expect(validators().report(report), JSON.stringify(validators().report.errors)).toBe(true);
    (report.scenes[0].attempts[0].normalisations as unknown[]).push({ what: 'no code' });
    expect(validators().report(report)).toBe(false);
  });
});

describe('normaliser: control and bidi characters (never committed)', () => {
  // A chat model's answer: preamble, markdown headings, a ```json fence; the claims carry a NUL, an
  // ANSI colour sequence, a right-to-left override and a C1 character, escaped in the JSON as models write them.
  const dirty = '[{"id":"c1","kind":"minor_character","text":"Sosia,\\u0000 a doorkeeper at \\u001b[31mVilla of Crassus\\u001b[0m"},' +
    '{"id":"c2","kind":"object","text":"At Villa of Crassus there is a bust of \\u202eCatilina\\u202c turned to\\u0085 face the wall."}]';
  const chat = (claims: string, text = textPart.replace('---SCENE_TEXT---', '')) =>
    `Here is the scene\u0000 you asked for.\n\n### SCENE_TEXT\n${text}\n### CLAIMS\n\n\`\`\`json\n${claims}\n\`\`\`\n\n### SCENE_EVENTS\n\n\`\`\`json\n${eventsPart.trim()}\n\`\`\`\n`;
  const BAD = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

  it('removes them from every claim, keeps the answer, and says so in a soft AUR5007 per field', () => {
    const v = verifySceneOutput(chat(dirty, textPart.replace('---SCENE_TEXT---', '').replace('A cup set down too hard.', 'A cup set down\u2067 too hard.\u009b')), ctx());
    expect(v.parsed.claims.map((c) => c.text)).toEqual(['Sosia, a doorkeeper at Villa of Crassus', 'At Villa of Crassus there is a bust of Catilina turned to face the wall.']);
    expect(v.accepted_claims.map((c) => c.id)).toEqual(['c1', 'c2']);
    expect(v.parsed.scene_text).toContain('A cup set down too hard.');
    expect(BAD.test(v.parsed.scene_text)).toBe(false);
    expect(v.hard).toBe(false);
    const soft = v.findings.filter((f) => f.code === 'AUR5007');
    expect(soft.map((f) => [f.severity, f.rule, f.message])).toEqual([
      ['soft', 'format.control_chars', 'SCENE_TEXT carried control or bidi characters (\\u2067 \\u009b): removed before the scene was judged and committed'],
      ['soft', 'format.control_chars', 'CLAIMS/0/text carried control or bidi characters (\\u0000 \\u001b): removed before the scene was judged and committed'],
      ['soft', 'format.control_chars', 'CLAIMS/1/text carried control or bidi characters (\\u202e \\u202c \\u0085): removed before the scene was judged and committed'],
    ]);
    expect(soft[0].fix).toBe('Write plain text only: no control characters, terminal escapes or bidi overrides (\\u2067 \\u009b).');
    expect(noted(chat(dirty))).toContain('control_chars');
    // The preamble is not committed content, but its note quotes it: shown escaped, as messages are.
    expect(v.normalisations.find((n) => n.code === 'preamble')!.what).toBe('ignored 1 line(s) before the first section ("Here is the scene\\x00 you asked for.")');
  });

  it('leaves ordinary non-ASCII text as it is: macrons, dashes, Greek, emoji', () => {
    const text = 'At Villa of Crassus there is a bust of Catilina — Rōmā, Lūcius, ἀρετή, 🏛️ — turned to face the wall.';
    const raw = chat(`[{"id":"c2","kind":"object","text":"${text}"}]`);
    const v = verifySceneOutput(raw, ctx());
    expect(v.parsed.claims.map((c) => c.text)).toEqual([text]);
    expect(v.findings.filter((f) => f.code === 'AUR5007')).toEqual([]);
    expect(noted(raw)).not.toContain('control_chars');
  });
});
