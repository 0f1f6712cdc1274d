import { describe, expect, it } from 'vitest';
import { modernForms } from '../../../src/stages/f-verifier/prose/archaic.js';

describe('early-modern English read as today\'s (prose/archaic.ts)', () => {
  it('reads -eth verbs, hath/doth/saith, unto, whereupon and thou with its -est verb in their modern forms', () => {
    expect(modernForms('Whereupon he writeth an order and delivereth it unto Varo, for the sum he oweth him.')).toBe('Then he writes an order and delivers it to Varo, for the sum he owes him.');
    expect(modernForms('He putteth it away, crieth out, riseth and goeth; she passeth, seeth, teacheth.')).toBe('He puts it away, cries out, rises and goes; she passes, sees, teaches.');
    expect(modernForms('He hath ridden far, and doth not rest, and saith so. Thou givest nothing and thou art a fool.')).toBe('He has ridden far, and does not rest, and says so. You give nothing and you are a fool.');
    expect(modernForms("'Twas late ere he came.")).toBe('It was late before he came.');
    expect(modernForms('’Tis done.')).toBe('It is done.');
  });
  it('leaves words that only look archaic, and modern sentences, as they are', () => {
    for (const t of ['Beneath the twentieth arch his teeth showed.', 'Cato hands Varo the tablet and leaves.', 'The art of the forest is the best interest.', 'Thou must go.'.replace('Thou', 'You')]) {
      expect(modernForms(t)).toBe(t);
    }
    expect(modernForms('Thou must go, and the art of it is honest.')).toBe('You must go, and the art of it is honest.');
  });
});
