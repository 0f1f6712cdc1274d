import { beforeAll, describe, expect, it } from 'vitest';
import { canonicalCompact } from '../../../src/core/json.js';
import { episodeReference, minShare, referencedPacket, referenceIsEmpty, resolveModelPacket } from '../../../src/stages/d-packets/reference.js';
import { packetForModel, packetJson, type ModelPacket } from '../../../src/stages/d-packets/wire.js';
import { readableDeltas } from '../../../src/stages/e-writer/deltas.js';
import { buildWriterRequest, writerReferences } from '../../../src/stages/e-writer/prompt.js';
import type { ScenePacket } from '../../../src/domain/packet.js';
import { planScenario, STARTER } from './helpers.js';

/** A model packet with each list in a canonical order, so two packets compare as sets of items. */
function sorted(m: ModelPacket): unknown {
  const g = m.retrieved_subgraph as unknown as Record<string, unknown>;
  const lists = Object.fromEntries(Object.entries(g).map(([k, v]) => [k, Array.isArray(v) ? [...v].map((x) => canonicalCompact(x)).sort() : v]));
  const c = m.constraints as { forbidden_facts?: string[] };
  return { ...m, retrieved_subgraph: lists, constraints: { ...m.constraints, forbidden_facts: [...(c.forbidden_facts ?? [])].sort() } };
}

const style = { guide: '# Style\nShort sentences.', lexicon: [{ forbidden: 'okay', replacement: 'very well' }] };

