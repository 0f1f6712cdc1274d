import { describe, expect, it } from 'vitest';
import { improvisedPacket } from '../../src/play/context.js';
import { briefText, extractProposals, initialDirector, objectiveHeuristic, observeExchange, writeBrief } from '../../src/play/director.js';
import { renderAnswer } from '../../src/play/actor.js';
import { textRenderer } from '../../src/play/render.js';
import type { ActorAnswer, SceneSetup } from '../../src/play/types.js';
import { readStarterWorld } from '../support/starter-world.js';

/**
 * The hidden Director's judgements on what was said, with answers written the way a model writes
 * them (paraphrase, denial, deflection, a question back, a hint), not in the offline Actor's phrasing.
 */
const world = readStarterWorld();
const setupWith = (cast: string[], over: Partial<SceneSetup> = {}): SceneSetup => ({ scene: 'PLAY', episode: null, location: 'forum', principal: 'cicero', cast, mode: 'open', turn_budget: 8, objective: null, season: 1, ...over });
const answer = (speaker: string, dialogue: string, more: Partial<ActorAnswer> = {}): ActorAnswer => ({ speaker, dialogue, action: 'folds his hands', internal: 'give nothing away', mood: 'guarded', tension_shift: 0, ...more });

/** The `… learns …` proposals one exchange stages. */
function learned(speaker: string, user: string, a: ActorAnswer): { reason: string; path?: string; value?: unknown; actor?: string; critical: boolean }[] {
  const packet = improvisedPacket(world, 'forum', ['cicero', speaker]);
  return extractProposals(world, packet, setupWith([speaker]), 't0002', 't0003', user, a, 1)
    .filter((p) => p.reason.includes(' learns '))
    .map((p) => ({ reason: p.reason, path: p.delta?.path, value: p.delta?.value, actor: p.actor, critical: p.critical }));
}

