import { canonicalCompact } from '../../core/json.js';
import type { ScenePacket, SubgraphEdge } from '../../domain/packet.js';

/**
 * What of a packet goes to a model, and how its size is measured. The packet file keeps everything
 * (the `pruned` list, the estimate, the budget, the state hash) for readers and resume; the model
 * gets the scene only, as compact canonical JSON (indentation is about a third of the indented
 * form, and the pruned list can be most of it on a large world). The token budget is measured on
 * exactly this text, so what does not reach the model does not count against it.
 */
export type ModelPacket = Omit<ScenePacket, 'voices' | 'voice_seats' | 'pruned' | 'token_estimate' | 'token_budget' | 'state_hash_before' | 'retrieved_subgraph' | 'format' | 'marquee'> & {
  retrieved_subgraph: Omit<ScenePacket['retrieved_subgraph'], 'edges' | 'characters'> & { edges: unknown[]; characters: unknown[] };
};

/**
 * The packet as the model reads it: what the writer can put on screen. Besides the bookkeeping
 * (the file's format version and marquee flag, which choose the model, not the scene):
 * - edges: the cast's own relationships (at least one end on stage), without the retrieval
 *   `relevance` and without zero weights (the writer's instructions say an absent weight is 0);
 *   ties between two off-stage characters cannot be played in the scene;
 * - characters: the cast in full; anyone else the scene refers to (an edge, a secret, a thread, a
 *   directive or a delta names them) as who they are, their faction, status and whereabouts,
 *   without stat numbers and intentions; characters nothing in the scene refers to are left out.
 * The packet file keeps the whole retrieved subgraph. On the starter world the model reads about
 * half the subgraph's characters.
 */
export function packetForModel(p: ScenePacket): ModelPacket {
  const { retrieved_subgraph: g, ...rest } = modelRest(p);
  const cast = new Set(p.cast.map((c) => c.id));
  const edges = g.edges.filter((e) => cast.has(e.from) || cast.has(e.to)).map(modelEdge);
  const mentioned = mentionsIn(JSON.stringify([rest, edges, g.secrets, g.threads, g.accounts]));
  const characters = g.characters.flatMap((c) => {
    if (cast.has(c.id)) return [c];
    if (!mentioned(c.id)) return [];
    return [offStage(c)];
  });
  const { format: _f, marquee: _m, ...scene } = rest;
  return withoutEmpties({ ...scene, retrieved_subgraph: { ...g, edges, characters } }) as ModelPacket;
}

/** The packet without what never reaches the model (the subgraph is still whole here). */
export function modelRest(p: ScenePacket): Omit<ScenePacket, 'voices' | 'voice_seats' | 'pruned' | 'token_estimate' | 'token_budget' | 'state_hash_before'> {
  const { voices: _v, voice_seats: _s, pruned: _p, token_estimate: _e, token_budget: _b, state_hash_before: _h, ...rest } = p;
  return rest;
}

/** An edge as the model reads it: no retrieval relevance, no zero weights. */
export function modelEdge({ relevance: _r, weights, ...e }: SubgraphEdge): Omit<SubgraphEdge, 'relevance'> {
  return { ...e, weights: Object.fromEntries(Object.entries(weights).filter(([, v]) => v !== 0)) };
}

/** An off-stage character as the model reads it: who they are, without stat numbers and intentions. */
export function offStage(c: ScenePacket['retrieved_subgraph']['characters'][number]): object {
  const { stats: _s, intentions: _i, ...who } = c as typeof c & { stats?: unknown; intentions?: unknown };
  return who;
}

/**
 * Whether a text has `"id"` in it (in a JSON text: a string, key or value, that is the id). For an
 * id without a quote that is exactly "the id is what lies between two consecutive quotes", so the
 * text is split once (issue 18: scanning it once per subgraph character was the largest cost of
 * measuring a packet on the DPRR world).
 */
function mentionsIn(text: string): (id: string) => boolean {
  const between = new Set(text.split('"').slice(1, -1));
  return (id) => (id.includes('"') ? text.includes(`"${id}"`) : between.has(id));
}

/**
 * Drops null values and empty lists from objects (never from inside a list): a beat without a tag
 * or risks, a scene without the dead. The instructions read an absent field as empty, and on a
 * packet they are a few per cent of what the model is sent. A part with nothing to drop is the
 * part itself, not a copy (issue 18: most of a packet has none, and copying it all was most of
 * rendering a packet for the model): what this returns is read, never edited. One pass: a part is
 * copied when something under it was dropped (its parts are asked once, not again at each level).
 */
export function withoutEmpties(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      const y = withoutEmpties(x);
      if (y === x) continue;
      // A copy (holes stay holes, as Array#map keeps them), from the first element that changed.
      out ??= v.slice();
      out[i] = y;
    }
    return out ?? v;
  }
  const rec = v as Record<string, unknown>;
  const keys = Object.keys(rec);
  let out: Record<string, unknown> | undefined;
  for (let i = 0; i < keys.length; i++) {
    const x = rec[keys[i]!];
    const drop = x === null || (Array.isArray(x) && x.length === 0);
    const y = drop ? undefined : withoutEmpties(x);
    if (!out && (drop || y !== x)) {
      out = {};
      for (let j = 0; j < i; j++) out[keys[j]!] = rec[keys[j]!];
    }
    if (out && !drop) out[keys[i]!] = y;
  }
  return out ?? v;
}

/** The packet as the model reads it: compact canonical JSON. */
export function packetJson(p: ScenePacket): string {
  return canonicalCompact(packetForModel(p));
}

/** Estimated tokens of what the model reads (about four characters per token). */
export function packetTokens(p: ScenePacket): number {
  return Math.ceil(packetJson(p).length / 4);
}
