import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JournaledLlm } from '../../src/pipeline/call-journal.js';
import { LlmRefusalError } from '../../src/providers/errors.js';
import { openLlm } from '../../src/providers/index.js';
import { steps, writerAnswer, type FakeRequest } from '../support/fake-anthropic-server.js';
import { anthropicEnv, useFakeAnthropic } from '../support/use-fake-anthropic.js';
import { anthropicConfig, writerRequest } from '../providers/helpers.js';

/**
 * A run that ends on a refusal forgets the refusals of every call, not only of the one it ended on.
 * Calls as the scenes stage makes them: several writers at once through the real SDK against the
 * local Messages API; SC01's writer is refused twice (the run ends on it), SC02's writer is refused
 * too but lands after SC01 failed, SC03's writer answers well but late. The resumed run (a new
 * journal on the same run folder) must ask SC01 and SC02 afresh and answer SC03 from the journal.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aureus-journal-refusals-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const server = useFakeAnthropic({ resetEachTest: true });
const KEY = 'sk-ant-test-journal-refusals';
const scene = (id: string) => writerRequest({ messages: [{ role: 'user', content: `SCENE_PACKET: {"scene":"${id}"}` }], meta: { episode: 's01e01', scene: id, attempt: 1 } });
const sceneOf = (q: FakeRequest) => /SC\d+/.exec(JSON.stringify(q.body?.messages ?? ''))?.[0];
const good = (q: FakeRequest) => steps.ok(writerAnswer(`INT. FORUM - DAY\n\n${sceneOf(q)} is written.`));
const open = (runDir: string) => new JournaledLlm(openLlm({ root: runDir, config: anthropicConfig(), env: anthropicEnv(server, KEY) }), runDir);

describe('a run that ends on a refusal, with other calls in flight', () => {
  it('stops asking, lets them land, then forgets every refusal: the resume asks the refused calls afresh and keeps the good answer', async () => {
    const runDir = fs.mkdtempSync(path.join(dir, 'run-'));
    const refusal = steps.ok("I can't help with that.", { stop_reason: 'refusal' });
    // SC01 is refused at once; SC02 is refused after it, SC03 answered well after it.
    server.handler = (q) => {
      const id = sceneOf(q);
      if (id === 'SC01') return refusal;
      if (id === 'SC02') return { ...refusal, delayMs: 300 } as typeof refusal;
      return { ...good(q), delayMs: 300 } as typeof refusal;
    };
    const llm = open(runDir);
    const calls = ['SC01', 'SC02', 'SC03'].map((id) => llm.complete(scene(id)));
    const all = Promise.allSettled(calls);
    const ended = await calls[0]!.catch((e: unknown) => e);
    expect(ended).toBeInstanceOf(LlmRefusalError);
    // What run-episode.ts does as the run ends on it.
    await llm.forgetFailedAnswers(ended);
    const [, sc02, sc03] = await all;
    expect(sc02).toMatchObject({ status: 'rejected', reason: ended });
    expect(sc03).toMatchObject({ status: 'fulfilled' });
    // SC02's refusal landed after the run ended: its second ask was not sent (nor any later call).
    await expect(llm.complete(scene('SC04'))).rejects.toBe(ended);
    expect(server.requests.map(sceneOf)).toEqual(['SC01', 'SC02', 'SC03', 'SC01']);
    const left = fs.readdirSync(path.join(runDir, 'calls'));
    expect(left).toEqual([`${JournaledLlm.keyOf(scene('SC03'))}.json`]);

    server.reset();
    server.handler = good;
    const resumed = open(runDir);
    const answers = await Promise.all(['SC01', 'SC02', 'SC03'].map((id) => resumed.complete(scene(id))));
    expect(answers.map((a) => a.stop_reason)).toEqual(['end_turn', 'end_turn', 'end_turn']);
    // Was AUR4212 for SC02 with no request sent: its two refusals were replayed from the journal.
    expect(server.requests.map(sceneOf).sort()).toEqual(['SC01', 'SC02']);
    expect(resumed.replayed).toBe(1);
  });
});
