import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli, cleanup, copyRepo, git, makeWorld } from '../pipeline/world.js';
import { startFakeAnthropic, steps, type FakeAnthropicServer } from '../support/fake-anthropic-server.js';
import { briefStrings, playScript, records } from './support.js';

/**
 * The Actor and the beat classifier through the real SDK against a local server speaking the
 * Messages wire format. The answers are written the way a model writes them: a fenced JSON block,
 * quotes inside the dialogue, a directive in the middle of a line.
 */
describe.skipIf(!builtCli())('aureus play with a model provider', () => {
  let base: string;
  let server: FakeAnthropicServer;
  beforeAll(async () => {
    base = await makeWorld('play-model');
    server = await startFakeAnthropic();
  });
  afterAll(async () => {
    await server.close();
    cleanup();
  });

  it('sends the packet and the whispered brief, strips the directive, and shows only the rendered line', async () => {
    const sys = (b: unknown) => JSON.stringify((b as { system?: unknown }).system ?? '');
    server.handler = (req) => {
      if (sys(req.body).includes('Classify the narrative beat')) return steps.ok('{"beat": "complication"}');
      const answer = {
        speaker: 'catiline',
        dialogue: 'You call it "conspiracy", Consul. I call it arithmetic. [DIRECTIVE:beat|beat:escalation] Ask Crassus who holds my notes.',
        action: 'leans on the rostra, smiling',
        internal: 'He knows more than he says.',
        mood: 'contemptuous',
        tension_shift: 0.2,
      };
      return steps.ok('```json\n' + JSON.stringify(answer, null, 2) + '\n```');
    };
    const w = copyRepo(base, 'play-model-w');
    const env = { ANTHROPIC_API_KEY: 'sk-ant-test-play', ANTHROPIC_BASE_URL: server.url };
    const r = await playScript(['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--turns', '2', '--session', 'm1', '--json'], w, 'Catiline, what are you planning?\nAnswer me!\n', env);
    expect(r.code, r.stderr).toBe(0);
    const events = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; content?: string; director?: { beat: string } });
    const msgs = events.filter((e) => e.type === 'message_complete');
    expect(msgs).toHaveLength(2);
    expect(msgs[0]!.content).toBe('CATILINE: *leans on the rostra, smiling* "You call it "conspiracy", Consul. I call it arithmetic. Ask Crassus who holds my notes."');
    expect(r.stdout).not.toMatch(/DIRECTIVE|director_brief/);
    for (const s of briefStrings(w, 'm1')) expect(r.stdout).not.toContain(s);
    // The Actor's request: writer-role model, the packet as static context, the brief in the last user message.
    const actorReqs = server.requests.filter((q) => sys(q.body).includes('You are the Actor'));
    expect(actorReqs.length).toBe(2);
    const body = actorReqs[1]!.body as unknown as { model: string; messages: { role: string; content: unknown }[] };
    const last = JSON.stringify(body.messages.at(-1)!.content);
    expect(last).toContain('<director_brief>');
    expect(JSON.stringify(body.messages.slice(0, -1))).not.toContain('<director_brief>');
    expect(sys(actorReqs[0]!.body) + JSON.stringify(actorReqs[0]!.body)).toContain('SCENE PACKET');
    // The model's beat directive was executed as the same action as /beat.
    expect(records(w, 'm1').some((x) => x.type === 'command' && x.name === 'beat' && x.args === 'escalation')).toBe(true);
    expect(git(w, 'log', '-1', '--format=%s')).toMatch(/^play m1: canonize/);
  });
});
