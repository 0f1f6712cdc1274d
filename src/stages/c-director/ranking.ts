import type { Candidate } from './candidates.js';

/**
 * A slot's candidates, best first, yielded lazily. The Director tries them in order and usually
 * places one of the first few (on the starter world ~5 tries per slot of ~1,700 ranked), so a full
 * sort of every slot's list was mostly wasted: a binary heap is built in linear time and popped only
 * as far as the caller reads. The order is exactly the stable sort's: total (score + jitter)
 * descending, then the candidate's key ascending, then the order the candidates were scored in.
 *
 * With `exact`, `totals` are upper bounds of the totals and exact(i) gives candidate i's total, asked
 * only when its bound reaches the top of the heap (the Director's bounds leave ~5–80 of a slot's
 * ~1,700 candidates to score in full). A candidate is yielded once its exact total is on top: every
 * other entry then comes after it by its exact total or by a bound no lower than its exact total, so
 * the order is the one the exact totals give, as long as no bound is below its total.
 */
export function* bestFirst(cands: readonly Candidate[], totals: readonly number[], exact?: (i: number) => number): Generator<Candidate, void, undefined> {
  const n = cands.length;
  const value = Float64Array.from(totals);
  const known = new Uint8Array(n).fill(exact ? 0 : 1);
  // before(i, j): candidate i comes before candidate j.
  const before = (i: number, j: number): boolean => {
    const ti = value[i]!;
    const tj = value[j]!;
    if (ti > tj) return true;
    if (ti < tj) return false;
    const ki = cands[i]!.key;
    const kj = cands[j]!.key;
    return ki < kj || (ki === kj && i < j);
  };
  const heap = entryHeap(n, before);
  heap.build(Array.from({ length: n }, (_, i) => i));
  while (heap.size() > 0) {
    const top = heap.top();
    if (!known[top]) {
      // Its exact total is at most its bound: it can only sink.
      value[top] = exact!(top);
      known[top] = 1;
      heap.sink();
      continue;
    }
    heap.removeTop();
    yield cands[top]!;
  }
}

/**
 * A binary heap of entry numbers, ordered by `before` (first on top), for at most `capacity` pushes:
 * bestFirst's, and slot-blocks.ts's (whose runs enter it as they are opened).
 */
export function entryHeap(capacity: number, before: (i: number, j: number) => boolean) {
  const heap = new Int32Array(capacity);
  let size = 0;
  const up = (at: number): void => {
    const e = heap[at]!;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!before(e, heap[parent]!)) break;
      heap[at] = heap[parent]!;
      at = parent;
    }
    heap[at] = e;
  };
  const down = (at: number): void => {
    const e = heap[at]!;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= size) break;
      if (child + 1 < size && before(heap[child + 1]!, heap[child]!)) child++;
      if (!before(heap[child]!, e)) break;
      heap[at] = heap[child]!;
      at = child;
    }
    heap[at] = e;
  };
  return {
    size: (): number => size,
    top: (): number => heap[0]!,
    push: (e: number): void => { heap[size++] = e; up(size - 1); },
    /** Starts the heap with these entries (in linear time). */
    build: (es: readonly number[]): void => { es.forEach((e, i) => { heap[i] = e; }); size = es.length; for (let i = (size >> 1) - 1; i >= 0; i--) down(i); },
    removeTop: (): void => { heap[0] = heap[--size]!; if (size) down(0); },
    /** The top's value went down: it sinks to its place. */
    sink: (): void => down(0),
  };
}
