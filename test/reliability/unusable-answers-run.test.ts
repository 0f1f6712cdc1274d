import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, cli, copyRepo, git, makeWorld } from '../pipeline/world.js';
import { steps, type FakeRequest } from '../support/fake-anthropic-server.js';
import { anthropicEnv, useFakeAnthropic } from '../support/use-fake-anthropic.js';
import { modelAnswer } from './fake-model.js';
import { isCritic, isFormatFix, isWriter, userText } from './real-style-model.js';

/**
 * Whole episodes through the real SDK against the fake Messages API, for the answers an audit found
 * misjudged: JSON wrapped as real models wrap it (a ```JSON fence then a sentence, a bracketed label
 * before it) dropped every proposal and ended the run on the critic; a writer cut at max_tokens on
 * every answer ran 72 writer calls into "still failing after 12 regenerations" (exit 5); empty
 * answers were said to be JSON that "does not match the schema".
 */
const server = useFakeAnthropic();
let pristine = '';
beforeAll(async () => {
  pristine = await makeWorld('unusable-answers');
}, 120_000);
afterAll(() => cleanup());

const env = () => anthropicEnv(server, 'sk-ant-test-unusable');
const isProposals = (r: FakeRequest) => {
  try {
    return Boolean((JSON.parse(userText(r)) as { candidate_moves?: unknown }).candidate_moves);
  } catch {
    return false;
  }
};
const untouched = (w: string, head: string) => {
  expect(git(w, 'rev-parse', 'HEAD')).toBe(head);
  expect(git(w, 'status', '--porcelain', '--', 'world', 'operators', 'seasons')).toBe('');
};

describe('an episode whose model answers are wrapped, empty or cut', () => {
  it('JSON in a ```JSON fence with a closing remark, or after a bracketed label, commits with no re-ask and no dropped proposal', async () => {
    server.reset();
    server.handler = (r) => {
      const text = modelAnswer(r);
      if (isProposals(r)) return steps.ok(`Proposals [${r.index}]:\n${text}`);
      if (isCritic(r)) return steps.ok(r.index % 2 ? `Verdict [critic]:\n${text}` : `Sure! Here is the JSON:\n\n\`\`\`JSON\n${text}\n\`\`\`\n\nLet me know if you want changes (see {scene} above).`);
      return steps.ok(text);
    };
    const w = copyRepo(pristine, 'unusable-wrapped');
    const r = await cli(['episode', 'run', '--provider', 'anthropic', '--json'], w, env());
    expect(r.code, r.stderr.slice(-1500)).toBe(0);
    expect(r.stderr + r.stdout).not.toMatch(/AUR3005|AUR4201/);
    // Not one proposals or critic call re-asked: each conversation is the one user turn.
    expect(server.requests.filter((q) => isProposals(q) || isCritic(q)).every((q) => q.body!.messages.length === 1)).toBe(true);
  }, 240_000);

  it('every writer answer cut at max_tokens: exit 7 with AUR4210 naming the scene and max_tokens.writer, not a verification failure', async () => {
    server.reset();
    server.handler = (r) => {
      const text = modelAnswer(r);
      return isWriter(r) ? steps.maxTokens(text.slice(0, Math.floor(text.length / 2))) : steps.ok(text);
    };
    const w = copyRepo(pristine, 'unusable-cut-writer');
    const head = git(w, 'rev-parse', 'HEAD');
    const r = await cli(['episode', 'run', '--provider', 'anthropic'], w, env());
    expect(r.code, r.stderr.slice(-1500)).toBe(7);
    expect(r.stderr).toMatch(/AUR4210 the writer answer \(s01e01 SC\d+\) was cut off at max_tokens \(12000\) 2 time\(s\)/);
    expect(r.stderr).toMatch(/raise max_tokens\.writer in aureus\.config\.yaml/);
    expect(r.stderr).not.toMatch(/AUR6007|regenerations/);
    // No draft was verified, format-fixed or regenerated: each scene asked is its cut answer and one retry.
    expect(server.requests.filter(isFormatFix)).toEqual([]);
    expect(server.requests.filter(isWriter).every((q) => q.body!.messages.length === 1)).toBe(true);
    untouched(w, head);
  }, 240_000);

  it('a critic that answers with no text: exit 7 with AUR4230 saying so, not AUR4201', async () => {
    server.reset();
    server.handler = (r) => (isCritic(r) ? (r.index % 2 ? steps.empty() : steps.thinkingOnly()) : steps.ok(modelAnswer(r)));
    const w = copyRepo(pristine, 'unusable-empty-critic');
    const head = git(w, 'rev-parse', 'HEAD');
    const r = await cli(['episode', 'run', '--provider', 'anthropic'], w, env());
    expect(r.code, r.stderr.slice(-1500)).toBe(7);
    expect(r.stderr).toMatch(/AUR4230 the critic answer \(s01e01 SC\d+( \w+)?\) was empty \(no text\)/);
    expect(r.stderr).not.toMatch(/AUR4201|does not match the schema/);
    untouched(w, head);
  }, 240_000);

  it('a writer that answers with no text: asked once more, then exit 7 with AUR4230 naming the scene, not a dozen regenerations', async () => {
    server.reset();
    server.handler = (r) => (isWriter(r) ? (r.index % 2 ? steps.empty() : steps.thinkingOnly()) : steps.ok(modelAnswer(r)));
    const w = copyRepo(pristine, 'unusable-empty-writer');
    const head = git(w, 'rev-parse', 'HEAD');
    const r = await cli(['episode', 'run', '--provider', 'anthropic'], w, env());
    expect(r.code, r.stderr.slice(-1500)).toBe(7);
    expect(r.stderr).toMatch(/AUR4230 the writer answer \(s01e01 SC\d+\) was empty \(no text\) in 2 of 2 attempt\(s\)/);
    expect(r.stderr).not.toMatch(/AUR6007|regenerations/);
    expect(server.requests.filter(isFormatFix)).toEqual([]);
    untouched(w, head);
  }, 240_000);
});
