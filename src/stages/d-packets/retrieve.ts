import type { ScenePacket, SubgraphEdge } from '../../domain/packet.js';
import type { OperatorApplication } from '../../domain/plan.js';
import type { Character, LedgerAccount, Relationship, Secret, World } from '../../domain/world.js';
import { round } from '../../core/json.js';
import { edgeOf, memoList, registerPatch, type WorldIndex } from '../../core/world-index.js';
import { OverlayMap } from '../../core/overlay-map.js';
import type { ItemLengths } from './measure.js';
import { secretParties } from './secret-parties.js';
import { compareText } from '../../core/text-order.js';
import { ledgerAccountsOf } from '../../domain/delta.js';

export const WEIGHTS = ['loyalty', 'fear', 'debt', 'affection', 'rivalry', 'trust'] as const;
/**
 * Packet items are built with their keys in sorted order, as the files write them: then writing a
 * packet, measuring an item and keying the episode reference take the items as they are (core/json.ts
 * canonicalShared and isCanonical) instead of sorted copies (issue 18).
 */
const SORTED_WEIGHTS = [...WEIGHTS].sort();

/** What a scene's retrieval starts from: its cast, what its applications bind and advance. */
export interface SceneFocus {
  cast: readonly string[];
  apps: readonly OperatorApplication[];
  bound: ReadonlySet<string>;
  advanced: ReadonlySet<string>;
  /** Secrets an earlier scene of the episode told in full (marked `told`: refer to them). */
  told?: ReadonlySet<string>;
}

/** The retrieved subgraph of one scene, with the relevance the budget prunes by. */
export interface Retrieval {
  /** Hops from the cast (0 for the cast) of every walked character. */
  hop: Map<string, number>;
  walked: Set<string>;
  subgraph: Omit<ScenePacket['retrieved_subgraph'], 'k'>;
  secretRel: Map<string, number>;
  threadRel: Map<string, number>;
  /** secretsAround(index, walked): forbiddenFacts reads the same list (issue 18: it was looked up twice a scene). */
  around: Secret[];
}

/**
 * GraphRAG-lite: the k-hop walk over relationship edges from the cast, and what the walked
 * characters touch — read from the index (edges per character, by id lookups), never by scanning
 * the world's lists, so a scene's packet costs what its neighbourhood holds (issue 18).
 */
/** A subgraph character entry, by the state's character object (see retrieve). */
export type CharacterEntries = Map<Character, ScenePacket['retrieved_subgraph']['characters'][number]>;

/**
 * `entries` keeps each subgraph character's entry by the state's character object: the scenes'
 * states share every character a scene did not change, and each scene walks many of the same, so
 * an unchanged character is one entry in all their packets, built and measured once (issue 18:
 * 150-250 entries a DPRR scene, each with its stats and intentions copied). Entries are not edited.
 */
export function retrieve(before: World, index: WorldIndex, focus: SceneFocus, k: 1 | 2, snapshot: SnapshotEdges, entries: CharacterEntries = new Map(), lengths?: ItemLengths): Retrieval {
  const hop = walk(index, focus.cast, k);
  const walked = new Set(hop.keys());
  const secretRel = new Map<string, number>();
  const threadRel = new Map<string, number>();
  const around = secretsAround(index, walked);
  const subgraph = {
    characters: [...walked].sort().map((id) => {
      const c = index.characters.get(id)!;
      let entry = entries.get(c);
      if (!entry || entry.id !== id) entries.set(c, (entry = { faction: c.faction, id, intentions: [...c.bdi.intentions], location: c.location, name: c.name, stats: { ...c.stats }, status: c.status }));
      return entry;
    }),
    edges: subgraphEdges(index, focus, hop, snapshot, lengths),
    secrets: retrievedSecrets(around, focus, secretRel),
    threads: retrievedThreads(index, focus, threadRel),
    accounts: retrievedAccounts(before, focus),
  };
  return { hop, walked, subgraph, secretRel, threadRel, around };
}

