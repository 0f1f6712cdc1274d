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
  const cache = views;
  const episode = typeof extra.episode === 'number' && Number.isFinite(extra.episode) ? extra.episode : 0;
  return {
    index,
    bindings: bound,
    episode,
    view(kind, id) {
      // One map per kind: no key string to build on the hot path (prereqs look views up per binding).
      let byId = cache.byKind.get(kind);
      if (!byId) cache.byKind.set(kind, (byId = new Map()));
      let v = byId.get(id);
      if (v !== undefined || byId.has(id)) return v;
      switch (kind) {
        case 'character': { const c = index.characters.get(id); v = c && characterView(c); break; }
        case 'secret': { const s = index.secrets.get(id); v = s && secretView(s); break; }
        case 'thread': { const t = index.threads.get(id); v = t && threadView(t); break; }
        case 'location': { const l = index.locations.get(id); v = l && locationView(l); break; }
        case 'faction': { const f = index.factions.get(id); v = f && factionView(f); break; }
      }
      byId.set(id, v);
      return v;
    },
    worldView() {
      let v = cache.worlds.get(episode);
      if (!v) cache.worlds.set(episode, (v = worldView(index.world, episode)));
      return v;
    },
  };
}
