import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeEach, describe, expect, it } from 'vitest';
import { steps } from '../support/fake-anthropic-server.js';
import { anthropicEnv, useFakeAnthropic } from '../support/use-fake-anthropic.js';
import { openLlm } from '../../src/providers/index.js';
import { MemoryRunLog } from '../../src/providers/run-log.js';
import { ProviderError } from '../../src/providers/errors.js';
import type { AureusConfig } from '../../src/config/types.js';
import { FAKE_KEY, anthropicConfig, criticRequest, tempRoot, writerRequest } from './helpers.js';

/**
 * What a failed provider call says, through the real SDK against the local Messages API: a wrong
 * base URL told apart from a model the API does not serve, a connection that cannot be made named by
 * its cause and host:port (each retry announced), a request too large pointed at the prompt size,
 * and every final error naming the call as its retry notices do (role and scene).
 */
const server = useFakeAnthropic({ resetEachTest: true });
let root: string;
beforeEach(async () => {
  root = await tempRoot('aureus-endpoint-');
});

function open(env: Record<string, string>, patch: (c: AureusConfig) => void = () => {}) {
  const notices: string[] = [];
  const llm = openLlm({ root, config: anthropicConfig(patch), env, runLog: new MemoryRunLog(), onNotice: (t) => notices.push(t) });
  return { llm, notices };
}

async function failure(p: Promise<unknown>): Promise<ProviderError> {
  const err = await p.catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ProviderError);
  return err as ProviderError;
}

/** A port nothing listens on: one the system gave a server that is closed again. */
async function closedPort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

describe('a 404: the wrong endpoint or a model the API does not serve', () => {
  it('a base URL ending in /v1 (requests go to /v1/v1/messages): AUR4214 naming the URL, the hint says to drop the /v1', async () => {
    const { llm } = open({ ANTHROPIC_API_KEY: FAKE_KEY, ANTHROPIC_BASE_URL: `${server.url}/v1` });
    const err = await failure(llm.complete(criticRequest()));
    expect(server.requests.map((r) => r.path)).toEqual(['/v1/v1/messages']);
    expect(err.exitCode).toBe(7);
    const d = err.diagnostics[0]!;
    // Was AUR4203 with 'the API does not serve model "claude-haiku-5-5" (retired or mistyped): change models.critic …'.
    expect(d.code).toBe('AUR4214');
    expect(d.message).toContain(`no Messages API at ${server.url}/v1/v1/messages (HTTP 404) for the critic SC03 call`);
    expect(d.hint).toBe(`drop the trailing /v1 from ANTHROPIC_BASE_URL (${server.url}/v1): the SDK adds /v1/messages itself; the run is resumable`);
    expect(d.hint).not.toMatch(/model/);
  });

  it('a 404 whose error does not name the model (a proxy, another server): AUR4214 pointing at ANTHROPIC_BASE_URL', async () => {
    server.script({ kind: 'status', status: 404, errorType: 'not_found_error', message: 'Not Found' });
    const { llm } = open(anthropicEnv(server, FAKE_KEY));
    const d = (await failure(llm.complete(writerRequest()))).diagnostics[0]!;
    expect(d.code).toBe('AUR4214');
    expect(d.hint).toMatch(new RegExp(`^check ANTHROPIC_BASE_URL \\(${server.url}\\)`));
  });

  it('the API\'s 404 naming the model still says the model is not served (AUR4203)', async () => {
    server.script(steps.notFound('claude-haiku-5-5'));
    const { llm } = open(anthropicEnv(server, FAKE_KEY));
    const d = (await failure(llm.complete(criticRequest()))).diagnostics[0]!;
    expect(d.code).toBe('AUR4203');
    expect(d.message).toBe('the provider answered HTTP 404 for the critic SC03 call: not_found_error: model: claude-haiku-5-5');
    expect(d.hint).toMatch(/does not serve model "claude-haiku-5-5"/);
  });
});

