import { describe, expect, it } from 'vitest';
import type { LlmRequest, LlmResponse } from '../../../src/ports/llm.js';
import { offlineFormatFix } from '../../../src/providers/offline/format_fix.js';
import { plainPurpose } from '../../../src/stages/d-packets/index.js';
import { readableDeltas } from '../../../src/stages/e-writer/deltas.js';
import { buildWriterRequest, lengthTarget } from '../../../src/stages/e-writer/prompt.js';
import { buildCriticRequest, criticNotes, runCritic } from '../../../src/stages/f-verifier/critic.js';
import { buildFormatFixRequest, proseUnchanged } from '../../../src/stages/g-repair/format-fix.js';
import { enforceKept, firstChangedLine, keepOpening } from '../../../src/stages/g-repair/policy.js';
import { fixture, lexicon, packet } from './helpers.js';

const sceneText = (raw: string) => raw.split('---SCENE_TEXT---\n')[1]!.split('\n\n---CLAIMS---')[0]!;

describe('punch-up: the kept opening', () => {
  const text = sceneText(fixture('clean.txt'));
  const keep = keepOpening(text);
  it('takes a text that starts with the opening as it is', () => {
    expect(enforceKept(keep, `${keep}\n\n> CRASSUS: Burn it.`)).toEqual({ text: `${keep}\n\n> CRASSUS: Burn it.`, how: 'verbatim' });
  });
  it('puts the opening back when the model retouched it but its ending follows the last kept line', () => {
    const lines = keep.split('\n');
    const retouched = [lines[0], lines[1], lines[2]!.replace(/\w+/, 'Suddenly'), ...lines.slice(3)].join('\n');
    const r = enforceKept(keep, `${retouched}\nThe lamp gutters.\n> CRASSUS: Burn it.`);
    expect(r).toEqual({ text: `${keep}\n\nThe lamp gutters.\n> CRASSUS: Burn it.`, how: 'spliced' });
    expect(firstChangedLine(keep, retouched)).toBe(3);
  });
  it('puts the opening back before an ending sent alone', () => {
    expect(enforceKept(keep, 'The lamp gutters.\n> CRASSUS: Burn it.')?.text).toBe(`${keep}\n\nThe lamp gutters.\n> CRASSUS: Burn it.`);
  });
  it('refuses a scene written anew', () => {
    expect(enforceKept(keep, '## SC04 — INT. VILLA - NIGHT\n\nSomething else entirely.\n> CRASSUS: Burn it.')).toBeNull();
  });
});

