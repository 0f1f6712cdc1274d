import { describe, expect, it } from 'vitest';
import { checkJsonAnswer, EMPTY_ANSWER, extractJsonText } from '../../src/providers/json-answer.js';
import { CRITIC_SCHEMA } from '../../src/stages/f-verifier/critic.js';
import { characterAnswerSchema } from '../../src/schemas/character-answer.js';

/**
 * JSON answers wrapped the way real models wrap them (not the way our offline realizers write):
 * preambles, bracketed labels, markdown headings, fences of every info-string case, several fences,
 * thinking-like prose before and notes with braces after. Each must read as the JSON it holds, checked
 * against the real request schemas (the critic's; the proposals' character answer, a top-level $ref).
 * The negatives must still be refused, with a problem that says what is wrong.
 */
const verdict = {
  verdict: 'FAIL',
  violations: [{ type: 'hook', rule: 'hook_lands', severity: 'major', message: 'The scene ends without the [hook] the plan asks for; {beat 4} is skipped.' }],
  warnings: ['Pacing drags in the middle (see {scene} above).'],
  fix_instructions: ['End on Crassus\'s offer: "Name your price."'],
};
const V = JSON.stringify(verdict);
const P = JSON.stringify(verdict, null, 2);

const critic: Record<string, string> = {
  bare: V,
  pretty: P,
  'friendly preamble, json fence': `Here's the JSON you asked for:\n\n\`\`\`json\n${P}\n\`\`\``,
  'JSON fence, trailing sentence': `\`\`\`JSON\n${P}\n\`\`\`\nHope this helps.`,
  'JSON fence, trailing note with braces': `Sure! Here is the JSON:\n\n\`\`\`JSON\n${P}\n\`\`\`\n\nNote: {no issues} with continuity.`,
  'Json fence': `\`\`\`Json\n${V}\n\`\`\`\nLet me know if you want changes.`,
  'jsonc fence with comments': `\`\`\`jsonc\n// verdict for SC03\n{\n  // the hook is missing\n  "verdict": "FAIL",\n  "violations": ${JSON.stringify(verdict.violations)},\n  "warnings": [],\n  "fix_instructions": []\n}\n\`\`\``,
  'javascript fence': `\`\`\`javascript\n${P}\n\`\`\``,
  'fence without language': `Verdict below.\n\`\`\`\n${P}\n\`\`\`\n(That's all.)`,
  'fence with a space before json': `\`\`\` json\n${P}\n\`\`\``,
  'four-backtick fence': `\`\`\`\`json\n${P}\n\`\`\`\``,
  'tilde fence': `~~~json\n${P}\n~~~\nDone [end].`,
  'inline fence': `\`\`\`json ${V} \`\`\``,
  'CRLF fence': `Here you go:\r\n\`\`\`JSON\r\n${P.replace(/\n/g, '\r\n')}\r\n\`\`\`\r\nThanks!`,
  'bracketed label first': `Verdict [critic]:\n${V}`,
  'label in brackets on its own line': `[Critic] Verdict for SC03\n\n${P}`,
  'scores with a range': `Scores [1-5]: hook 2, continuity 5, register 4.\n\n\`\`\`json\n${P}\n\`\`\``,
  'a JSON-like list in the preamble': `Rules checked [1, 2, 4]:\n${V}`,
  'an empty object in the preamble': `Returning an empty {} for warnings would hide the pacing note, so:\n\n${P}`,
  'markdown headings and a note after': `## Verdict\n\n**Scene SC03** fails the hook check.\n\n\`\`\`json\n${P}\n\`\`\`\n\n### Notes\nThe closing line (see {scene} above) needs work.`,
  'reasoning fence, then the answer fence': `First, my reasoning:\n\`\`\`\nhook: missing [major]\ndeltas: {money: -500} stated\n\`\`\`\nAnswer:\n\`\`\`json\n${P}\n\`\`\``,
  'a sketch of the shape, then the answer': `The shape you asked for is:\n\`\`\`json\n{"verdict": "PASS|FAIL", "violations": [...], "warnings": [...], "fix_instructions": [...]}\n\`\`\`\nMy answer:\n\`\`\`json\n${P}\n\`\`\``,
  'an array fence before the object fence': `Violated rules:\n\`\`\`json\n["hook_lands"]\n\`\`\`\nFull verdict:\n\`\`\`json\n${P}\n\`\`\``,
  'thinking tags first': `<thinking>\nThe plan says the scene must end on a hook [beat 4]. It ends on {a shrug}. I'll fail it.\n</thinking>\n\n${P}`,
  'thinking-like prose with a stray quote': `Let me think. The deltas are [money: "-500] and {trust: +1}, both shown.\n\nFinal answer: ${V}`,
  'trailing offer with brackets': `Here is my assessment (JSON below):\n${V}\n\nLet me know if you want me to elaborate on [the hook] or {the pacing}.`,
  'blockquote preamble': `> **Critic** — scene SC03\n\n${P}\n\n---\n*Generated for review.*`,
  'sloppy JSON in an upper-case fence': `\`\`\`JSON\n{\n  "verdict": "FAIL",\n  "violations": ${JSON.stringify(verdict.violations)},\n  "warnings": ${JSON.stringify(verdict.warnings)},\n  "fix_instructions": ${JSON.stringify(verdict.fix_instructions)},\n}\n\`\`\`\nThat's it.`,
};

