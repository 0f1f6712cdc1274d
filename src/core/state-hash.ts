import { createHash } from 'node:crypto';
import { hashValue, utf8 } from './hash.js';
import { isCanonical, isParsedCanonical, jsonKeyOrder } from './json.js';
import { sealedChanges } from './finished-lists.js';
import { knownFlatHash, knownList, type WorldList } from './known-hashes.js';

/**
 * The state hash of a world (EpisodeContext.state_hash, plan.state_hash, the packets'
 * state_hash_before, projection hashes): SHA-256 of a Merkle form of the state, so that a sequence
 * of states that share most of their entities hashes in time proportional to what changed.
 *
 * Definition (test/stages/planning/scale.test.ts has a plain reference implementation):
 *   T(v)        = v with every array reached through objects only (characters, relationships, the
 *                 ledger…: not arrays inside an array's elements) replaced by the list of its chunk
 *                 digests: hex SHA-256 of canonicalCompact(chunk) for consecutive chunks of CHUNK
 *                 elements (an empty array stays empty);
 *   stateHash(v) = hex SHA-256 of canonicalCompact(T(v)).
 * canonicalCompact (core/json.ts) is JSON.stringify(canonicalize(v)): keys sorted, undefined members
 * left out, undefined array elements as null, non-finite numbers refused.
 *
 * Why (issue 18): stage D hashes the state before every scene. A flat hash of the canonical text
 * processed the whole world each time (5.5 MB on the DPRR world, 18 MB on 10,000 characters, 24
 * scenes): that was the largest single cost of planning and grew with the world. Deltas are applied
 * copy-on-write, so consecutive states share every untouched element object; a chunk whose elements
 * are the very same objects as in a state already hashed keeps its digest.
 */
export const CHUNK = 64;

export class StateHasher {
  /** Canonical text of the elements of non-canonical chunks (a character, an edge), by identity. */
  private readonly pieces = new WeakMap<object, string>();
  /** Digest of a chunk, keyed by its first element, valid while every element is the same object. */
  private readonly chunks = new WeakMap<object, ChunkEntry>();
  /**
   * Whether this hasher ever met an array hole (where canonicalCompact's text is not the chunks').
   * Never reset: element texts written around a hole are kept (`pieces`) and a later flatHash may
   * reuse them, so once one is seen every flatHash of this hasher is taken by hashValue itself.
   */
  private sawHole = false;
  /**
   * Chunk digests of whole sealed lists (core/deltas seals each list a delta batch copied: it is
   * never edited in place), by list. Why (issue 18): a stage D state walked every chunk of every
   * list it did not share whole with one hashed before (an identity check per element: ~1,000
   * chunks a state on 10,000 characters), though the delta engine notes where each copy differs.
   */
  private readonly lists = new WeakMap<readonly unknown[], readonly string[]>();

  /**
   * The hash of one state. Elements are not copied or frozen: the states hashed by one hasher must
   * not be mutated in place while it is in use (stage D: one hasher per buildPackets call).
   */
  hash(value: unknown): string {
    const parts: string[] = [];
    this.top(value, parts);
    return createHash('sha256').update(utf8(parts.join(''))).digest('hex');
  }

  /**
   * hashValue(value) (core/hash.ts: SHA-256 of canonicalCompact(value)), written on the way to this
   * hasher's chunk digests of the same value. Why (issue 18): `episode plan` and `episode run` derive
   * the default seed from the loaded world's flat hash, and stage A then takes its state hash: two
   * passes that each wrote the canonical text of the whole world (18 MB at 10,000 characters). Here
   * each chunk's text is written once and feeds both digests, so a following hash() of the same
   * world finds every chunk digest made. The chunk digests are those hash() makes (same text); the
   * flat digest is the definition's whenever no array has a hole (JSON-loaded data never has one);
   * with a hole anywhere the flat hash is taken by hashValue itself.
   */
  flatHash(value: unknown): string {
    // Noted by the world loader from the derived index (core/known-hashes.ts): the same value's hash.
    const known = knownFlatHash(value);
    if (known !== undefined) return known;
    const flat = new FlatSink();
    this.flatTop(value, flat, false);
    return this.sawHole ? hashValue(value) : flat.hash.digest('hex');
  }

