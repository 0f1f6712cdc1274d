import { describe, expect, it } from 'vitest';
import { builtCli, cli, copyRepo } from '../pipeline/world.js';
import { steps } from '../support/fake-anthropic-server.js';
import { isActor, jsonEvents, playHandler, usePlayModel } from '../support/play-model.js';
import { playScript } from './support.js';

/**
 * What the player is shown: no directive in any field of `--json`, a model directive's notice after
 * the line that carried it, the brief's budget kept on the text sent (and said once when even its
 * smallest form is over), and the help's exit codes.
 */
type Event = { type: string; message?: string; structured?: Record<string, unknown> };

describe.skipIf(!builtCli())('aureus play: what the player sees', () => {
  const { server, base, env } = usePlayModel('play-output');

  it('strips a directive from every field of the answer, mood included, and says its notices after the line that carried it', async () => {
    const answer = {
      speaker: 'catiline',
      action: 'smiles [DIRECTIVE:end]',
      dialogue: 'Ask Crassus who holds my notes.',
      internal: 'He knows.',
      mood: '[DIRECTIVE:note|idea:Catiline is wary of Crassus] wary',
      tension_shift: 0,
    };
    server.handler = playHandler('complication', () => steps.json(answer));
    const w = copyRepo(base(), 'play-out-directives');
    const r = await playScript(['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--mode', 'open', '--session', 'o1', '--json'], w, 'Speak!\n', env());
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('DIRECTIVE');
    const events = jsonEvents<Event>(r.stdout).filter((e) => e.type !== 'chunk');
    expect(events.find((e) => e.type === 'message_complete')!.structured).toMatchObject({ mood: 'wary', action: 'smiles' });
    // The line first, then what its directives did, in order.
    expect(events.map((e) => (e.type === 'notice' ? `notice: ${e.message}` : e.type))).toEqual([
      'message_complete',
      'notice: the model wrote an end directive, which is yours to give (/end); it was ignored',
      'notice: noted (saved to the season notes at the next canonization)',
      'done',
    ]);
  });

  it('keeps the brief sent within --brief-budget, and says once when even its smallest form is over', async () => {
    server.handler = playHandler('complication', () => steps.json({ speaker: 'catiline', action: 'waits', dialogue: 'Well?', internal: 'x', mood: 'cold', tension_shift: 0.1 }));
    const w = copyRepo(base(), 'play-out-brief');
    const ok = await playScript(['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--mode', 'open', '--brief-budget', '90', '--session', 'o2', '--json'], w, 'Where were you?\nAnswer me!\n', env());
    expect(ok.code, ok.stderr).toBe(0);
    const textOf = (content: unknown): string => (typeof content === 'string' ? content : (content as { text?: string }[]).map((b) => b.text ?? '').join(''));
    const briefs = server.requests.filter(isActor).map((q) => /<director_brief>[\s\S]*?<\/director_brief>\n\n/.exec(textOf(q.body?.messages.at(-1)?.content))?.[0] ?? '');
    expect(briefs.length).toBe(2);
    for (const b of briefs) {
      expect(b).toMatch(/^<director_brief>\n\{\n {2}"key_facts": \[\n {4}"Marcus Tullius Cicero is played by the user/);
      expect(Math.ceil(b.length / 4)).toBeLessThanOrEqual(90);
    }
    expect(jsonEvents<Event>(ok.stdout).some((e) => e.type === 'notice' && /brief/.test(e.message!))).toBe(false);

    const crowd = 'catiline,crassus,caesar,cato,terentia,clodius';
    const over = await playScript(['play', '--as', 'cicero', '--at', 'forum', '--with', crowd, '--mode', 'open', '--brief-budget', '50', '--session', 'o3', '--json'], w, 'Where were you?\nAnswer me!\n', env());
    expect(over.code, over.stderr).toBe(0);
    const said = jsonEvents<Event>(over.stdout).filter((e) => e.type === 'notice' && /brief/.test(e.message!));
    expect(said).toHaveLength(1);
    expect(said[0]!.message).toMatch(/^the Director's brief needs \d+ tokens even at its smallest \(who is on stage\), over the brief budget of 50: it is sent at its smallest; raise --brief-budget/);
  });

  it('play --help lists its exit codes as every command does', async () => {
    const r = await cli(['play', '--help'], base());
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Exit codes: 0 .*130 interrupted/ms);
  });
});
