import type { DeltaOp } from './world.js';

/**
 * A delta with every role bound and every expression evaluated: a concrete path into the
 * world (docs/paths.md), ready to apply. Plans, packets, scene events and episode_deltas.json
 * all carry deltas in this form.
 */
export interface ResolvedDelta {
  path: string;
  op: DeltaOp;
  value?: number | string | boolean;
  from?: string;
  to?: string;
  amount?: number;
}

/** Where a canonical change came from: the SUPPORTED_BY link of seed 004. */
export interface Provenance {
  episode: string; // "s01e03"
  scene: string; // "SC04"
  event: string; // "e2"
  operator: string | null; // "op_witness_flip", or null for claims/decay/system deltas
  /** Present when the scene's text is an author's edit (issue 16); model-written scenes leave it out. */
  author?: 'human';
}

export interface AppliedDelta extends ResolvedDelta {
  provenance: Provenance;
  /** Value at the path before and after (for ledger transfers: the two balances). */
  before: unknown;
  after: unknown;
}

/** The path of the ledger (a transfer's) and the prefix of one account's (an add or subtract): docs/paths.md. */
const LEDGER = 'assets.cash_ledger';

/**
 * The ledger accounts a delta moves money from or to (docs/paths.md): a transfer's `from` and `to`,
 * or the one account an `add` (mint) or `subtract` (burn) on `assets.cash_ledger.<account>` credits
 * or debits; none for any other delta. One definition for everything that must show a scene's money
 * (retrieval, pruning): a fund only debited was left out of the packet, so neither the Writer nor the
 * Verifier saw its balance.
 */
export function ledgerAccountsOf(d: Pick<ResolvedDelta, 'path' | 'from' | 'to'>): string[] {
  if (d.path === LEDGER) return [d.from, d.to].filter((id): id is string => typeof id === 'string' && id !== '');
  if (!d.path.startsWith(`${LEDGER}.`)) return [];
  const id = d.path.slice(LEDGER.length + 1);
  return id && !id.includes('.') ? [id] : [];
}
