import { describe, expect, it } from 'vitest';
import { builtCli, copyRepo, git } from '../pipeline/world.js';
import { steps } from '../support/fake-anthropic-server.js';
import { isActor, jsonEvents, playHandler, systemOf, usePlayModel } from '../support/play-model.js';
import { briefStrings, playScript, records, startPlay, until } from './support.js';

/**
 * The Actor and the beat classifier through the real SDK against a local server speaking the
 * Messages wire format. The answers are written the way a model writes them: a fenced JSON block,
 * quotes inside the dialogue, a directive in the middle of a line.
 */
describe.skipIf(!builtCli())('aureus play with a model provider', () => {
  const { server, base, env } = usePlayModel('play-model');

  it('sends the packet and the whispered brief, strips the directive, and shows only the rendered line', async () => {
    server.handler = playHandler('complication', () => {
      const answer = {
        speaker: 'catiline',
        dialogue: 'You call it "conspiracy", Consul. I call it arithmetic. [DIRECTIVE:beat|beat:escalation] Ask Crassus who holds my notes.',
        action: 'leans on the rostra, smiling [DIRECTIVE:end]',
        internal: 'He knows more than he says.',
        mood: 'contemptuous',
        tension_shift: 0.2,
      };
      return steps.ok('```json\n' + JSON.stringify(answer, null, 2) + '\n```');
    });
    const w = copyRepo(base(), 'play-model-w');
    const r = await playScript(['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--turns', '2', '--session', 'm1', '--json'], w, 'Catiline, what are you planning?\nAnswer me!\n', env());
    expect(r.code, r.stderr).toBe(0);
    const events = jsonEvents<{ type: string; content?: string; director?: { beat: string } }>(r.stdout);
    const msgs = events.filter((e) => e.type === 'message_complete');
    expect(msgs).toHaveLength(2); // the model's end directive did not end the scene: that is the user's
    expect(events.filter((e) => e.type === 'notice' && /end directive, which is yours to give/.test(JSON.stringify(e)))).toHaveLength(2);
    expect(msgs[0]!.content).toBe('CATILINE: *leans on the rostra, smiling* "You call it "conspiracy", Consul. I call it arithmetic. Ask Crassus who holds my notes."');
    expect(r.stdout).not.toMatch(/DIRECTIVE|director_brief/);
    for (const s of briefStrings(w, 'm1')) expect(r.stdout).not.toContain(s);
    // The Actor's request: writer-role model, the packet as static context, the brief in the last user message.
    const actorReqs = server.requests.filter(isActor);
    expect(actorReqs.length).toBe(2);
    const body = actorReqs[1]!.body as unknown as { model: string; messages: { role: string; content: unknown }[] };
    const last = JSON.stringify(body.messages.at(-1)!.content);
    expect(last).toContain('<director_brief>');
    expect(JSON.stringify(body.messages.slice(0, -1))).not.toContain('<director_brief>');
    expect(systemOf(actorReqs[0]!) + JSON.stringify(actorReqs[0]!.body)).toContain('SCENE PACKET');
    // The model's beat directive was executed as the same action as /beat.
    expect(records(w, 'm1').some((x) => x.type === 'command' && x.name === 'beat' && x.args === 'escalation')).toBe(true);
    expect(git(w, 'log', '-1', '--format=%s')).toMatch(/^play m1: canonize/);
  });

  it('streams the line as it arrives: chunks before the answer is finished, never a directive, then the whole line', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const answer = {
      speaker: 'catiline',
      action: 'leans on the rostra, smiling',
      dialogue: 'You call it "conspiracy", Consul. I call it arithmetic. [DIRECTIVE:beat|beat:escalation] Ask Crassus who holds my notes, and ask him soon.',
      internal: 'He knows more than he says.',
      mood: 'contemptuous',
      tension_shift: 0.2,
    };
    // A preamble and a fence, as models write; the stream pauses inside the directive.
    const text = "Here is Catiline's answer:\n```json\n" + JSON.stringify(answer, null, 2) + '\n```';
    const after = Math.floor(text.indexOf('[DIRECTIVE:beat|be') / 40) + 1;
    server.handler = playHandler('complication', () => steps.ok(text, { hold: { after, until: gate } }));
    const w = copyRepo(base(), 'play-stream');
    const p = startPlay(['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--turns', '1', '--session', 'st', '--json'], w, env());
    p.child.stdin.end('Catiline, what are you planning?\n');
    const events = () => jsonEvents<{ type: string; content?: string; reset?: boolean }>(p.out());
    // The first part is on stdout while the server still holds the rest of the answer.
    await until(() => events().some((e) => e.type === 'chunk'));
    await new Promise((r) => setTimeout(r, 300));
    const early = events();
    expect(early.some((e) => e.type === 'message_complete')).toBe(false);
    const shown = early.filter((e) => e.type === 'chunk').map((e) => e.content).join('');
    expect(shown).toMatch(/^CATILINE: \*leans on the rostra, smiling\* "You call it "conspiracy", Consul\. I call it/);
    expect(shown).not.toContain('[');
    release();
    expect(await p.closed, p.err()).toBe(0);
    const all = events();
    const chunks = all.filter((e) => e.type === 'chunk');
    const done = all.find((e) => e.type === 'message_complete')!;
    expect(all.indexOf(chunks.at(-1)!)).toBeLessThan(all.indexOf(done));
    expect(chunks.map((e) => e.content).join('')).toBe(done.content);
    expect(done.content).toBe('CATILINE: *leans on the rostra, smiling* "You call it "conspiracy", Consul. I call it arithmetic. Ask Crassus who holds my notes, and ask him soon."');
    expect(p.out()).not.toMatch(/DIRECTIVE|director_brief/);
    const actor = server.requests.find(isActor)!;
    expect((actor.body as { stream?: boolean }).stream).toBe(true);
    // The transcript holds the final line only (chunks are display, never records).
    expect(records(w, 'st').filter((x) => x.type === 'actor').map((x) => x.content)).toEqual([done.content]);
  });

  it('a stream cut off mid-answer is retried: the client is told to drop what it showed', async () => {
    const answer = { speaker: 'catiline', action: 'turns away', dialogue: 'Ask the consul what he paid for his informers, and what they told him for the price.', internal: 'x', mood: 'cold', tension_shift: 0.1 };
    const text = JSON.stringify(answer);
    let actorCalls = 0;
    server.handler = playHandler('establishment', () => (++actorCalls === 1 ? steps.truncated(text.replace('informers', 'spies, his freedmen'), 'destroy') : steps.ok(text)));
    const w = copyRepo(base(), 'play-stream-cut');
    const r = await playScript(['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--turns', '1', '--session', 'sc', '--json'], w, 'Speak!\n', env());
    expect(r.code, r.stderr).toBe(0);
    const events = jsonEvents<{ type: string; content?: string; reset?: boolean }>(r.stdout);
    const chunks = events.filter((e) => e.type === 'chunk');
    const from = chunks.findIndex((e) => e.reset);
    expect(from).toBeGreaterThan(0);
    expect(chunks.slice(from).map((e) => e.content).join('')).toBe(events.find((e) => e.type === 'message_complete')!.content);
    expect(actorCalls).toBe(2);
  });

  it('removes control and bidi characters from the answer before it reaches the transcript and the committed season notes', async () => {
    // A NUL, an ESC colour sequence, a right-to-left override and a C1 character, as a model may write them.
    const answer = {
      speaker: 'catiline',
      dialogue: 'Ask \u001b[31mCrassus\u001b[0m who holds my notes. [DIRECTIVE:note|idea:Crassus\u0000 holds \u202eCatiline\u2069s notes\u0085]',
      action: 'smiles',
      internal: 'x',
      mood: 'cold',
      tension_shift: 0,
    };
    server.handler = playHandler('establishment', () => steps.ok('```json\n' + JSON.stringify(answer, null, 2) + '\n```'));
    const w = copyRepo(base(), 'play-control');
    const r = await playScript(['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--turns', '1', '--session', 'cc', '--json'], w, 'Speak!\n', env());
    expect(r.code, r.stderr).toBe(0);
    const events = jsonEvents<{ type: string; content?: string; message?: string; code?: string }>(r.stdout);
    expect(events.find((e) => e.type === 'message_complete')!.content).toBe('CATILINE: *smiles* "Ask Crassus who holds my notes."');
    // Said as the diagnostic it is: its code and the catalog's hint, as every warning's notice.
    expect(events.find((e) => e.code === 'AUR4211')).toMatchObject({ type: 'notice', hint: expect.stringMatching(/^nothing to do: control characters/) });
    expect(events.filter((e) => e.type === 'notice').map((e) => e.message)).toContain(
      "AUR4211 the play actor answer's /dialogue carried control or bidi characters (\\u001b \\u0000 \\u202e \\u2069 \\u0085): removed before it was committed",
    );
    const notes = git(w, 'show', 'HEAD:seasons/season_01/notes.json');
    expect(notes).toContain('"Crassus holds Catilines notes"');
    expect(notes).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|\\u00[01]/);
    expect(records(w, 'cc').filter((x) => x.type === 'actor').map((x) => x.content)).toEqual(['CATILINE: *smiles* "Ask Crassus who holds my notes."']);
    // In text, the notice is printed with its hint under it, as a warning is.
    const t = await playScript(['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--turns', '1', '--session', 'ct'], copyRepo(base(), 'play-control-text'), 'Speak!\n', env());
    expect(t.code, t.stderr).toBe(0);
    expect(t.stderr).toMatch(/aureus: AUR4211 [^\n]*\n {2}hint: nothing to do: control characters/);
  });
});
