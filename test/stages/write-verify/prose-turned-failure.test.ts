import { beforeAll, describe, expect, it } from 'vitest';
import type { PacketInstruction, ScenePacket } from '../../../src/domain/packet.js';
import { turnedFailure } from '../../../src/stages/f-verifier/prose/turned-failure.js';
import { contextOf, findings, packets, usePackets } from './prose-scenes.js';

// A beat planned to fail shown succeeding by its fail directive turned over (AUR5035, prose/turned-failure.ts): the
// starter's op_eavesdrop ("actor hears only fragments"), op_corner_the_market ("the squeeze breaks") and
// op_reconciliation ("the wound is deeper for having been reopened") set on the writer corpus's packets (prose audit
// 2, cases 01, 02, 06, 141, 143), each with other people, word order and tense than the audit's, and the controls:
// the failure in the same idioms, a hope or plan, a memory, someone else doing it.
usePackets();

/** A packet whose one beat is `operator`, planned to fail, bound to `bindings`, with `directive` as its fail text. */
function failing(from: string, operator: string, name: string, bindings: Record<string, string>, directive: string): ScenePacket {
  const p = packets[from]!;
  const beat: PacketInstruction = { ...p.director_instructions.sequence[0]!, operator_id: operator, operator_name: name, bindings, outcome: 'fail', narrative_directive: directive, tag: null };
  return { ...p, director_instructions: { purpose: name, sequence: [beat] }, constraints: { ...p.constraints, required_deltas: [] } };
}

beforeAll(() => {
  packets.LISTEN = failing('SC01', 'op_eavesdrop', 'Behind the curtain', { actor: 'cicero', target: 'crassus', secret: 'sec_crassus_backing' }, 'Marcus Tullius Cicero hears only fragments, enough to suspect and not enough to prove; Marcus Licinius Crassus lowers the voice just in time.');
  packets.LISTEN_F = failing('SC21', 'op_eavesdrop', 'Behind the curtain', { actor: 'terentia', target: 'fulvia', secret: 'sec_fulvia_informant' }, 'Terentia hears only fragments, enough to suspect and not enough to prove; Fulvia lowers the voice just in time.');
  packets.CORNER = failing('SC02', 'op_corner_the_market', 'Corner the market', { actor: 'varo', thread: 'thr_grain_shortage' }, 'A competitor undercuts Quintus Aemilius Varo, or a ship comes in; the squeeze breaks and Quintus Aemilius Varo is left holding rotting stock.');
  // Beside a beat planned to succeed: the failing beat first, the packet's own successful one after it.
  const beside = (scene: string, from: string) => ({ ...packets[scene]!, director_instructions: { purpose: 'two beats', sequence: [packets[scene]!.director_instructions.sequence[0]!, packets[from]!.director_instructions.sequence[0]!] } });
  packets.LISTEN_AND_CHARGE = beside('LISTEN', 'SC01');
  packets.CORNER_AND_BETRAY = beside('CORNER', 'SC02');
  packets.MEND = failing('SC24', 'op_reconciliation', 'Reconciliation', { actor: 'servilia', target: 'cato' }, "Marcus Porcius Cato refuses Servilia Caepionis's offer, and the wound is deeper for having been reopened.");
});

const LEAD = 'Rain runs off the roof tiles into the gutter, and somewhere in the house a slave is singing an old country song about goats.';
/** `body` after a lead in the present; one told in the past (opening on a capital and "past: ") stands alone. */
const outcome = (scene: string, body: string) => findings(scene, body.startsWith('past: ') ? body.slice(6) : `${LEAD}\n\n${body}`).filter((x) => x.code === 'AUR5035').map((x) => x.severity);
const hard = (scene: string, body: string) => expect(outcome(scene, body), body).toEqual(['hard']);
const clean = (scene: string, body: string) => expect(outcome(scene, body), body).toEqual([]);