function walk(index: WorldIndex, cast: readonly string[], k: 1 | 2): Map<string, number> {
  const hop = new Map<string, number>(cast.map((id) => [id, 0]));
  let frontier = [...cast];
  for (let h = 1; h <= k; h++) {
    const next: string[] = [];
    const reach = (other: string) => {
      if (!hop.has(other) && index.characters.has(other)) { hop.set(other, h); next.push(other); }
    };
    for (const id of frontier) {
      // Outgoing edges first, then incoming: the order the walk meets characters in.
      for (const r of index.edgesFrom.get(id) ?? []) reach(r.to);
      for (const r of index.edgesTo.get(id) ?? []) reach(r.from);
    }
    frontier = next;
  }
  return hop;
}

/** Threads open and relevant to the scene: advanced by it, or with a stakeholder in its cast. */
function sceneThreads(index: WorldIndex, focus: SceneFocus) {
  return [...index.threads.values()].filter((t) => t.status === 'open' && (focus.advanced.has(t.id) || t.stakeholders.some((s) => focus.cast.includes(s))));
}

/**
 * The edges among walked characters (each once, from its `from` end) that concern the cast, an
 * active thread's stakeholders, or changed this episode (spec §2.2), most relevant first.
 * Only those can be kept, so only those are looked at: the cast's and the stakeholders' own edges,
 * and the few the scene's state does not share with the snapshot (issue 18: walking every edge
 * among a DPRR scene's 150-250 walked characters, ~2,000 a scene, was most of retrieval). The order
 * is the definition's: relevance, then the edge key, then where a walk over the walked characters'
 * outgoing edges meets it (what the stable sort of that walk's list kept).
 */
function subgraphEdges(index: WorldIndex, focus: SceneFocus, hop: Map<string, number>, snapshot: SnapshotEdges, lengths?: ItemLengths): SubgraphEdge[] {
  const stakeholders = new Set(sceneThreads(index, focus).flatMap((t) => t.stakeholders));
  const seen = new Set<Relationship>();
  const found: { r: Relationship; e: SubgraphEdge; key: string }[] = [];
  const consider = (r: Relationship): void => {
    if (seen.has(r) || !hop.has(r.from) || !hop.has(r.to)) return;
    seen.add(r);
    const changed = !snapshot.same(r);
    const inCast = Number(focus.cast.includes(r.from)) + Number(focus.cast.includes(r.to));
    const touchesThread = stakeholders.has(r.from) || stakeholders.has(r.to);
    if (inCast === 0 && !touchesThread && !changed) return;
    const { weights, strongest } = snapshot.weights(r);
    const relevance = round(1.5 * inCast + (focus.bound.has(r.from) || focus.bound.has(r.to) ? 1 : 0) + (touchesThread ? 1 : 0) + (changed ? 2 : 0)
      - 0.5 * Math.max(hop.get(r.from)!, hop.get(r.to)!) + 0.5 * strongest);
    const e = { flags: [...r.flags], from: r.from, relevance, to: r.to, weights };
    // Everything of e but its relevance comes from r: measured once per r (measure.ts ItemLengths#edgeFrom).
    lengths?.edgeFrom(e, r);
    found.push({ r, e, key: `${r.from}>${r.to}` });
  };
  const around = (id: string): void => {
    for (const r of index.edgesFrom.get(id) ?? []) consider(r);
    for (const r of index.edgesTo.get(id) ?? []) consider(r);
  };
  for (const id of focus.cast) around(id);
  for (const id of stakeholders) around(id);
  for (const r of snapshot.notShared(index)) consider(r);
  // Where the walk over hop's characters, each one's outgoing edges in index order, meets an edge.
  const rank = new Map<string, number>();
  let n = 0;
  for (const id of hop.keys()) rank.set(id, n++);
  const walkOrder = (r: Relationship): number => rank.get(r.from)! * 2 ** 21 + (index.edgesFrom.get(r.from) ?? []).indexOf(r);
  found.sort((a, b) => b.e.relevance - a.e.relevance || collate(a.key, b.key) || walkOrder(a.r) - walkOrder(b.r));
  return found.map((f) => f.e);
}

