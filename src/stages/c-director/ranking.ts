import type { Candidate } from './candidates.js';

/**
 * A slot's candidates, best first, yielded lazily. The Director tries them in order and usually
 * places one of the first few (on the starter world ~5 tries per slot of ~1,400 ranked), so a full
 * sort of every slot's list was mostly wasted: a binary heap is built in linear time and popped only
 * as far as the caller reads. The order is exactly the stable sort's: total (score + jitter)
 * descending, then the candidate's key ascending, then the order the candidates were scored in.
 */
export function* bestFirst(cands: readonly Candidate[], totals: readonly number[]): Generator<Candidate, void, undefined> {
  const n = cands.length;
  const heap = new Uint32Array(n);
  for (let i = 0; i < n; i++) heap[i] = i;
  // before(i, j): candidate i comes before candidate j.
  const before = (i: number, j: number): boolean => {
    const ti = totals[i]!;
    const tj = totals[j]!;
    if (ti > tj) return true;
    if (ti < tj) return false;
    const ki = cands[i]!.key;
    const kj = cands[j]!.key;
    return ki < kj || (ki === kj && i < j);
  };
  const down = (at: number, size: number): void => {
    const x = heap[at]!;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= size) break;
      if (child + 1 < size && before(heap[child + 1]!, heap[child]!)) child++;
      if (!before(heap[child]!, x)) break;
      heap[at] = heap[child]!;
      at = child;
    }
    heap[at] = x;
  };
  for (let i = (n >> 1) - 1; i >= 0; i--) down(i, n);
  for (let size = n; size > 0; size--) {
    const top = heap[0]!;
    heap[0] = heap[size - 1]!;
    down(0, size - 1);
    yield cands[top]!;
  }
}
