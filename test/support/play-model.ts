import { steps, type FakeAnthropicServer, type FakeRequest, type FakeStep } from './fake-anthropic-server.js';
import { anthropicEnv, useFakeAnthropic } from './use-fake-anthropic.js';
import { useWorld } from './use-world.js';

/**
 * `aureus play` against a model behind the fake Messages API server (the real SDK through
 * ANTHROPIC_BASE_URL), set up the same way by every play test that needs one: a fresh world made by
 * `aureus init` for the file (copy it per test), the server reset between tests, and a handler that
 * tells the play calls apart — the beat classifier and the Actor — by their system prompts.
 */
export interface PlayModelSetup {
  server: FakeAnthropicServer;
  /** The world `aureus init` made for this file (copyRepo it: tests must not share one). */
  base: () => string;
  /** The environment that points the CLI's SDK at the server. */
  env: () => { ANTHROPIC_API_KEY: string; ANTHROPIC_BASE_URL: string };
}

export function usePlayModel(label: string): PlayModelSetup {
  const server = useFakeAnthropic({ resetEachTest: true });
  return { server, base: useWorld(label), env: () => anthropicEnv(server, 'sk-ant-test-play') };
}

/** The system prompt of a request, as text. */
export const systemOf = (req: FakeRequest): string => JSON.stringify(req.body?.system ?? '');
export const isBeatClassifier = (req: FakeRequest): boolean => systemOf(req).includes('Classify the narrative beat');
export const isActor = (req: FakeRequest): boolean => systemOf(req).includes('You are the Actor');

/** A handler: the beat classifier answers `beat`; every other call (the Actor's) is answered by `actor`. */
export function playHandler(beat: string, actor: (req: FakeRequest) => FakeStep): (req: FakeRequest) => FakeStep {
  return (req) => (isBeatClassifier(req) ? steps.ok(JSON.stringify({ beat })) : actor(req));
}

/** The --json events a play run printed, one per line. */
export function jsonEvents<T = { type: string }>(stdout: string): T[] {
  return stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as T);
}