/** Aureus's one text order (core/text-order.ts): en-US, whatever the process's locale. */
const collate = compareText;

/**
 * The snapshot's edges, for telling which edges of a scene's state changed this episode. Kept per
 * edge object and per edge map: the scenes' states share most edges and their index's edge maps
 * derive from the snapshot's (core/overlay-map.ts), so each scene asks again about the same few.
 */
export interface SnapshotEdges {
  /** Whether the state's edge is the snapshot's, or has the same weights and flags (then it did not change). */
  same(r: Relationship): boolean;
  /** The edges of a state that are not the snapshot's own objects: every changed edge is one of them. */
  notShared(index: WorldIndex): readonly Relationship[];
  /**
   * r's weights as an edge holds them (rounded, in sorted key order) and its strongest weight (before
   * rounding), made once per relationship for the call: the scenes that keep r share the object
   * (packet edges are read, never edited; issue 18: ~5,000 edges from ~600 relationships on DPRR).
   */
  weights(r: Relationship): EdgeWeights;
}

export interface EdgeWeights {
  weights: Record<string, number>;
  strongest: number;
}

function edgeWeights(r: Relationship): EdgeWeights {
  let strongest = -Infinity;
  const weights: Record<string, number> = {};
  for (const w of SORTED_WEIGHTS) {
    const v = r.weights[w] ?? 0;
    strongest = Math.max(strongest, v);
    weights[w] = round(v);
  }
  return { weights, strongest };
}

export function snapshotEdges(snapshot: WorldIndex): SnapshotEdges {
  const base = snapshot.edgesFrom;
  const own = (r: Relationship): boolean => edgeOf(snapshot, r.from, r.to) === r;
  // Maps, not WeakMaps: they live for one buildPackets call, and their lookups (thousands per scene) are faster.
  const same = new Map<Relationship, boolean>();
  const unshared = new Map<WorldIndex['edgesFrom'], readonly Relationship[]>();
  const weighed = new Map<Relationship, EdgeWeights>();
  // Over the state's lists of edges by `from`. The set, not its order, is what counts: subgraphEdges sorts.
  const notShared = (lists: WorldIndex['edgesFrom']): readonly Relationship[] => {
    if (lists === base) return [];
    let hit = unshared.get(lists);
    if (hit) return hit;
    const out = new Set<Relationship>();
    const split = OverlayMap.split(lists);
    if (split.base !== lists) {
      // An overlay: what its base does not share, where the overlay still holds it, and its own lists' edges.
      for (const r of notShared(split.base)) if (edgeOf({ edgesFrom: lists }, r.from, r.to) === r) out.add(r);
      for (const id of split.changed) for (const r of lists.get(id)!) if (!own(r)) out.add(r);
    } else {
      for (const l of lists.values()) for (const r of l) if (!own(r)) out.add(r);
    }
    unshared.set(lists, (hit = [...out]));
    return hit;
  };
  return {
    same(b) {
      let hit = same.get(b);
      if (hit === undefined) {
        const a = edgeOf(snapshot, b.from, b.to);
        hit = a === b || (!!a && WEIGHTS.every((w) => (a.weights[w] ?? 0) === (b.weights[w] ?? 0)) && a.flags.length === b.flags.length && a.flags.every((f, i) => b.flags[i] === f));
        same.set(b, hit);
      }
      return hit;
    },
    notShared: (index) => notShared(index.edgesFrom),
    weights(r) {
      let hit = weighed.get(r);
      if (!hit) weighed.set(r, (hit = edgeWeights(r)));
      return hit;
    },
  };
}

/**
 * The index's secrets whose subject or a holder is one of `ids`, in the index's order: found through
 * the secrets by party, built once per secrets list (memoList), instead of a pass over every secret
 * of the world per scene (issue 18: thousands on the 10,000-character world).
 */