describe('format fix', () => {
  const raw = fixture('claims_unparseable.txt');
  const draftText = sceneText(raw);
  it('accepts prose that differs only in typography, markdown and layout', () => {
    const retyped = draftText.replace(/^> ([A-Z]+):/gm, '**$1:**').replace(/'/g, '\u2019').replace(/\n/g, '\n\n');
    expect(proseUnchanged(raw, draftText, retyped)).toBe(true);
  });
  it('refuses prose with a word changed, added or dropped', () => {
    expect(proseUnchanged(raw, draftText, draftText.replace('You overreach.', 'You overreach, Consul.'))).toBe(false);
    expect(proseUnchanged(raw, draftText, draftText.split('\n').slice(0, -2).join('\n'))).toBe(false);
  });
  it('without a readable scene text, takes only a verbatim stretch that covers the prose', () => {
    const bare = `${draftText}\n\n[{"id":"c1"`;
    expect(proseUnchanged(bare, '', draftText)).toBe(true);
    expect(proseUnchanged(bare, '', draftText.split('\n').slice(0, 3).join('\n'))).toBe(false);
  });
  it('the offline fixer keeps the prose and never invents a section it cannot read', () => {
    const req = buildFormatFixRequest(packet(), raw, ['the CLAIMS section cannot be read'], 1);
    expect(req).toMatchObject({ role: 'format_fix', meta: { scene: 'SC04', attempt: 1, label: 'format_fix' } });
    expect(req.messages[0]!.content).toBe(`PARSE_ERRORS:\n- the CLAIMS section cannot be read\n\nANSWER:\n${raw}`);
    const out = offlineFormatFix(req).text;
    expect(sceneText(out)).toBe(draftText);
    expect(out).toContain('---CLAIMS---\n[]\n');
    expect(offlineFormatFix(req).text).toBe(out);
  });
});

describe('the writer prompt', () => {
  it('gives the required deltas as readable lines with their application ids, bookkeeping left out', () => {
    const pk = packet();
    const withBookkeeping = { ...pk, constraints: { ...pk.constraints, required_deltas: [...pk.constraints.required_deltas, { application_id: 'a04', path: 'threads.thr_x.last_progress_episode', op: 'set' as const, value: 1 }] } };
    const lines = readableDeltas(withBookkeeping);
    expect(lines).toContain('a04: assets.cash_ledger transfer 5000 from crassus to cicero (5000 denarii pass from Crassus to Cicero)');
    expect(lines).toContain("a05: characters.cicero.stats.fama subtract 3 (Cicero's fama falls)");
    expect(lines.join('\n')).not.toContain('last_progress_episode');
    const req = buildWriterRequest(withBookkeeping, { guide: 'g', lexicon: lexicon() }, { seed: 's', attempt: 1, mode: 'write', scene_count: 24 });
    const user = req.messages[0]!.content;
    expect(user).toMatch(/^LENGTH: about 1\.3 pages \(250 words\)\.\n\nSCENE_PACKET:\n/);
    expect(user).not.toContain('last_progress_episode');
    expect(req.system).toContain('allowed_inventions.max');
    expect(req.system).toContain('forbidden_facts');
    expect(req.static_context).toContain('STYLE_GUIDE:');
  });
  it('divides the 30-minute runtime among the scenes', () => {
    expect(lengthTarget(20)).toBe('about 1.5 pages (300 words)');
    expect(lengthTarget(1)).toBe('about 30 pages (6000 words)');
  });
  it('keeps the plan labels out of the hook requirement', () => {
    expect(plainPurpose('CONFRONTATION: Speech for the defence (act 1, establishment)')).toBe('Speech for the defence');
    expect(plainPurpose('Betrayal; advances thr_servilia_caesar (act 1, establishment)')).toBe('Betrayal');
    expect(plainPurpose('Cato learns what Varo paid for')).toBe('Cato learns what Varo paid for');
  });
});

describe('the critic advises', () => {
  const answer = (json: unknown) => ({ complete: async (req: LlmRequest): Promise<LlmResponse> => ({ text: JSON.stringify(json), json, usage: { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 }, cost_usd: 0, model: req.escalate ? 'big' : 'small', provider: 'test', stop_reason: 'end_turn', latency_ms: 0, cached: false }), deterministic: true, providerId: 'test' });
  const req = () => buildCriticRequest(packet(), 'text', [], [], 1, undefined, '| okay | very well | |', 'Short sentences in the street.');
  it('reads the style guide and the lexicon in its cached prefix, and asks for severities', () => {
    expect(req().static_context).toMatch(/^STYLE_GUIDE:\nShort sentences in the street\.\n\nLEXICON/);
    expect(req().system).toContain('"severity": "major|minor"');
  });
  it('a FAIL with only minor violations is a PASS with notes', async () => {
    const c = await runCritic(answer({ verdict: 'FAIL', violations: [{ type: 'voice', rule: 'register', severity: 'minor', message: 'one line runs long' }], warnings: [], fix_instructions: ['Cut it.'] }), req());
    expect(c.findings).toEqual([]);
    expect(criticNotes(c.verdict)).toEqual({ verdict: 'PASS', notes: ['(minor) one line runs long'] });
  });
  it('a major violation is a soft AUR5061 with its own fix', async () => {
    const c = await runCritic(answer({ verdict: 'FAIL', violations: [{ type: 'voice', rule: 'register', severity: 'minor', message: 'long' }, { type: 'hook', rule: 'button_line', severity: 'major', message: 'no button' }], warnings: [], fix_instructions: ['Cut it.', 'End on a turn.'] }), req());
    expect(c.findings.map((f) => [f.code, f.severity, f.message, f.fix])).toEqual([['AUR5061', 'soft', 'critic: no button', 'End on a turn.']]);
  });
});