  /**
   * canonicalCompact(v) into the flat digest, each array reached through objects only chunk by chunk.
   * `known`: v lies in a value the world files' parser marked canonical (core/json.ts
   * isParsedCanonical), so its chunks are written without checking their elements.
   */
  private flatTop(v: unknown, flat: FlatSink, known: boolean): void {
    if (v === null || typeof v !== 'object') {
      flat.hash.update(this.text(v, false));
      return;
    }
    if (Array.isArray(v)) {
      const inList = known || isParsedCanonical(v);
      flat.hash.update('[');
      for (let start = 0; start < v.length; start += CHUNK) {
        if (start) flat.hash.update(',');
        // The chunk's text is "[e1,e2,…]": its inside goes into the flat text, the whole into its digest.
        const chunk = this.chunkText(v, start, undefined, inList);
        const bytes = flat.bytes(chunk.text);
        flat.hash.update(bytes.subarray(1, bytes.length - 1));
        this.remember(chunk, createHash('sha256').update(bytes).digest('hex'));
      }
      flat.hash.update(']');
      return;
    }
    const rec = v as Record<string, unknown>;
    const inside = known || isParsedCanonical(rec);
    flat.hash.update('{');
    let first = true;
    for (const k of jsonKeyOrder(Object.keys(rec).sort())) {
      const x = rec[k];
      if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
      flat.hash.update((first ? '' : ',') + JSON.stringify(k) + ':');
      first = false;
      this.flatTop(x, flat, inside);
    }
    flat.hash.update('}');
  }

  /**
   * canonicalCompact of arr's chunk at `start` as chunk() writes it. A chunk of canonical elements
   * (as loaded from canonical files, or their copy-on-write copies) is one native JSON.stringify,
   * and its elements' texts are not kept. `prev`, a canonical chunk that began with the same
   * element, vouches for the elements it shares with this one (the same objects: hashed states are
   * not edited in place), so only the new ones are checked (issue 18: the check walked the whole
   * chunk again, as long as writing it). `known`: every element is canonical (flatTop says why).
   */
  private chunkText(arr: readonly unknown[], start: number, prev?: ChunkEntry, known = false): { text: string; refs: unknown[]; canonical: boolean } {
    const end = Math.min(arr.length, start + CHUNK);
    const refs = arr.slice(start, end);
    const canonical = known || canonicalSlice(refs, prev);
    return { text: canonical ? JSON.stringify(refs) : this.elementsText(arr, start, end), refs, canonical };
  }

  /** "[e1,e2,…]" for arr[start..end), each element's text kept by identity (a hole reads as null and is noted). */
  private elementsText(arr: readonly unknown[], start: number, end: number): string {
    const texts: string[] = new Array(end - start);
    for (let i = start; i < end; i++) {
      if (!(i in arr)) this.sawHole = true;
      const x: unknown = arr[i];
      texts[i - start] = x === undefined || typeof x === 'function' || typeof x === 'symbol' ? 'null' : this.text(x, true);
    }
    return '[' + texts.join(',') + ']';
  }

  /** Keep a chunk's digest, keyed by its first element. */
  private remember(chunk: { refs: unknown[]; canonical: boolean }, hex: string): void {
    const head = chunk.refs[0];
    if (head !== null && typeof head === 'object') this.chunks.set(head, { refs: chunk.refs, hex, canonical: chunk.canonical });
  }

  /** T(v) as canonical text, into parts. */
  private top(v: unknown, parts: string[]): void {
    if (v === null || typeof v !== 'object') {
      parts.push(this.text(v, false));
      return;
    }
    if (Array.isArray(v)) {
      const digests = this.listDigests(v);
      parts.push(digests.length ? `["${digests.join('","')}"]` : '[]');
      return;
    }
    const rec = v as Record<string, unknown>;
    parts.push('{');
    let first = true;
    for (const k of jsonKeyOrder(Object.keys(rec).sort())) {
      const x = rec[k];
      if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
      parts.push((first ? '' : ',') + JSON.stringify(k) + ':');
      first = false;
      this.top(x, parts);
    }
    parts.push('}');
  }