const move = { operator_id: 'bribe', target: 'cicero', bindings: { actor: 'crassus', target: 'cicero' }, rationale: 'Crassus buys [quietly] what he cannot win {openly}.', expected_deltas: [], risk: 'exposure', priority: 0.7 };
const answer = { character_id: 'crassus', moves: [move] };
const proposals: Record<string, string> = {
  'bracketed role label': `Verdict [proposals]:\n${JSON.stringify(answer)}`,
  'upper-case fence with a closing remark': `Proposals for [crassus]:\n\n\`\`\`JSON\n${JSON.stringify(answer, null, 2)}\n\`\`\`\n\nThese keep him in character (see {motives}).`,
  'heading and javascript fence': `### Moves (priority [0-1])\n\`\`\`javascript\n${JSON.stringify(answer, null, 2)}\n\`\`\``,
};

/** An array schema: the object in the preamble is not the answer, the list is. */
const listSchema = { type: 'array', minItems: 1, items: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } } };

describe('JSON wrapped as real models wrap it', () => {
  it.each(Object.entries(critic))('critic: %s', (_name, text) => {
    const r = checkJsonAnswer(text, CRITIC_SCHEMA);
    expect(r, JSON.stringify(r)).toMatchObject({ ok: true });
    if (r.ok) expect((r.value as { verdict: string }).verdict).toBe('FAIL');
  });

  it('reads each wrapping as the whole verdict, brackets in its strings kept', () => {
    for (const name of ['JSON fence, trailing note with braces', 'bracketed label first', 'a sketch of the shape, then the answer', 'thinking tags first', 'trailing offer with brackets']) {
      expect(checkJsonAnswer(critic[name], CRITIC_SCHEMA), name).toEqual({ ok: true, value: verdict, repaired: false });
    }
  });

  it.each(Object.entries(proposals))('proposals: %s', (_name, text) => {
    expect(checkJsonAnswer(text, characterAnswerSchema())).toEqual({ ok: true, value: answer, repaired: false });
  });

  it('prefers the value of the kind the schema asks for', () => {
    const text = 'The first pick alone would be {"id": "a"}, but you asked for the list:\n[{"id": "a"}, {"id": "b"}]\nRanked [best first].';
    expect(checkJsonAnswer(text, listSchema)).toEqual({ ok: true, value: [{ id: 'a' }, { id: 'b' }], repaired: false });
    expect(extractJsonText(text, 'array')).toBe('[{"id": "a"}, {"id": "b"}]');
    expect(extractJsonText(text, 'object')).toBe('{"id": "a"}');
    expect(extractJsonText('Sure! Here is the JSON:\n```JSON\n{"a": 1}\n```\nNote: {no issues}.')).toBe('{"a": 1}');
    expect(extractJsonText('Verdict [critic]:\n{"a": 1}', 'object')).toBe('{"a": 1}');
  });
});

describe('answers that must still be refused', () => {
  const problemsOf = (text: string, schema: object = CRITIC_SCHEMA): string[] => {
    const r = checkJsonAnswer(text, schema);
    expect(r.ok, text).toBe(false);
    return r.ok ? [] : r.problems;
  };

  it('no JSON at all, bracketed prose included', () => {
    expect(problemsOf("I'm not able to judge this scene without its packet.")).toEqual(['the answer holds no JSON object or array']);
    expect(problemsOf('Verdict [critic]: the scene passes {mostly}. Scores [high].')).toEqual(['the answer holds no JSON object or array']);
    expect(problemsOf('## Verdict\n\n```\nPASS\n```\nNo issues found.')).toEqual(['the answer holds no JSON object or array']);
  });

  it('an empty answer says it is empty', () => {
    expect(problemsOf('')).toEqual([EMPTY_ANSWER]);
    expect(problemsOf('  \n\t')).toEqual([EMPTY_ANSWER]);
  });

  it('JSON cut short before its required fields', () => {
    expect(problemsOf('```JSON\n{"verdict": "FA')).toEqual(expect.arrayContaining(['/verdict must be equal to one of the allowed values: "PASS", "FAIL"', "/ must have required property 'violations'"]));
    expect(problemsOf('Verdict [critic]:\n{"verdict": "FAIL", "violations": [{"type": "hook", "rule"')).toContain("/ must have required property 'warnings'");
  });

  it('the wrong kind of value, or the wrong fields, named against the answer not the prose around it', () => {
    expect(problemsOf('Violated rules [all]:\n["hook_lands", "continuity"]\nThanks.')).toEqual(['/ must be object']);
    const wrong = `Sure! Here is the JSON:\n\`\`\`JSON\n${JSON.stringify({ ...verdict, verdict: 'MAYBE' })}\n\`\`\`\nNote: {no issues} found, and {} is fine.`;
    expect(problemsOf(wrong)).toEqual(['/verdict must be equal to one of the allowed values: "PASS", "FAIL"']);
  });

  it('JSON too broken to mend says it cannot be parsed', () => {
    expect(problemsOf('```json\n{"verdict": "PASS" : : "FAIL"}\n```')[0]).toMatch(/^not parseable JSON \(/);
  });
});