describe('a secret is learned only when the answer tells it (disclosure.ts)', () => {
  it("is learned from the answer that tells it, in paraphrase, never from the player's question, a denial, a deflection, a question back, a hint or a thought", () => {
    // What the player says reveals nothing, whatever it claims.
    expect(learned('crassus', 'Crassus, what did you discover about the grain?', answer('crassus', 'You ask me about grain, Consul? Ask the gods of the sea.'))).toEqual([]);
    expect(learned('catiline', 'I know your secret, Catiline!', answer('catiline', 'I deny everything. There is no plot, Consul.'))).toEqual([]);
    const user = 'Tell me what you know about the grain.';
    for (const said of [
      'What grain? The ships sank off Sardinia, as everyone knows.',
      'I know nothing of any grain, and Varo keeps nothing at Ostia.',
      'And why should I tell you what I know about the grain?',
      'Perhaps you should look at who owns the warehouses at Ostia.',
    ])
      expect(learned('crassus', user, answer('crassus', said)), said).toEqual([]);
    expect(learned('catiline', 'Confess!', answer('catiline', 'Murder you at your own door? Fire the city? Join Manlius? You dream, Consul.'))).toEqual([]);
    // What the speaker only thinks is not said.
    const thought = "The grain lost off Sardinia sits in Varo's warehouses at Ostia, bought with my money to drive the price up.";
    expect(learned('crassus', 'Where is the grain?', answer('crassus', 'Ask the harbour-master, not me.', { internal: thought }))).toEqual([]);
    // Told aloud, in other words than the secret's: staged, from the holder who tells it to the principal, a critical discovery.
    const told = "The cargo that was lost off Sardinia is stacked in Varo's storehouses at Ostia; my money paid for it, and he keeps it back to drive the price up.";
    expect(learned('crassus', 'Good evening, Crassus.', answer('crassus', told))).toEqual([
      { reason: 'cicero learns sec_varo_hoard from crassus', path: 'secrets.sec_varo_hoard.holders', value: 'cicero', actor: 'crassus', critical: true },
    ]);
    const confessed = 'Yes. We mean to kill you at your morning reception, burn the city in twelve places and join Manlius at Faesulae.';
    expect(learned('catiline', 'Where were you last night?', answer('catiline', confessed)).map((p) => p.reason)).toEqual(['cicero learns sec_catiline_plot from catiline']);
  });

  it('a secret the principal already holds is not learned again', () => {
    const told = 'Caesar owes me more than he could repay in three lifetimes, and I hold the largest of his notes.';
    expect(learned('crassus', 'Speak.', answer('crassus', told)).map((p) => p.reason)).toEqual(['cicero learns sec_caesar_debts from crassus']);
    const knowing = { ...world, secrets: { ...world.secrets, secrets: world.secrets.secrets.map((s) => (s.id === 'sec_caesar_debts' ? { ...s, holders: [...s.holders, 'cicero'] } : s)) } };
    const packet = improvisedPacket(knowing, 'forum', ['cicero', 'crassus']);
    expect(extractProposals(knowing, packet, setupWith(['crassus']), 't0002', 't0003', 'Speak.', answer('crassus', told), 1).filter((p) => p.reason.includes(' learns '))).toEqual([]);
  });

  it('told aloud, a secret is learned by everyone on stage who lacks it, not by a holder nor by one who has left', () => {
    const told = 'Caesar owes me more than he could repay in three lifetimes, and I hold the largest of his notes.';
    const packet = improvisedPacket(world, 'forum', ['cicero', 'crassus', 'cato', 'servilia', 'clodius']);
    const reasons = (onStage: string[]) =>
      extractProposals(world, packet, setupWith(['crassus', 'cato', 'servilia', 'clodius']), 't0002', 't0003', 'Speak.', answer('crassus', told), 1, onStage)
        .filter((p) => p.reason.includes(' learns '))
        .map((p) => [p.reason, p.delta?.value, p.critical]);
    // Servilia already holds it; Clodius has left the scene since it began.
    expect(reasons(['crassus', 'cato', 'servilia'])).toEqual([
      ['cicero learns sec_caesar_debts from crassus', 'cicero', true],
      ['cato learns sec_caesar_debts from crassus', 'cato', true],
    ]);
    // Nobody else on stage: the principal alone.
    expect(reasons(['crassus'])).toEqual([['cicero learns sec_caesar_debts from crassus', 'cicero', true]]);
  });

  it('a death denied is no death spoken of', () => {
    const packet = improvisedPacket(world, 'forum', ['cicero', 'catiline']);
    const claims = (user: string) => extractProposals(world, packet, setupWith(['catiline']), 't0002', 't0003', user, answer('catiline', 'Calm yourself.'), 1).filter((p) => p.kind === 'claim');
    expect(claims('Nobody was killed tonight, Catiline; calm yourself.')).toEqual([]);
    expect(claims('Manlius is not dead, whatever you hoped.')).toEqual([]);
    expect(claims('Manlius is dead, slain at Faesulae!')).toHaveLength(1);
  });
});

describe('the objective, judged symbolically (offline, and when the model cannot say)', () => {
  it('an accusation stated is met; denied, asked or supposed it is not', () => {
    for (const t of ['I accuse you, Catiline, of treason!', 'Very well. I accuse Lentulus.', 'You are accused of conspiracy.']) expect(objectiveHeuristic('accusation_made', t), t).toBe(true);
    for (const t of ['I do not accuse you of anything.', "I don't accuse you.", 'Do you think I would accuse you?', 'If I accused you, the Senate would laugh.', 'I never accused anyone.'])
      expect(objectiveHeuristic('accusation_made', t), t).toBe(false);
  });

  it('the verdict recorded with the exchange wins over the symbolic one', () => {
    const setup = setupWith(['catiline'], { mode: 'objective', objective: 'accusation_made' });
    const a = answer('catiline', 'Lies.');
    expect(observeExchange(initialDirector(), setup, 'I accuse you!', a).flags).toEqual({ accusation_made: true });
    expect(observeExchange(initialDirector(), setup, 'I accuse you!', a, undefined, false).flags).toEqual({});
    expect(observeExchange(initialDirector(), setup, 'I do not accuse you.', a).completion_trigger).toBeNull();
  });
});