  /** The chunk digests of arr: a sealed list's are kept, or derived from a sealed list it was copied from. */
  private listDigests(arr: readonly unknown[]): readonly string[] {
    const sealed = sealedChanges(arr);
    const count = Math.ceil(arr.length / CHUNK);
    if (!sealed) {
      const known = this.known(arr);
      if (known?.length === count) return known;
    }
    if (sealed) {
      const known = this.lists.get(arr) ?? this.derived(arr, sealed);
      if (known?.length === count) return known;
    }
    const out: string[] = new Array(count);
    for (let c = 0; c < count; c++) out[c] = this.chunk(arr, c * CHUNK);
    if (sealed) this.lists.set(arr, out);
    return out;
  }

  /**
   * A sealed list's digests from those kept for a sealed list it was copied from (a few copies up:
   * a scene's state is several batches on from the last state hashed): the chunks where a noted
   * change falls are made (chunk(): most are met already), the others taken over. Undefined when no
   * such list is kept (the first copy of a loaded list is walked whole).
   */
  private derived(arr: readonly unknown[], first: { from: readonly unknown[]; changed: readonly number[] }): readonly string[] | undefined {
    const touched = new Set<number>();
    let step: typeof first | undefined = first;
    let list = arr;
    for (let up = 0; step && up < 8; up++) {
      if (step.from.length > list.length) return undefined; // a copy-on-write list only grows
      for (const i of step.changed) touched.add(Math.floor(i / CHUNK));
      const base = this.lists.get(step.from) ?? this.known(step.from);
      if (base) {
        const out: string[] = new Array(Math.ceil(arr.length / CHUNK));
        for (let c = 0; c < out.length; c++) out[c] = c < base.length && !touched.has(c) ? base[c]! : this.chunk(arr, c * CHUNK);
        this.lists.set(arr, out);
        return out;
      }
      list = step.from;
      step = sealedChanges(list);
    }
    return undefined;
  }

  /**
   * A loaded list's digests as the derived index kept them (core/known-hashes.ts), kept by this
   * hasher once checked: later states share the list or copy it (derived() starts from these). Its
   * chunks are noted as flatHash would have noted them, so that a state's changed chunk (stage D)
   * still finds the loaded chunk it replaces and checks only its new elements (canonicalSlice).
   */
  private known(arr: readonly unknown[]): readonly string[] | undefined {
    const kept = this.lists.get(arr);
    if (kept) return kept;
    const k = knownList(arr);
    if (!k) return undefined;
    this.lists.set(arr, k.digests);
    for (let c = 0; c < k.digests.length; c++) {
      const start = c * CHUNK;
      const head = arr[start];
      if (head !== null && typeof head === 'object') this.chunks.set(head, { refs: arr.slice(start, start + CHUNK), hex: k.digests[c]!, canonical: k.canonical });
    }
    return k.digests;
  }

  /**
   * Every list of `value` reached through objects only (the lists T replaces), with its chunk
   * digests: what the derived index keeps of a loaded world after its flatHash (then each chunk is
   * found made, not written again).
   */
  listsOf(value: unknown): WorldList[] {
    const out: WorldList[] = [];
    // `known`: an ancestor was parsed canonical throughout (as flatTop's), so every element of a list under it is.
    const walk = (v: unknown, path: string[], known: boolean): void => {
      if (v === null || typeof v !== 'object') return;
      const canonical = known || isParsedCanonical(v);
      if (Array.isArray(v)) {
        out.push({ path, list: v, digests: this.listDigests(v), canonical });
        return;
      }
      for (const k of Object.keys(v).sort()) walk((v as Record<string, unknown>)[k], [...path, k], canonical);
    };
    walk(value, [], false);
    return out;
  }

