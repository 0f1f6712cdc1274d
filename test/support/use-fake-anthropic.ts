import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startFakeAnthropic, type FakeAnthropicServer } from './fake-anthropic-server.js';

/**
 * The fake Messages API server's lifecycle for one test file or describe block, set up the same
 * way everywhere: started before its tests, closed after them, and with `resetEachTest` forgotten
 * between tests (requests, queued steps, handler). Called where the hooks belong (file top level
 * or inside a describe); the value it returns stands for the server once started, so tests keep
 * writing `server.script(...)`, `server.requests`, `server.handler = ...`.
 *
 *   const server = useFakeAnthropic({ resetEachTest: true });
 *   it('...', async () => { server.script(steps.ok('Salve.')); ... anthropicEnv(server) ... });
 */
export function useFakeAnthropic(opts: { handler?: FakeAnthropicServer['handler']; resetEachTest?: boolean } = {}): FakeAnthropicServer {
  let live: FakeAnthropicServer | undefined;
  beforeAll(async () => {
    live = await startFakeAnthropic(opts.handler ? { handler: opts.handler } : {});
  });
  afterAll(async () => {
    await live?.close();
  });
  if (opts.resetEachTest) beforeEach(() => live!.reset());
  const started = (): FakeAnthropicServer => {
    if (!live) throw new Error('the fake Anthropic server is used before its beforeAll hook started it');
    return live;
  };
  // Reads and writes go to the started server (its getters and setters included), so the
  // value can be handed out before beforeAll has run.
  return new Proxy({} as FakeAnthropicServer, {
    get: (_t, prop) => Reflect.get(started(), prop),
    set: (_t, prop, value) => Reflect.set(started(), prop, value),
  });
}

/** The environment the real SDK reads to reach the fake server: the API key and the base URL. */
export function anthropicEnv(server: FakeAnthropicServer, key: string): { ANTHROPIC_API_KEY: string; ANTHROPIC_BASE_URL: string } {
  return { ANTHROPIC_API_KEY: key, ANTHROPIC_BASE_URL: server.url };
}
