import { canonicalCompact } from '../../core/json.js';
import type { ScenePacket } from '../../domain/packet.js';
import { packetForModel, type ModelPacket } from './wire.js';

/**
 * The episode reference: what several scenes of one episode would otherwise each send the writer
 * again (the world's secrets and their "must not be stated" forms, thread questions, the cast's
 * relationships, the people around them). It goes once into the writer's cached prefix, after the
 * style guide and lexicon, and each scene's packet names the entries it uses by key instead of
 * repeating them: on the starter world about a third of what a packet sends is such a repeat.
 *
 * Sharing is exact: an entry is the whole item, byte for byte, as the scene's own packet would
 * have sent it, so a packet plus the reference says exactly what the packet alone said
 * (`resolveModelPacket` restores it, and the tests hold the two equal for every scene).
 *
 * An item becomes an entry only when it pays: the scenes that send it identically would pay for it
 * n times as fresh input, while the reference is written once (1.25× input on every model) and read
 * by each of the group's other calls (0.1×). So an item is shared when n > 1.25 + 0.1 × (calls − 1):
 * by 4 scenes of 21 on the writer model, by 2 of the 3 marquee scenes on the escalation model.
 */
export function minShare(calls: number): number {
  return Math.floor(1.25 + 0.1 * Math.max(0, calls - 1)) + 1;
}

type ListName = 'characters' | 'edges' | 'secrets' | 'threads' | 'accounts';
const LISTS: ListName[] = ['characters', 'edges', 'secrets', 'threads', 'accounts'];

export interface EpisodeReference {
  format: 1;
  episode_id: string;
  characters: Record<string, unknown>;
  edges: Record<string, unknown>;
  secrets: Record<string, unknown>;
  threads: Record<string, unknown>;
  accounts: Record<string, unknown>;
  forbidden_facts: Record<string, string>;
}

/** The packet as the model reads it when an episode reference is in the prefix. */
export type ReferencedModelPacket = ModelPacket & {
  retrieved_subgraph: ModelPacket['retrieved_subgraph'] & Partial<Record<`${ListName}_ref`, string[]>>;
  constraints: ModelPacket['constraints'] & { forbidden_facts_ref?: string[] };
};

/** A list of the model packet (absent when empty: wire.ts leaves empty lists out). */
function listOf(m: ModelPacket, list: ListName): unknown[] {
  return (m.retrieved_subgraph[list] as unknown[] | undefined) ?? [];
}

function itemKey(list: ListName, item: unknown): string {
  const o = item as { id?: string; from?: string; to?: string };
  return list === 'edges' ? `${o.from}>${o.to}` : String(o.id);
}

/** Entries by canonical text, with their keys: the first variant of an item keeps its id, later ones get ~2, ~3… */
interface Shared {
  lists: Record<ListName, Map<string, string>>;
  facts: Map<string, string>;
}

function countShared(models: ModelPacket[], min: number, texts: Map<unknown, string>): Shared {
  const counts = new Map<string, number>();
  const bump = (k: string) => counts.set(k, (counts.get(k) ?? 0) + 1);
  // Each item's canonical text, written once for both passes (the models are this call's own copies).
  const textOf = (item: unknown): string => {
    let t = texts.get(item);
    if (t === undefined) texts.set(item, (t = canonicalCompact(item)));
    return t;
  };
  for (const m of models) {
    const seen = new Set<string>();
    for (const list of LISTS) for (const item of listOf(m, list)) seen.add(`${list}\u0000${textOf(item)}`);
    for (const f of m.constraints.forbidden_facts ?? []) seen.add(`ff\u0000${f}`);
    seen.forEach(bump);
  }
  const lists = Object.fromEntries(LISTS.map((l) => [l, new Map<string, string>()])) as Shared['lists'];
  const facts = new Map<string, string>();
  const used = new Set<string>();
  // Keys are handed out in scene order, then list order, so the reference is the same for the same packets.
  for (const m of models) {
    for (const list of LISTS) {
      for (const item of listOf(m, list)) {
        const text = textOf(item);
        if ((counts.get(`${list}\u0000${text}`) ?? 0) < min || lists[list].has(text)) continue;
        const base = itemKey(list, item);
        let key = base;
        for (let n = 2; used.has(`${list}\u0000${key}`); n++) key = `${base}~${n}`;
        used.add(`${list}\u0000${key}`);
        lists[list].set(text, key);
      }
    }
    for (const f of m.constraints.forbidden_facts ?? []) {
      if ((counts.get(`ff\u0000${f}`) ?? 0) >= min && !facts.has(f)) facts.set(f, `F${facts.size + 1}`);
    }
  }
  return { lists, facts };
}

/**
 * The model packets a reference was made from, by packet: each of those scenes' requests (the cost
 * estimate of `episode plan`, each writer call and retry) reads its packet against the reference,
 * and rendered it again every time (issue 18). A packet is not edited once its episode's reference
 * is made (the reference holds its items); another packet object, an edited copy included, is
 * rendered afresh. With them, their items' canonical texts. What referencedPacket returns shares
 * the cached model's parts: its callers read them (buildWriterRequest replaces a top-level field of
 * its own copy, never edits a part).
 */
const MODELS = new WeakMap<EpisodeReference, { models: Map<ScenePacket, ModelPacket>; texts: Map<unknown, string> }>();