describe('a failing beat shown succeeding by its fail directive turned over (AUR5035)', () => {
  it('reads the restriction and the things that collapse from the fail directive, and the act from its name', () => {
    const tf = (scene: string) => turnedFailure(packets[scene]!.director_instructions.sequence[0]!, contextOf(scene));
    expect(tf('LISTEN').restricted[0]).toEqual({ forms: expect.arrayContaining(['hears', 'heard', 'hear']), nouns: ['fragment'] });
    // "Behind" heads the name but is no act.
    expect(tf('LISTEN').things).toEqual([]);
    expect(tf('CORNER').things).toEqual(['squeeze', 'corner']);
    expect(tf('MEND').things).toEqual(['wound', 'reconciliation']);
  });

  it('the whole heard for "hears only fragments": the audit\'s words, and others', () => {
    hard('LISTEN', 'Cicero, waiting on a bench, hears every word of it. Not fragments — all of it, clear as a herald in the Forum.');
    hard('LISTEN', 'Crassus talks behind the curtain, and Cicero, on the bench outside, overhears the whole of it: every name, every date, every house. Crassus never lowers his voice.');
    hard('LISTEN', 'Behind the curtain Crassus talks on. He does not drop his voice once, and Cicero hears everything.');
    hard('LISTEN', '"Who is there?" Crassus asks, and the slave says no one. Cicero has heard all of it by then, and he slips away with his tablets.');
    hard('LISTEN_F', 'Fulvia speaks low and fast to her freedwoman. Terentia stands very still behind the curtain; she hears every word.');
    // Told in the past.
    hard('LISTEN', 'past: Cicero came early. He waited on the bench by the curtain. Crassus arrived with his freedman, and Crassus talked too freely.\n\nCicero heard all of it, every name and every sum, and he went home to write it down.');
  });

  it('stays clean on fragments heard, an attempt, a wish, a memory, someone else hearing, and a turn', () => {
    clean('LISTEN', 'Cicero hears only fragments: a name, a night, nothing he could swear to. Crassus lowers his voice just in time.');
    clean('LISTEN', 'Cicero strains to hear every word, and Crassus drops his voice to a murmur.');
    clean('LISTEN', 'If Cicero could hear every word, he would have Crassus. He hears a name, then nothing.');
    clean('LISTEN', "Crassus' freedman hears every word and says nothing. Cicero, at the far door, hears only fragments.");
    clean('LISTEN', 'Cicero once heard every word of a conspiracy through a wall at Arpinum. Today he hears only fragments.');
    clean('LISTEN', 'Cicero hears every word of the greeting, but only fragments of what follows.');
    clean('LISTEN', 'Not fragments, Cicero tells himself; he wants all of it. He gets a name and no more.');
    clean('LISTEN_F', 'Terentia hears every other word, no more; Fulvia lowers her voice just in time.');
  });

  it('the thing that breaks said to hold, for "the squeeze breaks": the audit\'s words, and others', () => {
    hard('CORNER', "No ship has come. No competitor has undercut him. The bakers are at Varo's door begging for grain at any price, and he sells at four times what he paid; the corner holds and Varo has made his fortune twice over.");
    hard('CORNER', 'By the time the lamps are lit the bakers are queuing at his counting-house, and Varo names a price twice what it was at noon. They pay it. The squeeze has worked exactly as he planned; the market is his.');
    hard('CORNER', 'Cato rages in the Forum, but the squeeze holds: by dusk the price has doubled again.');
    hard('CORNER', 'Murena comes to buy, and pays what Varo asks. The corner works.');
    hard('CORNER', 'The squeeze holds. By dusk the squeeze has doubled his money, and Varo sends for more locks.');
    hard('CORNER', 'past: Varo walked his sheds at dawn. He counted the sacks. The bakers came at noon, and Varo named his price.\n\nNo ship came in that week. The squeeze held, and Varo sold every sack at three times its price.');
  });

  it('stays clean on the squeeze broken, a hope, a plan, a memory, and a hold that a ship undoes', () => {
    clean('CORNER', 'A ship comes in from Sicily at noon. The squeeze breaks, and Varo is left with sacks of rotting grain.');
    clean('CORNER', 'If the corner holds another week, Varo will be the richest man in Ostia. A competitor undercuts him by noon.');
    clean('CORNER', 'Varo prays the squeeze holds. Then a ship comes in.');
    clean('CORNER', 'The corner held once, three years ago; this year a competitor undercuts him by half.');
    clean('CORNER', 'The squeeze holds until noon, when a ship from Sicily comes in.');
    clean('CORNER', 'The corner breaks at noon, when a ship from Sicily comes in.');
    // The other beat's act holding, in a scene with both: no success of the failing one.
    clean('CORNER_AND_BETRAY', 'Varo tells Cato everything about the brokers. The betrayal works: Cato has their names by nightfall. A competitor undercuts Varo by half.');
    clean('LISTEN_AND_CHARGE', 'The praetor accepts the charge against Crassus; the indictment holds. Cicero, outside, hears only fragments of what Crassus says after.');
    clean('CORNER', 'The old warehouse roof holds through the storm, and a competitor undercuts Varo by half before dawn.');
  });

  it('the speculator told rich by now, for a corner whose success pays him: a fortune made, rich now, a full purse', () => {
    hard('CORNER', 'Varo walks the length of his sheds with a lamp, counting. No ship has come in. The bakers paid what he asked, every one of them, and Varo has made his fortune.');
    hard('CORNER', 'Varo stands at the end of the quay and lets the wind have his cloak. He is rich now, richer than he ever dreamed in the years of small cargoes.');
    hard('CORNER', 'Varo counts the last of the silver into the chest. His purse is full, and for once he does not bother to lock the door behind him.');
    hard('CORNER', 'The price on the board at the harbour gate has been chalked higher four times since dawn. Varo, by any reckoning, is now a rich man.');
    hard('CORNER', 'past: Varo walked the length of his sheds at dusk. He counted the sacks twice. The bakers came at noon, and they paid what he asked.\n\nNo ship came in from Sicily. Varo made a fortune in nine days, and he knew it.');
  });

  it('stays clean on a fortune hoped for, missed, made long ago, or made by someone else, and on "rich" alone', () => {
    clean('CORNER', 'Varo stands at the end of the quay. He hopes to make his fortune before the winter, but a ship from Sicily is already in sight.');
    clean('CORNER', 'Varo looks at the rotting sacks. Another month, and he would have made his fortune. A competitor undercut him by half.');
    clean('CORNER', 'Varo made his fortune in the Asian trade, years ago. Tonight a competitor undercuts him, and the squeeze breaks.');
    clean('CORNER', 'Varo is rich, as rich men go at Ostia. Tonight a competitor undercuts him, and the squeeze breaks.');
    clean('CORNER', 'Murena sold early and has made his fortune. Varo, who held on, is left with a shed of rotting grain.');
    clean('CORNER', 'If no ship comes in, Varo is rich now. A ship comes in at noon.');
    clean('CORNER', 'past: Varo walked the length of his sheds at dusk. He counted the sacks twice. He had made his fortune long before this.\n\nThat autumn a competitor undercut him, and the squeeze broke.');
  });

  it('what lies between them mended, or the wound healed, for "the wound is deeper": the audit\'s words, and others', () => {
    hard('MEND', 'Cato looks at the cup a long time. Then he lifts it, and drinks, and when she comes round the table he lets her put her arms about him. Whatever was broken between them mends in that moment; he kisses her forehead.');
    hard('MEND', 'Servilia says their mother\'s name, and Cato weeps. What lay between Cato and Servilia heals, there in the lamplight.');
    hard('MEND', 'Cato takes both her hands. The old wound heals at last, and Caesar, in the doorway, looks away.');
    hard('MEND', 'past: Servilia poured the wine herself. Cato looked at it a long time. Then Cato drank, and Servilia smiled.\n\nThe reconciliation held; he stayed to dine, and they spoke of their mother.');
  });

  it('the old good between them said to be back, for "the wound is deeper"', () => {
    hard('MEND', 'Neither of them speaks of the quarrel again. By the time the lamp gutters, the old warmth is back between them.');
    hard('MEND', 'Servilia laughs at something he says about their mother, and Cato laughs too; the ease has come back between the two of them.');
    hard('MEND', 'past: Servilia poured the wine herself. Cato looked at it a long time. Then he drank, and she sat down beside him.\n\nThey talked until the lamps burned out, and the old trust returned between Cato and Servilia.');
  });

  it('stays clean on the cup pushed away, a hope, a denial, a memory', () => {
    clean('MEND', 'The old warmth is not back between them, and both of them know it. Cato refuses her offer.');
    clean('MEND', 'Servilia waits for the old warmth to come back between them. It does not; Cato refuses her offer.');
    clean('MEND', 'The quarrel is back between them, worse than before, and Cato refuses her offer.');
    clean('MEND', 'Cato pushes the cup away. The wound is deeper now for having been opened, and Servilia knows it.');
    clean('MEND', 'Servilia hopes that what lies between them mends one day. Cato refuses the cup.');
    clean('MEND', 'Nothing between them mends. Cato leaves the cup untouched.');
    clean('MEND', 'When they were children every quarrel between them mended by supper. Now Cato refuses her offer and goes.');
  });
});
