import { beforeEach, describe, expect, it } from 'vitest';
import { steps } from '../support/fake-anthropic-server.js';
import { anthropicEnv, useFakeAnthropic } from '../support/use-fake-anthropic.js';
import { openLlm } from '../../src/providers/index.js';
import { canFallBackFrom, LlmEmptyAnswerError, LlmTruncatedError } from '../../src/providers/errors.js';
import { MemoryRunLog } from '../../src/providers/run-log.js';
import { anthropicConfig, criticRequest, FAKE_KEY, tempRoot, writerRequest } from './helpers.js';

/**
 * Answers the router cannot use, through the real SDK against the fake Messages API, each said as
 * what it is: JSON wrapped the way real models wrap it is read (not re-asked), an answer with no text
 * is an empty answer (AUR4230), not JSON that "does not match the schema" (AUR4201), and a writer
 * answer cut at max_tokens twice is a cut (AUR4210 naming the scene and max_tokens.writer), not a
 * draft for the verifier to fail a dozen times.
 */
const server = useFakeAnthropic({ resetEachTest: true });
let root: string;
beforeEach(async () => {
  root = await tempRoot('aureus-unusable-');
});
const verdict = { verdict: 'PASS', violations: [] };

describe('answers that are wrapped, empty or cut', () => {
  it('reads JSON in an upper-case fence with a closing remark, or after a bracketed label, without a re-ask', async () => {
    const runLog = new MemoryRunLog();
    const llm = openLlm({ root, config: anthropicConfig(), env: anthropicEnv(server, FAKE_KEY), runLog });
    server.script(
      steps.ok(`Sure! Here is the JSON:\n\n\`\`\`JSON\n${JSON.stringify(verdict, null, 2)}\n\`\`\`\n\nLet me know if you want changes.`),
      steps.ok(`Verdict [critic]:\n${JSON.stringify(verdict)}`),
      steps.ok(`<thinking>The hook [beat 4] lands; {no issues}.</thinking>\n\`\`\`Json\n${JSON.stringify(verdict)}\n\`\`\`\nNote: see {scene} above.`),
    );
    for (let i = 0; i < 3; i++) expect((await llm.complete(criticRequest())).json).toEqual(verdict);
    expect(server.requests).toHaveLength(3);
    expect(runLog.entries.map((e) => e.reask)).toEqual([0, 0, 0]);
  });

  it('an answer with no content, or thinking only, every time: AUR4230 says it was empty, exit 7', async () => {
    const llm = openLlm({ root, config: anthropicConfig((c) => (c.budgets.json_reasks = 1)), env: anthropicEnv(server, FAKE_KEY) });
    server.script(steps.empty(), steps.thinkingOnly());
    const err = (await llm.complete(criticRequest()).catch((e: unknown) => e)) as LlmEmptyAnswerError;
    expect(err).toBeInstanceOf(LlmEmptyAnswerError);
    expect(err.exitCode).toBe(7);
    expect(err.diagnostics.map((d) => d.code)).toEqual(['AUR4230']);
    expect(err.message).toBe('the critic answer (s01e01 SC03) was empty (no text) in 2 of 2 attempt(s)');
    expect(err.diagnostics[0]!.hint).toMatch(/no text at all \(an empty content list, or thinking blocks only\)/);
    expect(err.diagnostics[0]!.hint).not.toMatch(/does not match the schema|json_reasks/);
    // Still a bad answer, as AUR4201 was: a planning stage falls back from it.
    expect(canFallBackFrom(err)).toBe(true);
    // The re-ask says what was wrong: nothing came back.
    expect(server.requests).toHaveLength(2);
    expect(JSON.stringify(server.requests[1].body!.messages)).toMatch(/the answer is empty: it holds no text at all/);
  });

  it('an empty answer followed by JSON is used; an empty one after invalid JSON still says empty', async () => {
    const llm = openLlm({ root, config: anthropicConfig((c) => (c.budgets.json_reasks = 1)), env: anthropicEnv(server, FAKE_KEY) });
    server.script(steps.empty(), steps.json(verdict));
    expect((await llm.complete(criticRequest())).json).toEqual(verdict);
    server.script(steps.json({ verdict: 'MAYBE', violations: [] }), steps.thinkingOnly());
    const err = (await llm.complete(criticRequest()).catch((e: unknown) => e)) as LlmEmptyAnswerError;
    expect(err.message).toBe('the critic answer (s01e01 SC03) was empty (no text) in 1 of 2 attempt(s)');
  });

  it('a writer answer cut at max_tokens twice fails with AUR4210 naming the scene and max_tokens.writer, exit 7', async () => {
    const runLog = new MemoryRunLog();
    const llm = openLlm({ root, config: anthropicConfig(), env: anthropicEnv(server, FAKE_KEY), runLog });
    server.script(steps.maxTokens('---SCENE_TEXT---\nINT. CURIA - DAY\n\nCICERO: How long'), steps.maxTokens('---SCENE_TEXT---\nINT. CURIA - DAY\n\nCICERO: How long, Catilina, will you'));
    const err = (await llm.complete(writerRequest()).catch((e: unknown) => e)) as LlmTruncatedError;
    expect(err).toBeInstanceOf(LlmTruncatedError);
    expect(err.exitCode).toBe(7);
    expect(err.diagnostics.map((d) => d.code)).toEqual(['AUR4210']);
    expect(err.message).toBe('the writer answer (s01e01 SC04) was cut off at max_tokens (12000) 2 time(s)');
    expect(err.diagnostics[0]!.hint).toMatch(/raise max_tokens\.writer in aureus\.config\.yaml.*resumable/);
    // The first cut is asked again once with twice the room, as before; the second is not a draft.
    expect(server.requests.map((r) => r.body!.max_tokens)).toEqual([6000, 12000]);
    expect(runLog.entries.map((e) => e.stop_reason)).toEqual(['max_tokens', 'max_tokens']);
  });

  it('the recap and format_fix still get a twice-cut answer back: their callers judge it', async () => {
    const llm = openLlm({ root, config: anthropicConfig(), env: anthropicEnv(server, FAKE_KEY) });
    for (const role of ['recap', 'format_fix'] as const) {
      server.script(steps.maxTokens('Previously on'), steps.maxTokens('Previously on Rome'));
      const res = await llm.complete(writerRequest({ role, meta: { episode: 's01e01', label: role } }));
      expect(res).toMatchObject({ stop_reason: 'max_tokens', text: 'Previously on Rome' });
    }
  });
});