  private chunk(arr: readonly unknown[], start: number): string {
    const end = Math.min(arr.length, start + CHUNK);
    const head = arr[start];
    const hit = head !== null && typeof head === 'object' ? this.chunks.get(head) : undefined;
    if (hit && sameRefs(hit.refs, arr, start, end)) return hit.hex;
    // The chunk's text goes to the digest as a string: at a chunk's size (64 characters of the DPRR
    // world: ~90 K characters) that is 2-3x faster than encoding it into a Buffer first, which pays
    // only for texts of megabytes (core/hash.ts utf8). Same digest (UTF-8 either way).
    // A canonical chunk is one native JSON.stringify (chunkText), its elements' texts not kept: a
    // changed chunk's other 63 elements were written by flatHash without keeping theirs either, and
    // writing and keeping each (a WeakMap entry and a join) cost more than writing the chunk again
    // when it changes again (issue 18, DPRR stage D: 24 states' hashes ~53 -> ~39 ms in process).
    const chunk = this.chunkText(arr, start, hit);
    const hex = createHash('sha256').update(chunk.text).digest('hex');
    this.remember(chunk, hex);
    return hex;
  }

  /** canonicalCompact(v); array elements' texts are kept by identity. */
  private text(v: unknown, element: boolean): string {
    if (v === null) return 'null';
    switch (typeof v) {
      case 'number':
        if (!Number.isFinite(v)) throw new Error(`cannot serialise non-finite number ${v}`);
        return JSON.stringify(v);
      case 'string':
      case 'boolean':
        return JSON.stringify(v);
      case 'object': break;
      default: return JSON.stringify(v) as string; // bigint throws as JSON.stringify does
    }
    const o = v as object;
    if (element) {
      const hit = this.pieces.get(o);
      if (hit !== undefined) return hit;
    }
    let out: string;
    // Files are written canonically, so loaded entities (and their copy-on-write copies) usually
    // already have sorted keys: then the native JSON.stringify writes the canonical text.
    if (isCanonical(o)) out = JSON.stringify(o);
    else if (Array.isArray(o)) out = this.elementsText(o, 0, o.length);
    else {
      const rec = o as Record<string, unknown>;
      const parts: string[] = [];
      for (const k of jsonKeyOrder(Object.keys(rec).sort())) {
        const x = rec[k];
        if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
        parts.push(JSON.stringify(k) + ':' + this.text(x, false));
      }
      out = '{' + parts.join(',') + '}';
    }
    if (element) this.pieces.set(o, out);
    return out;
  }
}

/** The state hash of one world (a fresh hasher: nothing is kept). */
export function stateHash(value: unknown): string {
  return new StateHasher().hash(value);
}

/** A chunk's digest and elements (valid while arr holds the same), and whether it was canonical as it stood. */
interface ChunkEntry {
  refs: unknown[];
  hex: string;
  canonical: boolean;
}

/** isCanonical(slice), the elements a canonical chunk `prev` held (by identity) taken as canonical. */
function canonicalSlice(slice: readonly unknown[], prev: ChunkEntry | undefined): boolean {
  if (!prev?.canonical) return isCanonical(slice);
  for (let i = 0; i < slice.length; i++) if (slice[i] !== prev.refs[i] && !isCanonical(slice[i])) return false;
  return true;
}

/** Whether arr[start..end) holds exactly the elements of `refs` (a plain loop: stage D checks every chunk of every state). */
function sameRefs(refs: readonly unknown[], arr: readonly unknown[], start: number, end: number): boolean {
  if (refs.length !== end - start) return false;
  for (let i = 0; i < refs.length; i++) if (refs[i] !== arr[start + i]) return false;
  return true;
}

/** flatHash's digest, and one scratch buffer every chunk's UTF-8 bytes are written into (no Buffer per chunk). */
class FlatSink {
  readonly hash = createHash('sha256');
  private scratch = Buffer.allocUnsafe(1 << 16);

  /** The UTF-8 bytes of `text`, valid until the next call (Hash#update copies what it is given). */
  bytes(text: string): Buffer {
    if (text.length * 3 > this.scratch.length) this.scratch = Buffer.allocUnsafe(text.length * 3);
    return this.scratch.subarray(0, this.scratch.write(text, 'utf8'));
  }
}
