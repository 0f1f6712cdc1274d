import { describe, expect, it } from 'vitest';
import { builtCli, copyRepo, git } from '../pipeline/world.js';
import { steps, type FakeRequest, type FakeStep } from '../support/fake-anthropic-server.js';
import { isActor, isBeatClassifier, jsonEvents, usePlayModel } from '../support/play-model.js';
import { playScript, records } from './support.js';

/**
 * The hidden Director against a model behind the fake Messages API (the real SDK): it stages a
 * secret learned only when the Actor's answer tells it, it observes each exchange after the Actor
 * has answered it (and classifies that exchange, not the one before), and a bad answer from its
 * classifier costs the scene nothing.
 */
type Event = { type: string; message?: string; content?: string; trigger?: string; turns?: number; director?: { beat: string } };

/** The text of a request's last user message. */
const lastUser = (req: FakeRequest): string => JSON.stringify(req.body?.messages.at(-1)?.content ?? '');

/** An Actor answer as a model writes it (a fenced JSON block). */
const actorSays = (speaker: string, dialogue: string, more: Record<string, unknown> = {}): FakeStep =>
  steps.ok('```json\n' + JSON.stringify({ speaker, action: 'folds his hands', dialogue, internal: 'give nothing away', mood: 'guarded', tension_shift: 0, ...more }, null, 2) + '\n```');

/** The reasons of the proposals a session staged. */
const staged = (w: string, session: string): string[] => records(w, session).filter((r) => r.type === 'proposal').map((r) => (r.proposal as { reason: string }).reason);

