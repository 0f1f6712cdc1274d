/**
 * Paraphrase classes for the words facts of intrigue are told in: a model retelling a forbidden
 * fact swaps "murder" for "cut down", "informant" for "source", "warehouses" for "sheds". Each root
 * maps to its class head; roots not listed stand for themselves.
 */
const CLASSES: string[][] = [
  ['kill', 'murder', 'cut', 'assassinate', 'slay', 'stab', 'strike'],
  ['reception', 'salutation', 'salutatio', 'levee', 'callers'],
  ['city', 'rome', 'town', 'urbs'],
  ['twelve', 'dozen'],
  ['place', 'point', 'quarter', 'spot'],
  ['informant', 'source', 'spy', 'informer', 'agent'],
  ['tell', 'whisper', 'pass', 'carry', 'report', 'relay', 'repeat', 'confide'],
  ['warehouse', 'shed', 'storehouse', 'granary', 'store', 'barn'],
  ['debt', 'owe', 'creditor', 'note', 'loan', 'bond'],
  ['money', 'fund', 'bankroll', 'finance', 'silver', 'coin', 'purse'],
  ['campaign', 'election', 'canvass', 'candidacy'],
  ['strongbox', 'chest', 'coffer', 'safe', 'treasury'],
  ['pay', 'paid', 'bribe', 'payment'],
  ['receipt', 'sign', 'signature', 'hand', 'seal'],
  ['lose', 'lost', 'sink', 'sunk', 'wreck', 'founder', 'drown'],
  ['letter', 'tablet', 'note', 'message'],
  ['deliver', 'bring', 'send', 'carry'],
  ['indecent', 'blush', 'shameless', 'obscene', 'lewd', 'scandalous'],
  ['public', 'senate', 'forum', 'assembly', 'business'],
  ['conspiracy', 'plot', 'conspirator', 'conspire', 'plotter'],
  ['bed', 'pillow', 'bedroom', 'lover'],
  ['army', 'legion', 'troops', 'camp', 'eagle'],
  ['hold', 'hoard', 'keep', 'withhold', 'sit'],
  ['price', 'cost', 'dear'],
];

const HEAD = new Map<string, string>();
for (const c of CLASSES) for (const w of c) if (!HEAD.has(w)) HEAD.set(w, c[0]);

/** The class head of a root, or the root itself. */
export function headOf(root: string): string {
  return HEAD.get(root) ?? root;
}
