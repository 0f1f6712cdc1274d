import { describe, expect, it } from 'vitest';
import { codes, findings, packets, usePackets } from './prose-scenes.js';

// A fund or treasury (a ledger account no character owns) that pays in the narration is judged
// against its own balance (prose/fund-payer.ts), not the richest cast member's nor the last doer's.
// Real packets of the starter world (test/fixtures/writer-corpus) with the fund's account added, as
// stage D adds it when a required delta moves it.
usePackets();

/** A copy of `scene`'s packet, named `name`, holding these fund accounts besides its own. */
function withFunds(name: string, scene: string, funds: { id: string; denarii: number }[]): string {
  packets[name] = structuredClone(packets[scene]!);
  packets[name].retrieved_subgraph.accounts.push(...funds.map((f) => ({ ...f, owner: f.id })));
  return name;
}

describe('a fund that pays (AUR5022)', () => {
  it('within its balance is no finding, though the cast member named holds less', () => {
    // Clodius holds 32,000 in SC15; the annona fund 600,000.
    const scene = withFunds('SC15_annona', 'SC15', [{ id: 'annona_fund', denarii: 600000 }]);
    for (const body of [
      'The annona fund pays Clodius fifty thousand denarii for the held-back grain, counted out in sealed bags.',
      'At dawn, the public fund pays Clodius fifty thousand denarii at the granary door.',
      "The annona fund's clerk counts out fifty thousand denarii to Clodius and does not look up.",
      'Clodius is paid fifty thousand denarii out of the grain fund, and he weighs the bags in his hands.',
    ]) expect(findings(scene, body), body).toEqual([]);
    // Clodius paying into the fund pays from his own purse.
    const own = findings(scene, 'Clodius pays fifty thousand denarii into the annona fund.');
    expect(codes(own)).toEqual(['AUR5022']);
    expect(own[0]!.message).toMatch(/Publius Clodius Pulcher pay 50,000 denarii .* with 32,000 available/);
  });

  it('beyond its balance is a finding naming the fund and its balance, though a richer man is on stage', () => {
    // Crassus holds 4,800,000 in SC01; the annona fund 600,000.
    const scene = withFunds('SC01_annona', 'SC01', [{ id: 'annona_fund', denarii: 600000 }]);
    for (const body of [
      'The annona fund pays Crassus nine hundred thousand denarii for the grain, counted out in sealed bags.',
      'Crassus is paid nine hundred thousand denarii out of the grain fund.',
    ]) {
      const f = findings(scene, body);
      expect(codes(f), body).toEqual(['AUR5022']);
      expect(f[0]!.message).toBe('the prose has the annona fund pay 900,000 denarii ("nine hundred thousand denarii") with 600,000 available');
      expect(f[0]!.fix).toContain('Pay at most 600,000 denarii');
    }
    // Over its balance only at the usual talent (120 × 6,000 = 720,000), not at the lightest (540,000): doubtful.
    expect(codes(findings(scene, 'The annona fund pays Crassus a hundred and twenty talents.'), 'soft')).toEqual(['AUR5022']);
  });

  it('the treasury is the aerarium; a fund the packet does not hold, or cannot tell from another, is unknown', () => {
    // Servilia, the richest of SC24, holds 420,000.
    const rich = withFunds('SC24_aerarium', 'SC24', [{ id: 'aerarium', denarii: 24000000 }]);
    const body = 'The treasury pays Servilia a million denarii for the Asian contracts.';
    expect(findings(rich, body)).toEqual([]);
    const poor = withFunds('SC24_poor_aerarium', 'SC24', [{ id: 'aerarium', denarii: 500000 }]);
    expect(findings(poor, body).map((f) => f.message)).toEqual(['the prose has the aerarium pay 1,000,000 denarii ("a million denarii") with 500,000 available']);
    // No fund in the packet: its means are unknown, not the richest cast member's.
    expect(findings('SC24', body)).toEqual([]);
    const two = withFunds('SC24_two_funds', 'SC24', [{ id: 'annona_fund', denarii: 100 }, { id: 'war_fund', denarii: 100 }]);
    expect(findings(two, 'The fund pays Servilia a million denarii.')).toEqual([]);
    expect(codes(findings(two, 'The annona fund pays Servilia a million denarii.'))).toEqual(['AUR5022']);
  });

  it('a man\'s own chest is no fund: his payment from it is judged against his balance', () => {
    // Caesar holds 15,000 in SC24.
    const scene = withFunds('SC24_annona', 'SC24', [{ id: 'annona_fund', denarii: 600000 }]);
    const f = findings(scene, 'Caesar opens the chest and counts out ninety thousand denarii to Servilia.');
    expect(codes(f)).toEqual(['AUR5022']);
    expect(f[0]!.message).toContain('with 15,000 available');
  });
});