describe('the episode reference in the writer prefix', () => {
  let packets: ScenePacket[];
  beforeAll(async () => {
    packets = (await planScenario(STARTER, 'bench')).packets;
  });

  it('shares an item only when the scenes sending it would pay more than its cached copy costs', () => {
    expect(minShare(1)).toBe(2);
    expect(minShare(3)).toBe(2);
    expect(minShare(21)).toBe(4);
    const writerScenes = packets.filter((p) => !p.marquee);
    const ref = episodeReference(writerScenes);
    const min = minShare(writerScenes.length);
    // Every entry is sent identically by at least `min` scenes; every other item stays inline.
    for (const [key, entry] of Object.entries(ref.secrets)) {
      const n = writerScenes.filter((p) => (packetForModel(p).retrieved_subgraph.secrets ?? []).some((s) => canonicalCompact(s) === canonicalCompact(entry))).length;
      expect(n, key).toBeGreaterThanOrEqual(min);
    }
    for (const p of writerScenes) {
      for (const e of referencedPacket(p, ref).retrieved_subgraph.edges ?? []) {
        const n = writerScenes.filter((q) => (packetForModel(q).retrieved_subgraph.edges ?? []).some((x) => canonicalCompact(x) === canonicalCompact(e))).length;
        expect(n).toBeLessThan(min);
      }
    }
    expect(Object.keys(ref.forbidden_facts).length).toBeGreaterThan(0);
  });

  it('is lossless: each packet plus the reference says exactly what the packet said alone', () => {
    const refs = writerReferences(packets);
    let saved = 0;
    for (const p of packets) {
      const ref = p.marquee ? refs.escalation : refs.writer;
      const r = referencedPacket(p, ref);
      expect(sorted(resolveModelPacket(r, ref))).toEqual(sorted(packetForModel(p)));
      saved += packetJson(p).length - canonicalCompact(r).length;
    }
    // On the starter world the reference takes a large share of what the packets repeated.
    const total = packets.reduce((n, p) => n + packetJson(p).length, 0);
    expect(saved / total).toBeGreaterThan(0.3);
  });

  it('is the same for the same packets, whatever order they come in', () => {
    const a = writerReferences(packets);
    const b = writerReferences([...packets].reverse());
    expect(canonicalCompact(b)).toBe(canonicalCompact(a));
  });

  it('gives every writer call of a model group one cached prefix, and keys the packet into it', () => {
    const references = writerReferences(packets);
    const reqs = packets.map((p) => buildWriterRequest(p, style, { seed: 's', attempt: 1, mode: 'write', escalate: p.marquee || undefined, references }));
    const prefixes = new Set(reqs.map((r, i) => `${packets[i]!.marquee}\u0000${r.static_context}`));
    expect(prefixes.size).toBe(packets.some((p) => p.marquee) ? 2 : 1);
    const plain = reqs.find((_, i) => !packets[i]!.marquee)!;
    expect(plain.static_context).toContain('EPISODE_REFERENCE:');
    expect(plain.messages[0]!.content).toMatch(/"secrets_ref":\[/);
    expect(plain.messages[0]!.content).toMatch(/"forbidden_facts_ref":\["F\d+"/);
    // The reference carries the secrets' texts; no writer-model packet repeats one, unless it
    // carries that secret in another state (a secret rumoured mid-episode is a different item,
    // shared only if enough scenes send that state).
    for (const entry of Object.values(references.writer.secrets) as { id: string; text: string }[]) {
      const quoted = JSON.stringify(entry.text).slice(1, -1);
      expect(plain.static_context).toContain(quoted);
      reqs.forEach((r, i) => {
        if (packets[i]!.marquee || !r.messages[0]!.content.includes(quoted)) return;
        const inline = (referencedPacket(packets[i]!, references.writer).retrieved_subgraph.secrets ?? []) as { id: string }[];
        expect(inline.some((x) => x.id === entry.id && canonicalCompact(x) !== canonicalCompact(entry)), `${packets[i]!.scene_id} repeats ${entry.id}`).toBe(true);
      });
    }
    // Without references (a caller that has no episode), the packet goes whole.
    const alone = buildWriterRequest(packets[1]!, style, { seed: 's', attempt: 1, mode: 'write' });
    expect(alone.static_context).not.toContain('EPISODE_REFERENCE');
    // …with its required deltas as the writer reads them (one line each, bookkeeping left out).
    const sent = JSON.parse(alone.messages[0]!.content.slice('SCENE_PACKET:\n'.length));
    const whole = JSON.parse(packetJson(packets[1]!));
    expect(sent.constraints.required_deltas).toEqual(readableDeltas(packets[1]!));
    expect({ ...sent, constraints: { ...sent.constraints, required_deltas: whole.constraints.required_deltas } }).toEqual(whole);
  });

  it('reads a packet the reference was made from as it was then, and an edited copy as it is', () => {
    const writerScenes = packets.filter((p) => !p.marquee);
    const ref = episodeReference(writerScenes);
    for (const p of writerScenes) {
      // The reference keeps the model packets it was made from: the same text as rendering anew.
      expect(canonicalCompact(referencedPacket(p, ref))).toBe(canonicalCompact(referencedPacket(structuredClone(p), ref)));
    }
    // An edited copy (pruning one more secret and fact, another cast mood) is another packet: never
    // the reference's copy of the original.
    const p = writerScenes.find((x) => x.retrieved_subgraph.secrets.length > 0 && x.constraints.forbidden_facts.length > 0)!;
    const q = structuredClone(p);
    q.retrieved_subgraph.secrets.pop();
    q.constraints.forbidden_facts.shift();
    q.cast[0]!.mood = 'edited';
    const r = referencedPacket(q, ref);
    expect(canonicalCompact(r)).not.toBe(canonicalCompact(referencedPacket(p, ref)));
    expect(sorted(resolveModelPacket(r, ref))).toEqual(sorted(packetForModel(q)));
    // A writer request for the copy sends the copy.
    const req = buildWriterRequest(q, style, { seed: 's', attempt: 1, mode: 'write', references: { writer: ref, escalation: episodeReference([]) } });
    expect(req.messages[0]!.content).toContain('"mood":"edited"');
  });

  it('reads a shallow copy whose shared item was edited in place as it is now, not by the text kept for the original', () => {
    const writerScenes = structuredClone(packets.filter((p) => !p.marquee));
    const ref = episodeReference(writerScenes);
    const p = writerScenes.find((x) => x.retrieved_subgraph.secrets.some((s) => Object.values(ref.secrets).some((e) => canonicalCompact(e) === canonicalCompact(s))))!;
    expect(p).toBeDefined();
    // The copy shares p's secret objects; one is edited in place (the copy's owner breaks the rule for p, not for the copy).
    const q: ScenePacket = { ...p, retrieved_subgraph: { ...p.retrieved_subgraph } };
    const shared = q.retrieved_subgraph.secrets.find((s) => Object.values(ref.secrets).some((e) => canonicalCompact(e) === canonicalCompact(s)))!;
    shared.text = 'An edited secret.';
    expect(sorted(resolveModelPacket(referencedPacket(q, ref), ref))).toEqual(sorted(packetForModel(q)));
  });

  it('an episode of one scene has nothing to share', () => {
    const ref = episodeReference(packets.slice(0, 1));
    expect(referenceIsEmpty(ref)).toBe(true);
  });
});
