import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { steps } from '../support/fake-anthropic-server.js';
import { anthropicEnv, useFakeAnthropic } from '../support/use-fake-anthropic.js';
import { openLlm } from '../../src/providers/index.js';
import { MemoryRunLog } from '../../src/providers/run-log.js';
import { LlmAbortedError, ProviderError } from '../../src/providers/errors.js';
import { FAKE_KEY, anthropicConfig, tempRoot, writerRequest } from './helpers.js';

/**
 * The provider failures whose codes no test named: the server cannot be reached (AUR4204), the
 * call is aborted (AUR4205, exit 130) and a failure the provider reports for a batch item
 * (AUR4208), through the real SDK against the fake Messages API. The run log names each code.
 */
const server = useFakeAnthropic({ resetEachTest: true });
let root: string;
beforeEach(async () => {
  root = await tempRoot('aureus-codes-');
});

describe('provider failure codes', () => {
  it('a connection the server resets, every retry: AUR4204 naming the role, exit 7', async () => {
    server.handler = () => steps.reset();
    const runLog = new MemoryRunLog();
    const llm = openLlm({ root, config: anthropicConfig((c) => (c.budgets.retries = 1)), env: anthropicEnv(server, FAKE_KEY), runLog });
    const err = (await llm.complete(writerRequest()).catch((e: unknown) => e)) as ProviderError;
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.exitCode).toBe(7);
    expect(err.diagnostics.map((d) => d.code)).toEqual(['AUR4204']);
    expect(err.diagnostics[0]!.message).toContain('writer');
    expect(server.requests.length).toBe(2);
    expect(runLog.entries.map((e) => e.error)).toEqual(['AUR4204']);
  });

  it('an aborted call: AUR4205, exit 130', async () => {
    server.script(steps.hang());
    const ac = new AbortController();
    const llm = openLlm({ root, config: anthropicConfig(), env: anthropicEnv(server, FAKE_KEY), signal: ac.signal });
    const p = llm.complete(writerRequest());
    setTimeout(() => ac.abort(), 50);
    const err = (await p.catch((e: unknown) => e)) as LlmAbortedError;
    expect(err).toBeInstanceOf(LlmAbortedError);
    expect(err.exitCode).toBe(130);
    expect(err.diagnostics.map((d) => d.code)).toEqual(['AUR4205']);
  });

  it('a batch item the provider answers with an error: AUR4208 with its message, exit 7', async () => {
    server.handler = () => steps.serverError();
    const llm = openLlm({ root, config: anthropicConfig(), env: anthropicEnv(server, FAKE_KEY), batch: { runDir: path.join(root, 'run'), pollMs: 10 } });
    const err = (await llm.complete(writerRequest()).catch((e: unknown) => e)) as ProviderError;
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.exitCode).toBe(7);
    expect(err.diagnostics.map((d) => d.code)).toEqual(['AUR4208']);
    expect(err.message).toContain('batch item fake step status');
  });
});