describe('a connection that cannot be made', () => {
  it('each retry is announced with its cause, and AUR4204 names the cause code and host:port', async () => {
    const port = await closedPort();
    const { llm, notices } = open({ ANTHROPIC_API_KEY: FAKE_KEY, ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}` }, (c) => (c.budgets.retries = 2));
    const err = await failure(llm.complete(writerRequest()));
    const refused = `connection refused (ECONNREFUSED 127.0.0.1:${port})`;
    // Was no notice at all, then "… for the writer call after retries: Connection error. (fetch failed)".
    expect(notices).toEqual([1, 2].map((k) => `writer SC04: ${refused}, retrying (retry ${k} of 2)`));
    expect(err.diagnostics[0]).toMatchObject({ code: 'AUR4204', message: `cannot reach the provider for the writer SC04 call after retries: ${refused}` });
    expect(llm.budget.used).toBe(3);
  });

  it('a port fetch refuses to use (ANTHROPIC_BASE_URL=http://127.0.0.1:1) is named as such', async () => {
    const { llm } = open({ ANTHROPIC_API_KEY: FAKE_KEY, ANTHROPIC_BASE_URL: 'http://127.0.0.1:1' }, (c) => (c.budgets.retries = 0));
    const err = await failure(llm.complete(criticRequest()));
    // Was "Connection error. (fetch failed)".
    expect(err.diagnostics[0]!.message).toBe('cannot reach the provider for the critic SC03 call after retries: port blocked by fetch as unsafe (bad port 127.0.0.1:1)');
  });

  it('a connection the server resets is announced too', async () => {
    server.script(steps.reset(), steps.json({ verdict: 'PASS', violations: [] }));
    const { llm, notices } = open(anthropicEnv(server, FAKE_KEY));
    await llm.complete(criticRequest());
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(new RegExp(`^critic SC03: connection closed by the server \\(UND_ERR_SOCKET 127\\.0\\.0\\.1:${new URL(server.url).port}\\), retrying \\(retry 1 of 3\\)$`));
  });
});

describe('other failures', () => {
  it('HTTP 413: the hint points at the prompt size (packets.token_budget), not at the model ids', async () => {
    server.script({ kind: 'status', status: 413, errorType: 'request_too_large', message: 'Request exceeds the maximum allowed number of bytes.' });
    const { llm } = open(anthropicEnv(server, FAKE_KEY));
    const d = (await failure(llm.complete(writerRequest()))).diagnostics[0]!;
    expect(d.code).toBe('AUR4203');
    expect(d.message).toBe('the provider answered HTTP 413 for the writer SC04 call: request_too_large: Request exceeds the maximum allowed number of bytes.');
    expect(d.hint).toMatch(/lower packets\.token_budget in aureus\.config\.yaml/);
    expect(d.hint).not.toMatch(/model ids/);
  });

  it('the final error names the call as its retry notices do', async () => {
    server.handler = () => steps.overloaded();
    const { llm, notices } = open(anthropicEnv(server, FAKE_KEY), (c) => (c.budgets.retries = 1));
    const err = await failure(llm.complete(criticRequest({ escalate: true })));
    expect(notices).toEqual(['critic SC03 (escalated): 529 overloaded, retrying in 0 s (retry 1 of 1)']);
    expect(err.diagnostics[0]!.message).toBe('the provider answered HTTP 529 for the critic SC03 (escalated) call: overloaded_error: Overloaded');
    // A new run: after an outage the router fails every later call with the same error.
    const { llm: again } = open(anthropicEnv(server, FAKE_KEY), (c) => (c.budgets.retries = 0));
    const proposals = await failure(again.complete(criticRequest({ role: 'proposals', meta: { scene: 'cicero' } })));
    expect(proposals.diagnostics[0]!.message).toMatch(/^the provider answered HTTP 529 for the proposals call for cicero: /);
  });
});