describe('what the Actor and the user see', () => {
  it('the brief fits its budget as the text sent, and at its smallest says so by its tokens', () => {
    const packet = improvisedPacket(world, 'forum', ['cicero', 'catiline', 'crassus', 'caesar']);
    const setup = setupWith(['catiline', 'crassus', 'caesar']);
    for (const budget of [60, 120, 300]) {
      const b = writeBrief(packet, setup, setup.cast, initialDirector(), [], budget);
      expect(Math.ceil(briefText(b).length / 4), `budget ${budget}`).toBeLessThanOrEqual(budget);
      expect(b.tokens).toBe(Math.ceil(briefText(b).length / 4));
    }
    // The smallest brief (who is on stage) of a crowded scene does not fit 50 tokens: it is over, and says by how much.
    const crowd = ['catiline', 'crassus', 'caesar', 'cato', 'terentia'].filter((id) => world.characters.characters.some((c) => c.id === id && c.status === 'alive'));
    const tight = writeBrief(improvisedPacket(world, 'forum', ['cicero', ...crowd]), setupWith(crowd), crowd, initialDirector(), [], 50);
    expect(tight.key_facts).toHaveLength(1);
    expect(tight.tokens).toBeGreaterThan(50);
  });

  it('a directive in any field, the mood included, is stripped and kept as a directive', () => {
    const t = renderAnswer(answer('catiline', 'Never.', { mood: '[DIRECTIVE:note|idea:in mood] wary' }), 'CATILINE');
    expect(t.answer.mood).toBe('wary');
    expect(t.directives).toEqual([{ ok: true, action: { name: 'note', text: 'in mood', params: { idea: 'in mood' }, source: 'directive' } }]);
  });

  it('a terminal that reports 0 columns is taken as 80 wide when a streamed line is replaced', () => {
    let out = '';
    const render = textRenderer({ out: (t) => (out += t), err: () => undefined, live: true, columns: () => 0 });
    render({ type: 'chunk', turn: 't0003', content: 'CATILINE: "Where I was is my affair' });
    out = '';
    render({ type: 'chunk', turn: 't0003', content: 'CATILINE: "Ask elsewhere', reset: true });
    // One row of 36 characters: back to its start and clear, no line up (it was 35 rows up at 1 column).
    expect(out).toBe('\r\u001b[JCATILINE: "Ask elsewhere');
  });

  it("a notice while a line streams (a retry's wait) ends that row first; the line goes on below it", () => {
    const seen: string[] = [];
    const render = textRenderer({ out: (t) => seen.push(`out:${t}`), err: (t) => seen.push(`err:${t}`), live: true, columns: () => 80 });
    render({ type: 'chunk', turn: 't0003', content: 'CATILINE: "Where I' });
    render({ type: 'notice', message: 'writer PLAY: the answer was cut off, retrying in 0.1 s' });
    render({ type: 'chunk', turn: 't0003', content: 'CATILINE: "Where I was', reset: true });
    render({ type: 'message_complete', turn: 't0003', content: 'CATILINE: "Where I was"', structured: answer('catiline', 'Where I was'), director: { turn_count: 1, beat: 'establishment', completion_eligible: false } });
    expect(seen).toEqual([
      'out:CATILINE: "Where I',
      'out:\n',
      'err:aureus: writer PLAY: the answer was cut off, retrying in 0.1 s\n',
      'out:CATILINE: "Where I was',
      'out:\r\u001b[J',
      'out:CATILINE: "Where I was"\n',
    ]);
  });
});