describe.skipIf(!builtCli())('aureus play: the Director observes what was said', () => {
  const { server, base, env } = usePlayModel('play-director');

  it("stages a secret learned from the answer that tells it, never from the player's question, a denial or a hint", async () => {
    // Each of Cicero's lines gets its answer: what a model might say to it.
    const answers: [string, string][] = [
      ['what did you discover about the grain', 'You ask me about grain, Consul? Ask the gods of the sea.'],
      ['I know your secret', 'I know nothing of any grain, and Varo keeps nothing at Ostia.'],
      ['Who owns the warehouses', 'And why should I tell you? Perhaps you should look at who owns the warehouses at Ostia.'],
      ['Enough riddles', "Very well. The cargo that was lost off Sardinia is stacked in Varo's storehouses at Ostia; my money paid for it, and he keeps it back to drive the price up."],
    ];
    server.handler = (req) => (isBeatClassifier(req) ? steps.json({ beat: 'complication' }) : actorSays('crassus', answers.find(([k]) => lastUser(req).includes(k))![1]));
    const w = copyRepo(base(), 'play-dir-reveal');
    const lines = ['Crassus, what did you discover about the grain?', 'I know your secret, Crassus!', 'Who owns the warehouses at Ostia?', 'Enough riddles, Crassus.', '/end'];
    const r = await playScript(['play', '--as', 'cicero', '--at', 'forum', '--with', 'crassus', '--mode', 'open', '--session', 'd1', '--json'], w, lines.join('\n') + '\n', env());
    expect(r.code, r.stderr).toBe(0);
    const learned = staged(w, 'd1').filter((x) => x.includes(' learns '));
    expect(learned).toEqual(['cicero learns sec_varo_hoard from crassus']);
    // Supported by the exchange that told it (the fourth line and its answer), canonized at once (a discovery).
    const log = records(w, 'd1');
    const proposal = log.find((x) => x.type === 'proposal' && (x.proposal as { reason: string }).reason === learned[0])!.proposal as { turns: string[]; critical: boolean };
    const asked = log.find((x) => x.type === 'user' && x.text === 'Enough riddles, Crassus.')!;
    const told = log.find((x) => x.type === 'actor' && x.reply_to === asked.id)!;
    expect(proposal).toMatchObject({ turns: [asked.id, told.id], critical: true });
    const holders = (JSON.parse(git(w, 'show', 'HEAD:world/secrets.json')) as { secrets: { id: string; holders: string[] }[] }).secrets;
    expect(holders.find((s) => s.id === 'sec_varo_hoard')!.holders).toContain('cicero');
    expect(holders.filter((s) => s.holders.includes('cicero')).map((s) => s.id).sort()).toEqual(['sec_fulvia_informant', 'sec_varo_hoard']);
  });

  it('the Actor answers first; the classifier then judges the exchange just played, so a beat gate ends on the exchange that reached the pivot', async () => {
    server.handler = (req) => {
      if (isBeatClassifier(req)) return steps.json({ beat: lastUser(req).includes('the die is cast') ? 'pivot' : 'complication' });
      return actorSays('catiline', lastUser(req).includes('Choose') ? 'Then the die is cast, Consul: I leave for Faesulae tonight.' : 'Where I was is my affair, Consul.');
    };
    const w = copyRepo(base(), 'play-dir-gate');
    const lines = ['Catiline, where were you last night?', 'Choose, Catiline: exile or the Senate.', 'And your friends in the Subura?', 'Answer me!'];
    const r = await playScript(['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--mode', 'beat_gated', '--session', 'd2', '--json'], w, lines.join('\n') + '\n', env());
    expect(r.code, r.stderr).toBe(0);
    const events = jsonEvents<Event>(r.stdout);
    expect(events.filter((e) => e.type === 'message_complete').map((e) => e.director!.beat)).toEqual(['complication', 'pivot']);
    expect(events.find((e) => e.type === 'episode_complete')).toMatchObject({ trigger: 'beat_complete' });
    expect(events.at(-1)).toMatchObject({ type: 'done', turns: 2 });
    // Per turn: the Actor's call, then the classifier's, which reads that turn's own exchange.
    const calls = server.requests.map((q) => (isActor(q) ? 'actor' : isBeatClassifier(q) ? 'beat' : 'other'));
    expect(calls).toEqual(['actor', 'beat', 'actor', 'beat']);
    const firstBeat = server.requests.filter(isBeatClassifier)[0]!;
    expect(lastUser(firstBeat)).toContain('Catiline, where were you last night?');
    expect(lastUser(firstBeat)).toContain('Where I was is my affair');
    expect(lastUser(firstBeat)).not.toContain('scene opening');
  });

  it('a classifier that refuses, or answers out of its schema, leaves the beat to the turn position with a notice; the scene goes on', async () => {
    for (const [session, bad] of [
      ['d3', steps.ok("I can't help with classifying that.", { stop_reason: 'refusal' })],
      ['d4', steps.json({ beat: 'climax', why: 'drama' })],
    ] as const) {
      server.reset();
      server.handler = (req) => (isBeatClassifier(req) ? bad : actorSays('catiline', 'Where I was is my affair, Consul.'));
      const w = copyRepo(base(), `play-dir-${session}`);
      const r = await playScript(['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--turns', '2', '--session', session, '--json'], w, 'Where were you?\nAnswer me.\n', env());
      expect(r.code, `${session}: ${r.stderr}`).toBe(0);
      const events = jsonEvents<Event>(r.stdout);
      expect(events.filter((e) => e.type === 'message_complete').map((e) => e.director!.beat)).toEqual(['escalation', 'pivot']);
      const code = session === 'd3' ? 'AUR4212' : 'AUR4201';
      const notices = events.filter((e) => e.type === 'notice' && e.message!.includes('beat classifier'));
      expect(notices.map((e) => e.message)).toEqual(Array(2).fill(`the Director's beat classifier gave no usable answer (${code}); the beat by turn position stands in`));
      expect(events.find((e) => e.type === 'episode_complete')).toMatchObject({ trigger: 'turn_limit' });
    }
  });

  it('--mode objective: the objective is met when the Director is sure the words carry it (confidence > 0.7)', async () => {
    server.handler = (req) => {
      if (!isBeatClassifier(req)) return actorSays('catiline', 'You have no proof, Consul.');
      const sure = lastUser(req).includes('I accuse you') ? 0.95 : 0.6;
      return steps.json({ beat: 'complication', objective: { met: true, confidence: sure } });
    };
    const w = copyRepo(base(), 'play-dir-objective');
    const lines = ['Some would call this treason, Catiline.', 'I accuse you, Catiline, of treason!', 'Guards!'];
    const r = await playScript(['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--mode', 'objective', '--objective', 'accusation_made', '--session', 'd5', '--json'], w, lines.join('\n') + '\n', env());
    expect(r.code, r.stderr).toBe(0);
    const events = jsonEvents<Event>(r.stdout);
    expect(events.find((e) => e.type === 'episode_complete')).toMatchObject({ trigger: 'objective_met' });
    expect(events.at(-1)).toMatchObject({ type: 'done', turns: 2 });
    expect(records(w, 'd5').filter((x) => x.type === 'actor').map((x) => x.objective_met)).toEqual([false, true]);
    const asked = server.requests.filter(isBeatClassifier)[0]!;
    expect(JSON.stringify(asked.body?.system)).toContain('accusation_made');
  });
});

describe.skipIf(!builtCli())('aureus play offline: the objective is not met by a denial', () => {
  const { base } = usePlayModel('play-director-offline');

  it('"I do not accuse you of anything" leaves the scene open; "I accuse you" ends it', async () => {
    const w = copyRepo(base(), 'play-dir-offline-objective');
    const args = ['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--mode', 'objective', '--objective', 'accusation_made', '--session', 'o1', '--json'];
    const r = await playScript(args, w, 'I do not accuse you of anything, Catiline.\nDo you think I would accuse you?\nThen hear me: I accuse you of treason.\nGuards!\n');
    expect(r.code, r.stderr).toBe(0);
    const events = jsonEvents<Event>(r.stdout);
    expect(events.find((e) => e.type === 'episode_complete')).toMatchObject({ trigger: 'objective_met' });
    expect(events.at(-1)).toMatchObject({ type: 'done', turns: 3 });
  });
});
