import { describe, expect, it } from 'vitest';
import { findings, usePackets } from './prose-scenes.js';

// Money the narration shows paid that the scene's transfers do not move (AUR5023, rules/prose-ledger.ts): SC05 of
// the writer corpus, where Clodius (35,000 denarii) pays Crassus 3,000, and SC21, whose plan moves no money at all.
usePackets();

const LEAD = 'The lamps in the study burn low, and a slave with a jug of watered wine waits by the door, pretending not to listen.';
/** The scene's AUR5023 findings, as "severity amount". */
const ledger = (scene: string, body: string) =>
  findings(scene, `${LEAD}\n\n${body}`)
    .filter((f) => f.code === 'AUR5023')
    .map((f) => `${f.severity} ${f.message.match(/shows ([\d,]+) denarii/)?.[1]}`);

describe('money paid in the prose that the scene\'s transfers do not move (AUR5023)', () => {
  it("the audit's answers: a tip beside the transfer and another sum for the transfer, both soft", () => {
    expect(ledger('SC05', '"Three thousand," Crassus says. "Today."\n\nClodius counts three thousand denarii onto the table and understands, at last, who owns him.\n\nCrassus tosses his clerk a purse of five hundred denarii for the trouble, and another five thousand to the porter to forget the visit.')).toEqual(['soft 500']);
    expect(ledger('SC05', '"Three thousand," Crassus says. "Today."\n\nClodius counts five thousand denarii onto the table — not three, five, to show he can — and understands, at last, who owns him.')).toEqual(['soft 5,000']);
  });

  it('other payers, other words, other sums', () => {
    expect(ledger('SC05', '"Three thousand," Crassus says.\n\nClodius empties his purse onto the table: four thousand denarii, and he pushes the pile across without a word.')).toEqual(['soft 4,000']);
    expect(ledger('SC05', '"Three thousand," Crassus says.\n\nClodius counts three thousand denarii onto the table. On his way out he flings a purse of five hundred denarii to the doorkeeper.')).toEqual(['soft 500']);
    expect(ledger('SC05', '"Three thousand," Crassus says.\n\nClodius pays him twenty thousand sesterces, coin by coin, and does not look up.')).toEqual(['soft 5,000']);
  });

  it('stays clean on sums owed, offered, refused, demanded, remembered, hypothetical, a debt\'s total, and parts of the transfer', () => {
    const clean = (body: string) => expect(ledger('SC05', body), body).toEqual([]);
    clean('"You owe me sixty thousand denarii," Crassus says. "Three of it today."\n\nClodius counts three thousand denarii onto the table and understands who owns him.');
    clean('"Three thousand," Crassus says. "Or five thousand denarii, if you make me wait."\n\nClodius offers him two thousand denarii. Crassus refuses. Clodius counts out three thousand denarii and leaves.');
    clean('"Three thousand," Crassus says.\n\nClodius remembers the day Crassus paid four thousand denarii for a single cook. He counts three thousand denarii onto the table.');
    clean('"Three thousand," Crassus says.\n\nIf he paid five thousand denarii, Crassus would own him forever. He counts three thousand denarii onto the table.');
    clean('"Three thousand," Crassus says.\n\nClodius counts out a thousand denarii. Then he counts out another thousand denarii. Then he counts out the last thousand denarii, and stands.');
    clean('"Three thousand," Crassus says.\n\nClodius pays him twelve thousand sesterces, coin by coin.');
    // A scene whose plan moves no money: an invented payment is judged against the payer's means only (AUR5022).
    expect(ledger('SC21', 'Fulvia waits in the atrium. Terentia comes in and sits.\n\nFulvia presses a purse of two thousand denarii into the steward\'s hand and sends him out.')).toEqual([]);
    // Small change beside the transfer: a tip, a coin for the lamp.
    clean('"Three thousand," Crassus says.\n\nClodius counts three thousand denarii onto the table, and on his way out flips the doorkeeper two denarii.');
    // A sum said in the quotation of a paying sentence is said, not paid.
    clean('"The note is for forty thousand denarii, and tonight you will pay three thousand of it," Crassus says, and pushes the book across.\n\nClodius counts three thousand denarii onto the table.');
    clean('"Three thousand," Crassus says.\n\nClodius pays his rents, twelve thousand denarii a year, on the Kalends. He counts three thousand denarii onto the table.');
    clean('"Three thousand," Crassus says. "Today. The whole debt is twelve thousand denarii, and you will pay it by the Kalends."\n\nClodius counts three thousand denarii onto the table.');
  });
});
