import type { Operator } from '../../domain/world.js';
import type { Rng } from '../../core/rng.js';
import { familyOf, type Candidate } from './candidates.js';
import { blockBound, factsOf, scoreBound, scoreOf, type BlockParts, type FixedParts, type SlotScoring } from './score.js';

/**
 * A slot's ranking read run by run (issue 18). The candidates come in (actor, operator) runs (the
 * pool's order: ~390 runs of ~1,761 moves on the starter world), and on an unsteered slot where
 * everyone can act and no thread is resolved, a move is kept from the slot only by its operator's
 * setting (the same for its run) or by its key having been used: how many moves of a run draw a
 * jitter is known without visiting them. So the slot visits runs: each gets its first jitter's number
 * and an upper bound of its moves' totals (score.ts blockBound), the jitter stream is drawn in full,
 * in order (one number per move that can take the slot, as before), and a run's moves are bounded
 * one by one (score.ts scoreBound, the same float as rankSlot's) only when the run's bound reaches the
 * top of the heap. The order yielded is ranking.ts bestFirst's on every move (the proof is the same:
 * an entry is yielded once its exact total is on top; a run's bound is at least each of its moves'
 * totals, and on a tie the run is opened first).
 */
export interface Block extends BlockParts {
  /** Its moves' indices in the slot's list: [from, to). */
  from: number;
  to: number;
}

/** The list's runs of one (actor, operator), each with what bounds its moves (per attempt: `fixed` holds for it). */
export function blocksOf(list: readonly number[], cands: readonly Candidate[], fixed: readonly FixedParts[]): Block[] {
  const out: Block[] = [];
  for (let i = 0; i < list.length;) {
    const first = cands[list[i]!]!;
    let j = i;
    let lead = -Infinity;
    let memory = Infinity;
    let chars = 0;
    const most = new Map<string, number>();
    for (; j < list.length; j++) {
      const c = cands[list[j]!]!;
      if (c.op !== first.op || c.actor !== first.actor) break;
      const f = fixed[list[j]!]!;
      lead = Math.max(lead, f.lead);
      memory = Math.min(memory, f.memory);
      chars = Math.max(chars, c.chars.length);
      const here = new Map<string, number>();
      for (const t of c.threads) here.set(t, (here.get(t) ?? 0) + 1);
      for (const [t, n] of here) if ((most.get(t) ?? 0) < n) most.set(t, n);
    }
    const threads: string[] = [];
    for (const [t, n] of most) for (let x = 0; x < n; x++) threads.push(t);
    out.push({ from: i, to: j, lead, memory, chars, family: familyOf(first), type: first.op.type, threads });
    i = j;
  }
  return out;
}

/** What ranking by runs reads of the attempt. */
export interface BlockSlot {
  cands: readonly Candidate[];
  fixed: readonly FixedParts[];
  list: readonly number[];
  blocks: readonly Block[];
  /** The run of each candidate position in `list` (-1: not in it). */
  blockAt: Int32Array;
  /** The positions of each candidate key. */
  keyAt: ReadonlyMap<string, readonly number[]>;
  jitterScale: number;
}

/**
 * The slot's candidates best first, by runs (see above); null (before any jitter is drawn) when a
 * run's bound is NaN: the caller then ranks move by move.
 */
export function rankByBlocks(x: BlockSlot, st: SlotScoring, stRequired: SlotScoring, placeFull: (op: Operator) => number, jitter: Rng): Iterable<Candidate> | null {
  const { blocks, list, cands } = x;
  const n = blocks.length;
  // Moves of each run kept out by their used key (the only per-move exclusion left on such a slot).
  const used = new Int32Array(n);
  for (const key of st.usedKeys) for (const p of x.keyAt.get(key) ?? []) if (x.blockAt[p]! >= 0) used[x.blockAt[p]!]!++;
  const first = new Int32Array(n);
  const bounds = new Float64Array(n);
  let moves = 0;
  for (let b = 0; b < n; b++) {
    const blk = blocks[b]!;
    const o = factsOf(cands[list[blk.from]!]!, st);
    first[b] = moves;
    // A run whose operator cannot be set here is excluded whole: it draws no jitter.
    const count = o.settingHere ? blk.to - blk.from - used[b]! : 0;
    bounds[b] = count > 0 ? blockBound(blk, st, o, x.jitterScale) : -Infinity;
    if (Number.isNaN(bounds[b])) return null;
    moves += count;
  }
  const jit = new Float64Array(moves);
  for (let m = 0; m < moves; m++) jit[m] = jitter.next() * x.jitterScale;
  return pop(x, st, stRequired, placeFull, { first, bounds, jit, moves });
}

interface Drawn {
  first: Int32Array;
  bounds: Float64Array;
  jit: Float64Array;
  moves: number;
}

/** Entries 0..moves-1 are moves by their jitter's number (the order rankSlot had them in), moves+b is run b. */
function* pop(x: BlockSlot, st: SlotScoring, stRequired: SlotScoring, placeFull: (op: Operator) => number, d: Drawn): Generator<Candidate, void, undefined> {
  const { blocks, list, cands } = x;
  const M = d.moves;
  const value = new Float64Array(M + blocks.length);
  const known = new Uint8Array(M);
  const cand: Candidate[] = new Array<Candidate>(M);
  const stOf: SlotScoring[] = new Array<SlotScoring>(M);
  const before = (i: number, j: number): boolean => {
    const vi = value[i]!;
    const vj = value[j]!;
    if (vi > vj) return true;
    if (vi < vj) return false;
    // On a tie a run comes first: one of its moves may tie with a lower key.
    if (i >= M || j >= M) return i >= M && (j < M || i < j);
    const ki = cand[i]!.key;
    const kj = cand[j]!.key;
    return ki < kj || (ki === kj && i < j);
  };
  const heap = entryHeap(M + blocks.length, before);
  for (let b = 0; b < blocks.length; b++) {
    if (d.bounds[b] === -Infinity) continue;
    value[M + b] = d.bounds[b]!;
    heap.push(M + b);
  }
  while (heap.size() > 0) {
    const top = heap.top();
    if (top >= M) {
      heap.removeTop();
      const blk = blocks[top - M]!;
      let m = d.first[top - M]!;
      for (let i = blk.from; i < blk.to; i++) {
        const p = list[i]!;
        const c = cands[p]!;
        if (st.usedKeys.has(c.key)) continue;
        const fixed = x.fixed[p]!;
        const o = factsOf(c, st);
        // As rankSlot: an unsteered move adds 0 for steering; a due operator's move is scored without the memory.
        value[m] = scoreBound(c, st, o, fixed) + 0 + o.bonus + o.prep + o.arc + d.jit[m]!;
        cand[m] = c;
        stOf[m] = fixed.required || o.due ? stRequired : st;
        heap.push(m++);
      }
      continue;
    }
    if (!known[top]) {
      // Its exact total is at most its bound: it can only sink.
      const c = cand[top]!;
      const o = factsOf(c, st);
      const score = scoreOf(c, stOf[top]!, placeFull, o) + 0 + o.bonus + o.prep + o.arc;
      value[top] = score + d.jit[top]!;
      known[top] = 1;
      heap.sink();
      continue;
    }
    heap.removeTop();
    yield cand[top]!;
  }
}

/** A binary heap of entry numbers, ordered by `before` (first on top), for at most `capacity` pushes. */
function entryHeap(capacity: number, before: (i: number, j: number) => boolean) {
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
    removeTop: (): void => { heap[0] = heap[--size]!; if (size) down(0); },
    /** The top's value went down: it sinks to its place. */
    sink: (): void => down(0),
  };
}
