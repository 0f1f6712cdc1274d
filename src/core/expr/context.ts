import type { RoleKind } from '../../domain/world.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import type { WorldIndex } from '../world-index.js';
import {
  characterView,
  factionView,
  locationView,
  secretView,
  threadView,
  worldView,
  type View,
} from './views.js';

/** What an expression is evaluated against: one world state plus role bindings. */
export interface EvalContext {
  readonly index: WorldIndex;
  /** role name -> bound entity (kind + id). */
  readonly bindings: ReadonlyMap<string, { kind: RoleKind; id: string }>;
  /** The current episode number (world.episode); 0 when not given. */
  readonly episode: number;
  /** Entity view by kind and id, or undefined when no such entity exists. Cached per context. */
  view(kind: RoleKind, id: string): View | undefined;
  /** The `world` view. */
  worldView(): View;
}

/** Raised inside the interpreter and always caught at its boundary (never escapes evaluate()). */
export class EvalFail {
  constructor(readonly diagnostic: Diagnostic) {}
}

const VIEW_CACHE = new WeakMap<WorldIndex, { byKind: Map<RoleKind, Map<string, View | undefined>>; worlds: Map<number, View> }>();

/**
 * Views by the entity object they show. A view reads only its entity's own fields, and the delta
 * engine never edits an entity in place (core/deltas/draft.ts copies one before its first write),
 * so a state derived from another shares the views of every entity it did not change (issue 18: the
 * Director indexes a state per move it tries, and rebuilt the actor's and target's views on each).
 */
const ENTITY_VIEWS = new WeakMap<object, View>();
/** World views by the world file object (its metrics and date; copied on write too), then episode. */
const WORLD_VIEWS = new WeakMap<object, Map<number, View>>();

function entityView<T extends object>(e: T | undefined, make: (e: T) => View): View | undefined {
  if (e === undefined) return undefined;
  let v = ENTITY_VIEWS.get(e);
  if (v === undefined) ENTITY_VIEWS.set(e, (v = make(e)));
  return v;
}

function sharedWorldView(index: WorldIndex, episode: number): View {
  const file = index.world.world as object | undefined;
  if (file === undefined || file === null) return worldView(index.world, episode);
  let byEpisode = WORLD_VIEWS.get(file);
  if (!byEpisode) WORLD_VIEWS.set(file, (byEpisode = new Map()));
  let v = byEpisode.get(episode);
  if (!v) byEpisode.set(episode, (v = worldView(index.world, episode)));
  return v;
}

const KIND_ORDER: readonly RoleKind[] = ['character', 'secret', 'thread', 'location', 'faction'];

export function entityExists(index: WorldIndex, kind: RoleKind, id: string): boolean {
  switch (kind) {
    case 'character': return index.characters.has(id);
    case 'secret': return index.secrets.has(id);
    case 'thread': return index.threads.has(id);
    case 'location': return index.locations.has(id);
    case 'faction': return index.factions.has(id);
  }
}

/** The kind of an id when the role's kind is not declared: the first collection that has it. */
export function inferKind(index: WorldIndex, id: string): RoleKind | undefined {
  return KIND_ORDER.find((k) => entityExists(index, k, id));
}

/** The view Context.view gives for a bound role of a declared kind (compile.ts: no context per binding). */
export function viewOf(index: WorldIndex, kind: RoleKind, id: string): View | undefined {
  switch (kind) {
    case 'character': return entityView(index.characters.get(id), characterView);
    case 'secret': return entityView(index.secrets.get(id), secretView);
    case 'thread': return entityView(index.threads.get(id), threadView);
    case 'location': return entityView(index.locations.get(id), locationView);
    case 'faction': return entityView(index.factions.get(id), factionView);
  }
}

/** The `world` view Context.worldView gives (episode as makeEvalContext normalises it). */
export function worldViewOf(index: WorldIndex, episode: number | undefined): View {
  return sharedWorldView(index, typeof episode === 'number' && Number.isFinite(episode) ? episode : 0);
}

/**
 * Build an evaluation context. `roleKinds` (an operator's roles) makes binding unambiguous;
 * without it a bound id's kind is inferred (character, secret, thread, location, faction).
 * A binding to an id that does not exist is kept and reported when the role is used.
 */
export function makeEvalContext(
  index: WorldIndex,
  bindings: Record<string, string>,
  extra: { episode?: number; roleKinds?: Record<string, RoleKind> } = {},
): EvalContext {
  const bound = new Map<string, { kind: RoleKind; id: string }>();
  for (const role of Object.keys(bindings ?? {})) {
    const id = bindings[role];
    if (typeof id !== 'string') continue;
    const declared = extra.roleKinds && Object.hasOwn(extra.roleKinds, role) ? extra.roleKinds[role] : undefined;
    const kind = declared ?? inferKind(index, id) ?? (role === 'actor' ? 'character' : undefined);
    if (kind) bound.set(role, { kind, id });
  }
  // Views are immutable and an index is one immutable state, so views are shared by every
  // context over the same index (planning evaluates thousands of prerequisites per state).
  let views = VIEW_CACHE.get(index);
  if (!views) VIEW_CACHE.set(index, (views = { byKind: new Map(), worlds: new Map() }));
  const episode = typeof extra.episode === 'number' && Number.isFinite(extra.episode) ? extra.episode : 0;
  return new Context(index, bound, episode, views);
}

/** makeEvalContext's context: its methods on the prototype, not two closures made per context (planning makes thousands). */
class Context implements EvalContext {
  constructor(
    readonly index: WorldIndex,
    readonly bindings: ReadonlyMap<string, { kind: RoleKind; id: string }>,
    readonly episode: number,
    private readonly cache: { byKind: Map<RoleKind, Map<string, View | undefined>>; worlds: Map<number, View> },
  ) {}

  view(kind: RoleKind, id: string): View | undefined {
    // One map per kind: no key string to build on the hot path (prereqs look views up per binding).
    const cache = this.cache;
    const index = this.index;
    let byId = cache.byKind.get(kind);
    if (!byId) cache.byKind.set(kind, (byId = new Map()));
    let v = byId.get(id);
    if (v !== undefined || byId.has(id)) return v;
    v = viewOf(index, kind, id);
    byId.set(id, v);
    return v;
  }

  worldView(): View {
    let v = this.cache.worlds.get(this.episode);
    if (!v) this.cache.worlds.set(this.episode, (v = sharedWorldView(this.index, this.episode)));
    return v;
  }
}
