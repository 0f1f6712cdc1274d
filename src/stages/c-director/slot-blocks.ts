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
  /** Its number among the attempt's runs, and its moves' positions in the candidates: [from, to). */
  id: number;
  from: number;
  to: number;
}

/** The attempt's runs over all its candidates, the run of each candidate, the positions of each key. */
export interface Runs {
  blocks: Block[];
  runAt: Int32Array;
  keyAt: Map<string, number[]>;
}

/** Every (actor, operator) run of the candidates, with what bounds its moves (per attempt: `fixed` holds for it). */
export function runsOf(cands: readonly Candidate[], fixed: readonly FixedParts[]): Runs {
  const blocks: Block[] = [];
  const runAt = new Int32Array(cands.length);
  const keyAt = new Map<string, number[]>();
  for (let i = 0; i < cands.length;) {
    const first = cands[i]!;
    const b: Block = { id: blocks.length, from: i, to: i, lead: -Infinity, memory: Infinity, chars: 0, family: familyOf(first), type: first.op.type, threads: [] };
    const most = new Map<string, number>();
    for (; b.to < cands.length; b.to++) {
      const p = b.to;
      const c = cands[p]!;
      if (c.op !== first.op || c.actor !== first.actor) break;
      b.lead = Math.max(b.lead, fixed[p]!.lead);
      b.memory = Math.min(b.memory, fixed[p]!.memory);
      b.chars = Math.max(b.chars, c.chars.length);
      for (const t of c.threads) {
        let n = 0;
        for (const u of c.threads) if (u === t) n++;
        if ((most.get(t) ?? 0) < n) most.set(t, n);
      }
      runAt[p] = b.id;
      const at = keyAt.get(c.key);
      if (at) at.push(p); else keyAt.set(c.key, [p]);
    }
    for (const [t, n] of most) for (let x = 0; x < n; x++) b.threads.push(t);
    blocks.push(b);
    i = b.to;
  }
  return { blocks, runAt, keyAt };
}

/**
 * The runs a slot's list (candidate positions, in order) is made of, or null when one is in it only in
 * part (the lists filter by operator, so none is on the Director's slots).
 */
export function slotRuns(runs: Runs, list: readonly number[]): Block[] | null {
  const out: Block[] = [];
  for (let i = 0; i < list.length;) {
    const b = runs.blocks[runs.runAt[list[i]!]!]!;
    for (let p = b.from; p < b.to; p++, i++) if (list[i] !== p) return null;
    out.push(b);
  }
  return out;
}

/** What ranking by runs reads of the attempt. */
export interface BlockSlot {
  cands: readonly Candidate[];
  fixed: readonly FixedParts[];
  runs: Runs;
  /** The slot's runs, in candidate order. */
  blocks: readonly Block[];
  jitterScale: number;
}

/**
 * The slot's candidates best first, by runs (see above); null (before any jitter is drawn) when a
 * run's bound is NaN: the caller then ranks move by move.
 */
export function rankByBlocks(x: BlockSlot, st: SlotScoring, stRequired: SlotScoring, placeFull: (op: Operator) => number, jitter: Rng): Iterable<Candidate> | null {
  const { blocks, cands } = x;
  const n = blocks.length;
  // Moves of each run kept out by their used key (the only per-move exclusion left on such a slot).
  const used = new Int32Array(x.runs.blocks.length);
  for (const key of st.usedKeys) for (const p of x.runs.keyAt.get(key) ?? []) used[x.runs.runAt[p]!]!++;
  const first = new Int32Array(n);
  const bounds = new Float64Array(n);
  let moves = 0;
  for (let b = 0; b < n; b++) {
    const blk = blocks[b]!;
    const o = factsOf(cands[blk.from]!, st);
    first[b] = moves;
    // A run whose operator cannot be set here is excluded whole: it draws no jitter.
    const count = o.settingHere ? blk.to - blk.from - used[blk.id]! : 0;
    bounds[b] = count > 0 ? blockBound(blk, st, o, x.jitterScale) : -Infinity;
    if (Number.isNaN(bounds[b])) return null;
    moves += count;
  }
  // The whole stream, in order (drawn lazily it cost more than the ~13% of draws it saved).
  const jit = new Float64Array(moves);
  jitter.fill(jit, moves, x.jitterScale);
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
  const { blocks } = x;
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
  const live: number[] = [];
  for (let b = 0; b < blocks.length; b++) {
    if (d.bounds[b] === -Infinity) continue;
    value[M + b] = d.bounds[b]!;
    live.push(M + b);
  }
  heap.build(live);
  while (heap.size() > 0) {
    const top = heap.top();
    if (top >= M) {
      heap.removeTop();
      openRun(x, st, stRequired, top - M, d, { value, cand, stOf, heap });
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

interface Entries {
  value: Float64Array;
  cand: Candidate[];
  stOf: SlotScoring[];
  heap: { push: (e: number) => void };
}

/** Run b's moves that can take the slot enter the heap, each with its bound (rankSlot's float) and its own jitter. */
function openRun(x: BlockSlot, st: SlotScoring, stRequired: SlotScoring, b: number, d: Drawn, e: Entries): void {
  const blk = x.blocks[b]!;
  let m = d.first[b]!;
  for (let p = blk.from; p < blk.to; p++) {
    const c = x.cands[p]!;
    if (st.usedKeys.has(c.key)) continue;
    const fixed = x.fixed[p]!;
    const o = factsOf(c, st);
    // As rankSlot: an unsteered move adds 0 for steering; a due operator's move is scored without the memory.
    e.value[m] = scoreBound(c, st, o, fixed) + 0 + o.bonus + o.prep + o.arc + d.jit[m]!;
    e.cand[m] = c;
    e.stOf[m] = fixed.required || o.due ? stRequired : st;
    e.heap.push(m++);
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
    /** Starts the heap with these entries (in linear time). */
    build: (es: readonly number[]): void => { es.forEach((e, i) => { heap[i] = e; }); size = es.length; for (let i = (size >> 1) - 1; i >= 0; i--) down(i); },
    removeTop: (): void => { heap[0] = heap[--size]!; if (size) down(0); },
    /** The top's value went down: it sinks to its place. */
    sink: (): void => down(0),
  };
}
