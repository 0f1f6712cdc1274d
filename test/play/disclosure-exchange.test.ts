import { describe, expect, it } from 'vitest';
import { improvisedPacket } from '../../src/play/context.js';
import { extractProposals } from '../../src/play/director.js';
import { affirmsAll, heardAs, type Person } from '../../src/play/exchange.js';
import { personIndex } from '../../src/stages/f-verifier/prose/names.js';
import { worldVerifyContext } from '../../src/stages/f-verifier/world-context.js';
import type { ActorAnswer, SceneSetup } from '../../src/play/types.js';
import { readStarterWorld } from '../support/starter-world.js';

/**
 * An Actor's answer read with the exchange it answers (src/play/exchange.ts), written for the mends after held-out play
 * set 2 (test/fixtures/play-disclosure-heldout-2) and in words of neither set: "you" is the one spoken to, "here" the
 * scene's place, a "he" the one man the user's line named, and a bare "yes" affirms what the user said. Each told case
 * here learned nothing before; each control learns nothing after.
 */
const world = readStarterWorld();

function learned(location: string, speaker: string, user: string, dialogue: string, others: string[] = []): string[] {
  const cast = [speaker, ...others];
  const packet = improvisedPacket(world, location, ['cicero', ...cast]);
  const setup: SceneSetup = { scene: 'PLAY', episode: null, location, principal: 'cicero', cast, mode: 'open', turn_budget: 8, objective: null, season: 1 };
  const answer: ActorAnswer = { speaker, dialogue, action: 'does not look away', internal: 'say as little as you can', mood: 'tense', tension_shift: 0 };
  return extractProposals(world, packet, setup, 't0002', 't0003', user, answer, 1)
    .map((p) => /^cicero learns (\S+) from /.exec(p.reason)?.[1])
    .filter((id): id is string => id !== undefined)
    .sort();
}

/** The dialogue as the Director reads it (exchange.ts heardAs), the principal Cicero. */
function heard(location: string, speaker: string, user: string, dialogue: string, others: string[] = []): string {
  const packet = improvisedPacket(world, location, ['cicero', speaker, ...others]);
  const person = (id: string): Person | undefined => {
    const c = world.characters.characters.find((x) => x.id === id);
    return c && { id, name: c.name, gender: c.gender };
  };
  const onStage = ['cicero', ...others].map(person).filter((p): p is Person => !!p);
  return heardAs(dialogue, { speaker: person(speaker)!, principal: person('cicero')!, onStage, place: packet.setting.location_name, userText: user, index: personIndex({ ...worldVerifyContext(world, []), packet }), person });
}