export function secretsAround(index: WorldIndex, ids: Iterable<string>): Secret[] {
  const parties = memoList(index.world.secrets?.secrets ?? [], secretParties);
  const found = new Set<Secret>();
  for (const id of ids) for (const s of parties.by.get(id) ?? []) found.add(s);
  return [...found].sort((a, b) => parties.at.get(a)! - parties.at.get(b)!);
}

function retrievedSecrets(around: readonly Secret[], focus: SceneFocus, secretRel: Map<string, number>) {
  const inCast = (id: string) => focus.cast.includes(id);
  return around
    .filter((s) => s.status !== 'inert')
    // A hidden secret none of the cast holds stays out (it is a forbidden fact instead), unless this scene uses it.
    .filter((s) => s.status !== 'hidden' || s.holders.some(inCast) || focus.bound.has(s.id))
    .map((s) => {
      secretRel.set(s.id, round((focus.bound.has(s.id) ? 3 : 0) + (inCast(s.subject) ? 1.5 : 0) + s.holders.filter(inCast).length + s.legal_value + s.public_damage));
      return { holders: [...s.holders], id: s.id, legal_value: round(s.legal_value), public_damage: round(s.public_damage), status: s.status, subject: s.subject, text: s.text, ...(focus.told?.has(s.id) ? { told: true } : {}) };
    });
}

function retrievedThreads(index: WorldIndex, focus: SceneFocus, threadRel: Map<string, number>) {
  return sceneThreads(index, focus).map((t) => {
    threadRel.set(t.id, round((focus.advanced.has(t.id) ? 3 : 0) + t.priority / 5));
    return { id: t.id, progress: round(t.progress), question: t.question, status: t.status };
  });
}

/**
 * The accounts the cast own or the scene's required deltas move (a transfer's two ends, an add's or a
 * subtract's one account: domain/delta.ts ledgerAccountsOf), in ledger order: the positions of the
 * cast's and the moved accounts through the ledger's parties (by owner and by id, every
 * position: a duplicate id is listed as the pass over the ledger listed it), not a pass over the
 * whole ledger per scene (issue 18: ~3,500 accounts a DPRR scene, ~10,000 on the synthetic world).
 * The index is memoised per ledger list, and a transfer's copy derives it (ledgerPartiesPatch).
 */
function retrievedAccounts(before: World, focus: SceneFocus) {
  const ledger = before.assets.cash_ledger;
  const parties = memoList(ledger, ledgerParties);
  const at = new Set<number>();
  for (const id of focus.cast) for (const i of parties.byOwner.get(id) ?? []) at.add(i);
  for (const a of focus.apps) {
    for (const d of a.required_deltas) for (const id of ledgerAccountsOf(d)) for (const i of parties.byId.get(id) ?? []) at.add(i);
  }
  return [...at].sort((x, y) => x - y).map((i) => {
    const a = ledger[i]!;
    return { denarii: a.denarii, id: a.id, owner: a.owner };
  });
}

interface LedgerParties {
  /** Positions of each owner's accounts, ascending. */
  byOwner: Map<string, number[]>;
  /** Positions of each account id, ascending. */
  byId: Map<string, number[]>;
}

function ledgerParties(list: readonly LedgerAccount[]): LedgerParties {
  const byOwner = new Map<string, number[]>();
  const byId = new Map<string, number[]>();
  list.forEach((a, i) => {
    (byOwner.get(a.owner) ?? byOwner.set(a.owner, []).get(a.owner)!).push(i);
    (byId.get(a.id) ?? byId.set(a.id, []).get(a.id)!).push(i);
  });
  return { byOwner, byId };
}

/**
 * A copy of the ledger whose changed accounts keep their ids and owners (a transfer changes only the
 * sums) has the same positions; anything else (an account appended, an owner changed) is rebuilt.
 */
registerPatch(ledgerParties, (prev, original, items, changed) => {
  if (items.length !== original.length) return undefined;
  for (const i of changed) {
    const a = items[i] as LedgerAccount, b = original[i] as LedgerAccount;
    if (a.id !== b.id || a.owner !== b.owner) return undefined;
  }
  return prev;
});
