import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtCli, copyRepo, git } from '../pipeline/world.js';
import { steps } from '../support/fake-anthropic-server.js';
import { isActor, jsonEvents, playHandler, usePlayModel } from '../support/play-model.js';
import { playScript } from './support.js';

/** The Actor on Sonnet 4.5, a model at its end-of-life (AUR4010), made usable as a user would. */
const SONNET_45_WRITER = 'provider: anthropic\nmodels:\n  writer: claude-sonnet-4-5\neffort:\n  writer: null\nprices:\n  claude-sonnet-4-5: { input: 3, output: 15, cache_write: 3.75, cache_read: 0.3 }\n';

/** The Actor (a streamed call) and the beat classifier (director, not streamed) both on Sonnet 4.5. */
const SONNET_45_BOTH = 'provider: anthropic\nmodels:\n  writer: claude-sonnet-4-5\n  director: claude-sonnet-4-5\neffort:\n  writer: null\n  director: null\nprices:\n  claude-sonnet-4-5: { input: 3, output: 15, cache_write: 3.75, cache_read: 0.3 }\n';

const ANSWER = JSON.stringify({ speaker: 'catiline', dialogue: 'Ask Crassus.', action: 'smiles', internal: 'He knows.', mood: 'calm', tension_shift: 0.1 });
const ARGS = ['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--turns', '2'];

/**
 * The config's warnings concern the calls a session makes: `play` says them before its first turn,
 * as `episode run` and `episode plan` do (test/pipeline/progress.test.ts), instead of dropping them.
 */
describe.skipIf(!builtCli())("aureus play says the config's warnings", () => {
  const { server, base, env } = usePlayModel('play-config-warnings');
  const world = (label: string, config = SONNET_45_WRITER) => {
    const w = copyRepo(base(), label);
    fs.writeFileSync(path.join(w, 'aureus.config.yaml'), config);
    git(w, 'commit', '-qam', 'sonnet 4.5 for the writer');
    return w;
  };

  it('text: AUR4010 on stderr, as `episode plan` shows it, once', async () => {
    server.handler = playHandler('complication', () => steps.ok(ANSWER));
    const w = world('play-eol-text');
    const r = await playScript([...ARGS, '--session', 'eol'], w, 'Catiline, what are you planning?\nAnswer me!\n', env());
    expect(r.code, r.stderr).toBe(0);
    expect(server.requests.filter(isActor)).toHaveLength(2);
    expect(r.stderr.match(/warning AUR4010 model "claude-sonnet-4-5" \(used for writer\) is retired on 2026-11-30; the API refuses it from that day/g)).toHaveLength(1);
    expect(r.stderr).toContain('hint: move to the current lineup');
    expect(r.stdout).toMatch(/^PLAY at Forum Romanum\. You are Marcus Tullius Cicero/);
  });

  it('--json: a notice event with the code, before the first line; resumed, said again before its turns', async () => {
    server.handler = playHandler('complication', () => steps.ok(ANSWER));
    const w = world('play-eol-json');
    const r = await playScript([...ARGS, '--session', 'ej', '--json'], w, 'Catiline, what are you planning?\n', env());
    expect(r.code, r.stderr).toBe(0);
    const events = jsonEvents<{ type: string; code?: string; message?: string }>(r.stdout);
    expect(events[0]).toEqual({ type: 'notice', code: 'AUR4010', message: expect.stringMatching(/^warning AUR4010 model "claude-sonnet-4-5" \(used for writer\) is retired on 2026-11-30; [^]*$/), hint: expect.stringMatching(/^move to the current lineup/) });
    expect(events.filter((e) => e.code === 'AUR4010')).toHaveLength(1);
    // The hint is said once, in \`hint\`, not repeated in the message.
    expect(events[0].message).not.toContain('move to the current lineup');
    expect(r.stderr).not.toContain('AUR4010');
    const resumed = await playScript(['play', '--resume', 'ej'], w, 'Answer me!\n', env());
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/^aureus\.config\.yaml\n {2}\/models\/writer: warning AUR4010 [^\n]*\n {4}hint: [^\n]*\naureus: resuming ej after turn 1\n/);
  });

  it("the SDK's own per-call deprecation warning stays out of stderr, streamed or not: AUR4010 is said once", async () => {
    server.handler = playHandler('complication', () => steps.ok(ANSWER));
    const w = world('play-eol-sdk', SONNET_45_BOTH);
    const r = await playScript([...ARGS, '--session', 'sdk'], w, 'Catiline, what are you planning?\nAnswer me!\n', env());
    expect(r.code, r.stderr).toBe(0);
    // Four calls to the model the SDK lists as deprecated: two Actor streams, two beat classifications.
    expect(server.requests.filter((q) => q.body?.model === 'claude-sonnet-4-5').map((q) => (isActor(q) ? 'actor' : 'beat')).sort()).toEqual(['actor', 'actor', 'beat', 'beat']);
    expect(r.stderr.match(/AUR4010/g)).toHaveLength(1);
    expect(r.stderr).toContain('warning AUR4010 model "claude-sonnet-4-5" (used for director, writer)');
    expect(r.stderr).not.toMatch(/is deprecated and will reach end-of-life|Please migrate to a newer model/);
  });
});