describe('an answer read with the exchange it answers (exchange.ts)', () => {
  it('reads "he", "him" and "his" as the one man the user named, when the answer names none first', () => {
    expect(learned('domus_crassus', 'crassus', 'Caesar spends like a king. How deep in your books is he, Crassus?', 'Deeper than he could climb out of in three lives. I hold the biggest of his notes, and if he loses the priesthood I shall have his house.')).toEqual(['sec_caesar_debts']);
  });

  it('leaves the pronouns alone when the user named two men, and in stage business, which is the speaker\'s own', () => {
    expect(heard('domus_crassus', 'crassus', 'Caesar and Catiline both owe you favours. Which of them owes you money?', 'He owes more than he could pay.')).toBe('He owes more than he could pay.');
    expect(heard('domus_cicero', 'fulvia', 'Terentia says you have news.', 'They will come at dawn — *she glances at Terentia* — and she knows it.', ['terentia'])).toBe('They will come at dawn — *she glances at Terentia* — and Terentia knows it.');
  });

  it('reads "you" as the consul the answer is given to, but as the one named when the speaker turns to someone else', () => {
    expect(learned('subura', 'quintus_curius', 'You are drunk, Curius. Go home.', 'Two of our friends will kill you at your morning reception, and the city will burn.')).toEqual(['sec_catiline_plot']);
    expect(learned('subura', 'quintus_curius', 'You are drunk, Curius. Go home.', 'Our captain means to have you murdered at your own reception, one morning soon, and twelve fires lit across the city.')).toEqual(['sec_catiline_plot']);
    expect(learned('domus_cicero', 'fulvia', 'Why have you come to my house at this hour, Fulvia?', 'Terentia, they mean to murder you at your morning reception and to fire the city in twelve places; I came to warn you, not him.', ['terentia'])).toEqual([]);
  });

  it('reads "here" as the scene\'s place', () => {
    expect(learned('ostia', 'varo', 'Where is the grain that sank off Sardinia, Varo?', 'It never sank. It sits in my warehouses here, every sack, and here it stays until the price in Rome has doubled.')).toEqual(['sec_varo_hoard']);
  });

  it('reads a bare "yes" as the speaker saying what the user said, and a "no", a partial "yes" or irony as telling nothing', () => {
    const user = "Is it true, Clodius, that Crassus' money pays your crews in the Subura?";
    expect(learned('subura', 'clodius', user, 'Yes. Every last cudgel of them.')).toEqual(['sec_clodius_pay']);
    expect(learned('subura', 'clodius', user, 'No.')).toEqual([]);
    expect(learned('subura', 'clodius', user, 'Yes, but only what the whole street already says. Crassus pays nobody.')).toEqual([]);
    expect(learned('subura', 'clodius', "Crassus' money pays your crews, Clodius. Admit it.", "Oh, of course. Crassus pays my crews, Crassus polishes my boots, and I am the Queen of Egypt.")).toEqual([]);
  });

  it('takes "would" after an "if" as a supposition, not a plan told', () => {
    expect(learned('subura', 'catiline', 'I know what you are planning, Catiline.', 'If I wanted you murdered, Consul, would I tell you? I would send two men to your morning reception and set the city burning in twelve places. But I am a candidate, not an assassin.')).toEqual([]);
  });

  it('keeps "you" on the one the speaker turned to, until another is named', () => {
    expect(heard('subura', 'crassus', 'Whose men are these?', 'Mine, Consul. Publius, you may stop smiling. Your crews are fed from my purse.', ['clodius'])).toBe("Marcus Licinius Crassus's, Consul. Publius, Publius Clodius Pulcher may stop smiling. Publius Clodius Pulcher's crews are fed from Marcus Licinius Crassus's purse.");
  });

  it('leaves a "you" of many as said: "you gentlemen", "each of you" are not the one spoken to', () => {
    expect(heard('forum', 'murena', 'Murena, who paid?', 'While you senators argue, Consul, each of you has been bought twice.', ['cato'])).toBe('While you senators argue, Consul, each of you has been bought twice.');
    expect(heard('forum', 'murena', 'Murena, who paid?', 'Consul, you two may stare. Your friend knows.', ['cato'])).toBe("Consul, you two may stare. Marcus Tullius Cicero's friend knows.");
  });

  it('reads "this lady", "the man beside me" and "this house" as who and what is on stage', () => {
    expect(heard('domus_crassus', 'caesar', 'Who holds your bonds, Caesar?', 'Ask the man beside me. Or ask this lady, whose husband keeps them in this house.', ['crassus', 'tertulla'])).toBe('Ask Marcus Licinius Crassus. Or ask Tertulla, whose husband keeps them in the House of Crassus on the Palatine.');
  });

  it('reads "you are not wrong" as a "yes", and "only the first part is true" as affirming the first clause alone', () => {
    expect(learned('ostia', 'varo', "The grain lost off Sardinia sits in your warehouses here at Ostia, bought with Crassus' money. Am I wrong?", 'You are not wrong, Consul. You are only slow.')).toEqual(['sec_varo_hoard']);
    expect(learned('forum', 'murena', "Varo's strongbox at Ostia paid your vote-brokers, Murena, and Cato knew it all along.", 'Only the first part is true. Cato knew nothing.')).toEqual(['sec_murena_bribes']);
    expect(learned('forum', 'murena', "Cato knew all along, Murena, and Varo's strongbox at Ostia paid your vote-brokers.", 'Only the first part is true. Cato knew.')).toEqual([]);
    expect(learned('forum', 'murena', "Varo's strongbox at Ostia paid your vote-brokers, Murena, and Cato knew it all along.", 'The first part, yes. Not the second.')).toEqual(['sec_murena_bribes']);
    // The ordinal alone, or with "one", names the clause as well.
    expect(learned('forum', 'murena', "Varo's strongbox at Ostia paid your vote-brokers, Murena, and Cato knew it all along.", 'The first, yes. Cato knew nothing.')).toEqual(['sec_murena_bribes']);
    expect(learned('forum', 'murena', "Cato knew all along, Murena, and Varo's strongbox at Ostia paid your vote-brokers.", 'The first one, yes. Not the other.')).toEqual([]);
    expect(learned('forum', 'murena', "Cato knew all along, Murena, and Varo's strongbox at Ostia paid your vote-brokers.", 'The last, yes.')).toEqual(['sec_murena_bribes']);
    // Two questions are two clauses, as "A, and B" is.
    expect(learned('forum', 'murena', "Murena, did Varo's strongbox at Ostia pay your vote-brokers? And did Cato know it?", 'The first, yes. Cato knew nothing.')).toEqual(['sec_murena_bribes']);
    expect(learned('forum', 'murena', "Murena, did Cato know it all along? And did Varo's strongbox at Ostia pay your vote-brokers?", 'The first, yes.')).toEqual([]);
  });

  it('reads a doer who knows, keeps or pays "nothing" as denying it', () => {
    expect(learned('forum', 'crassus', 'Who pays the crews in the Subura?', "I pay nothing to Clodius' crews, Consul, and I keep nothing in the Subura but rents.")).toEqual([]);
    expect(learned('forum', 'crassus', 'Who pays the crews in the Subura?', "I pay Clodius' crews in the Subura, Consul, every market day.")).toEqual(['sec_clodius_pay']);
  });

  it('knows an affirmation from a qualified one', () => {
    expect(affirmsAll('Yes. Every as of it.')).toBe(true);
    expect(affirmsAll('It is, Consul. All of it.')).toBe(true);
    expect(affirmsAll('Yes — the first part. Not the rest.')).toBe(false);
    expect(affirmsAll('Yes, they say so. They say a great deal.')).toBe(false);
    expect(affirmsAll('Perhaps.')).toBe(false);
  });
});
