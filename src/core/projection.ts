import type { AppliedDelta, Provenance, ResolvedDelta } from '../domain/delta.js';
import type { World } from '../domain/world.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { applyDeltas } from './deltas/apply.js';
import { StateHasher, stateHash as merkleStateHash } from './state-hash.js';

/**
 * State projection: the world before and after each scene of an episode, given the resolved
 * deltas of each scene in order. One applyDeltas batch per scene, so each scene costs one
 * copy-on-write of the files and entities it touches (never a deep clone, never a copy per
 * delta); consecutive states share everything else. This is what lets planning, verification
 * and parallel scene writing each see the exact state a scene starts from.
 */

export interface SceneDeltas {
  scene: string;
  deltas: readonly ResolvedDelta[];
  /** Provenance of each delta; default { episode, scene, event: "d<n>", operator: null }. */
  provenance?: (d: ResolvedDelta, i: number) => Provenance;
}

export interface Projection {
  ok: true;
  /** before[i] is the state scene i starts from; before[0] is the input world itself. */
  before: World[];
  /** after[i] is the state scene i leaves; after[i] === before[i + 1]. */
  after: World[];
  applied: AppliedDelta[][];
  /** state hashes (sha256 of canonical JSON): hashes[i] of before[i], hashes[n] of after[n-1]. */
  hashes: string[];
}

export interface ProjectionFailure {
  ok: false;
  scene: string;
  sceneIndex: number;
  failedIndex: number;
  diagnostics: Diagnostic[];
}

/** The state hash used in plans and packets (state_hash, state_hash_before): core/state-hash.ts. */
export function stateHash(world: World): string {
  return merkleStateHash(world);
}

export function projectScenes(
  world: World,
  scenes: readonly SceneDeltas[],
  opts: { episode?: string; hashes?: boolean } = {},
): Projection | ProjectionFailure {
  const before: World[] = [];
  const after: World[] = [];
  const applied: AppliedDelta[][] = [];
  let cur = world;
  for (let s = 0; s < scenes.length; s++) {
    const sc = scenes[s]!;
    const prov = sc.provenance ?? ((_d: ResolvedDelta, i: number): Provenance => ({ episode: opts.episode ?? '', scene: sc.scene, event: `d${i + 1}`, operator: null }));
    const r = applyDeltas(cur, sc.deltas, prov);
    if (!r.ok) return { ok: false, scene: sc.scene, sceneIndex: s, failedIndex: r.failedIndex, diagnostics: r.diagnostics };
    before.push(cur);
    after.push(r.world);
    applied.push(r.applied);
    cur = r.world;
  }
  // One hasher for the sequence: consecutive states share their untouched chunks.
  const hasher = new StateHasher();
  const hashes = opts.hashes === false ? [] : [world, ...after].map((w) => hasher.hash(w));
  return { ok: true, before, after, applied, hashes };
}