/** The reference for a group of an episode's scenes written on one model (one call each). */
export function episodeReference(packets: ScenePacket[]): EpisodeReference {
  const ordered = [...packets].sort((a, b) => a.number - b.number);
  const models = ordered.map((p) => packetForModel(p));
  const texts = new Map<unknown, string>();
  const shared = countShared(models, minShare(models.length), texts);
  const ref: EpisodeReference = { format: 1, episode_id: packets[0]?.episode_id ?? '', characters: {}, edges: {}, secrets: {}, threads: {}, accounts: {}, forbidden_facts: {} };
  for (const list of LISTS) for (const [text, key] of shared.lists[list]) ref[list][key] = JSON.parse(text);
  for (const [text, key] of shared.facts) ref.forbidden_facts[key] = text;
  MODELS.set(ref, { models: new Map(ordered.map((p, i) => [p, models[i]!])), texts });
  return ref;
}

/** True when the reference has no entry (then the writer gets plain packets). */
export function referenceIsEmpty(ref: EpisodeReference): boolean {
  return LISTS.every((l) => Object.keys(ref[l]).length === 0) && Object.keys(ref.forbidden_facts).length === 0;
}

interface Lookups {
  byText: Record<ListName, Map<string, string>>;
  factKey: Map<string, string>;
  json?: string;
}

/**
 * A reference's entries by canonical text, and its facts by text. A reference is not edited once
 * built, and every scene's request reads it (issue 18: these maps and the reference's text were
 * rebuilt per scene, ~1% of a DPRR plan's cost estimate and of each writer request).
 */
const LOOKUPS = new WeakMap<EpisodeReference, Lookups>();

function lookupsOf(ref: EpisodeReference): Lookups {
  let l = LOOKUPS.get(ref);
  if (!l) {
    const byText = Object.fromEntries(LISTS.map((k) => [k, new Map(Object.entries(ref[k]).map(([key, v]) => [canonicalCompact(v), key]))])) as Record<ListName, Map<string, string>>;
    LOOKUPS.set(ref, (l = { byText, factKey: new Map(Object.entries(ref.forbidden_facts).map(([k, v]) => [v, k])) }));
  }
  return l;
}

/** The packet as the model reads it, with the reference's entries replaced by their keys. */
export function referencedPacket(p: ScenePacket, ref: EpisodeReference): ReferencedModelPacket {
  const cached = MODELS.get(ref);
  const hit = cached?.models.get(p);
  const m = hit ?? packetForModel(p);
  // Items' texts are kept for the reference's own packets only: another packet object (a copy
  // edited since, in place or not) may share an item whose text changed, so its items are written.
  const texts = hit ? cached!.texts : undefined;
  const { byText, factKey } = lookupsOf(ref);
  const g: Record<string, unknown> = { ...m.retrieved_subgraph };
  for (const list of LISTS) {
    const inline: unknown[] = [];
    const keys: string[] = [];
    for (const item of listOf(m, list)) {
      const key = byText[list].get(texts?.get(item) ?? canonicalCompact(item));
      if (key === undefined) inline.push(item);
      else keys.push(key);
    }
    // Empty lists stay out, as in the plain model packet.
    if (inline.length) g[list] = inline;
    else delete g[list];
    if (keys.length) g[`${list}_ref`] = keys;
  }
  const all = m.constraints.forbidden_facts ?? [];
  const facts = all.filter((f) => !factKey.has(f));
  const factRefs = all.flatMap((f) => (factKey.has(f) ? [factKey.get(f)!] : []));
  const { forbidden_facts: _ff, ...rest } = m.constraints;
  const constraints = { ...rest, ...(facts.length ? { forbidden_facts: facts } : {}), ...(factRefs.length ? { forbidden_facts_ref: factRefs } : {}) } as ReferencedModelPacket['constraints'];
  return { ...m, retrieved_subgraph: g as ReferencedModelPacket['retrieved_subgraph'], constraints };
}

/**
 * What the model reconstructs from a referenced packet and the reference: the plain model packet.
 * Only the order within a list can differ (inline items first, then referenced ones).
 */
export function resolveModelPacket(p: ReferencedModelPacket, ref: EpisodeReference): ModelPacket {
  const g: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(p.retrieved_subgraph)) if (!k.endsWith('_ref')) g[k] = v;
  for (const list of LISTS) {
    const items = [...((p.retrieved_subgraph[list] as unknown[] | undefined) ?? []), ...(p.retrieved_subgraph[`${list}_ref`] ?? []).map((k) => ref[list][k])];
    if (items.length) g[list] = items;
  }
  const { forbidden_facts_ref: refs, ...constraints } = p.constraints;
  const facts = [...(constraints.forbidden_facts ?? []), ...(refs ?? []).map((k) => ref.forbidden_facts[k]!)];
  return { ...p, retrieved_subgraph: g as ModelPacket['retrieved_subgraph'], constraints: { ...constraints, ...(facts.length ? { forbidden_facts: facts } : {}) } as ModelPacket['constraints'] };
}

/** The reference as the writer's prefix carries it (compact canonical JSON). */
export function referenceJson(ref: EpisodeReference): string {
  const l = lookupsOf(ref);
  return (l.json ??= canonicalCompact(ref));
}
