import { Rng } from '../../src/core/rng.js';
import type { LlmRequest } from '../../src/ports/llm.js';
import { realize as writeScene } from '../../src/providers/offline/writer.js';
import { realize as critique } from '../../src/providers/offline/critic.js';
import { realize as propose } from '../../src/providers/offline/proposals.js';
import { resolveModelPacket, type EpisodeReference, type ReferencedModelPacket } from '../../src/stages/d-packets/reference.js';
import { readSchema } from '../../src/schemas/files.js';
import { steps, type FakeRequest, type FakeStep } from '../support/fake-anthropic-server.js';
import { fillFromSchema } from './schema-fill.js';

/**
 * A "model" behind the fake Messages API server for whole-episode reliability runs: it reads the
 * prompt that reached the wire (the scene packet, the critic's inputs, a principal's candidate
 * moves) and answers the way the offline realizer would, so a fault-free episode can pass. The
 * Director gets prose instead of JSON, like a model that will not follow the format: the
 * pipeline must fall back to its symbolic plan. Faults are injected at a seeded rate.
 */
const textOf = (c: string | Array<{ type: string; text?: string }>): string => (typeof c === 'string' ? c : c.map((b) => b.text ?? '').join(''));

function sync<T>(v: T | Promise<T>): T {
  if (v instanceof Promise) throw new Error('offline realizer is async; the fake server needs a synchronous answer');
  return v;
}
const ctx = { rng: new Rng('fake-model'), chaos: 0, seed: 'fake-model' };
const PACKET_SCHEMA = readSchema('scene_packet.schema.json');
const asText = (a: { text: string; json?: unknown }) => (a.text !== '' || a.json === undefined ? a.text : JSON.stringify(a.json));

export function modelAnswer(req: FakeRequest): string {
  const body = req.body!;
  const last = textOf(body.messages[body.messages.length - 1].content);
  const first = textOf(body.messages[0].content);
  const call = (role: LlmRequest['role'], payload: unknown): LlmRequest => ({ role, system: '', messages: [], max_tokens: 1, payload });
  if (first.startsWith('SCENE_TEXT:\n')) {
    const [, rest1] = first.split(/^SCENE_TEXT:\n/);
    const [sceneText, rest2] = rest1.split('\n\nSCENE:\n');
    const [viewJson, rest3] = rest2.split('\n\nCLAIMS:\n');
    const [claims, events] = rest3.split('\n\nSCENE_EVENTS:\n');
    // The critic reads a view of the packet (f-verifier/critic.ts criticView): rebuild the fields the realizer reads.
    const v = JSON.parse(viewJson) as { scene_id: string; setting: object; cast: unknown[]; director_instructions: unknown; required_deltas: unknown[]; hook_requirement: string };
    const packet = { scene_id: v.scene_id, setting: v.setting, cast: v.cast, director_instructions: v.director_instructions, constraints: { required_deltas: v.required_deltas, hook_requirement: v.hook_requirement } };
    return structured(body, asText(sync(critique(call('critic', { task: 'critique_scene', packet, scene_text: sceneText, claims: JSON.parse(claims), events: JSON.parse(events) }), ctx))));
  }
  const at = first.lastIndexOf('SCENE_PACKET:\n');
  if (at >= 0) {
    const packet = packetFromWire(JSON.parse(first.slice(at + 'SCENE_PACKET:\n'.length)), textOf(body.system ?? ''));
    const payload = { task: 'write_scene', seed: 'fake-model', packet, attempt: req.index + 1, mode: 'write', prohibitions: [], prohibited_codes: [], restate_deltas: false, strict_json: false, lexicon: [], ...punchUpOf(first) };
    return asText(sync(writeScene(call('writer', payload), ctx)));
  }
  try {
    const v = JSON.parse(first) as { character?: unknown; candidate_moves?: unknown };
    if (v && v.candidate_moves) return structured(body, asText(sync(propose(call('proposals', { character: v.character, moves: v.candidate_moves }), ctx))));
  } catch {
    /* not a proposals prompt */
  }
  // The Director answers a small JSON edit (c-director/edit.ts); here, like a model that will not
  // follow the format, it answers prose and the pipeline falls back to its symbolic plan.
  if (/recap|Previously on/i.test(JSON.stringify(body.system ?? '')) || /Previously/.test(last)) return 'Previously on the Republic: the Senate met, money moved, and a secret came closer to the light.';
  return 'I would rather describe the plan in prose: first the grain, then the courts, then the election.';
}

/**
 * A punch-up prompt (e-writer/prompt.ts) as a model follows it: the opening it must keep, and the
 * claims and events it keeps, handed to the realizer's own punch-up.
 */
function punchUpOf(prompt: string): Record<string, unknown> {
  const m = /\nOPENING \(keep\):\n([\s\S]*?)\n\nCLAIMS \(keep\):\n(.*)\n\nSCENE_EVENTS \(keep\):\n(.*)/.exec(prompt);
  return m ? { mode: 'punch_up', keep_text: m[1], keep_claims_json: m[2], keep_events_json: m[3] } : {};
}

/**
 * The scene packet as a model reads it off the wire: the packet in the user turn, completed from
 * the EPISODE_REFERENCE in the cached system prompt, with what the wire leaves out when empty (the
 * lists, the nulls) given back from the packet's schema (the offline realizer reads a whole packet).
 * The required deltas are read back from their lines; `marquee` is bookkeeping the wire strips.
 */
export function packetFromWire(wire: ReferencedModelPacket, system: string): Record<string, unknown> {
  const m = /EPISODE_REFERENCE:\n(.*)\n/.exec(system);
  const resolved = m ? resolveModelPacket(wire, JSON.parse(m[1]!) as EpisodeReference) : wire;
  const c = resolved.constraints as { required_deltas?: unknown[] };
  // The writer reads each required delta as a line (e-writer/deltas.ts); a model writes it back as an object.
  const constraints = { ...c, required_deltas: (c.required_deltas ?? []).map((d) => (typeof d === 'string' ? deltaFromLine(d) : d)) };
  return fillFromSchema({ marquee: false, ...resolved, constraints }, PACKET_SCHEMA) as Record<string, unknown>;
}

/**
 * A structured-output answer as the API returns it: whole by the schema the request sent in
 * `output_config.format` (its required lists are there even when empty). Text without a schema,
 * or that is not JSON (a model that will not follow the format), is returned as it is.
 */
function structured(body: FakeRequest['body'], text: string): string {
  const schema = (body?.output_config as { format?: { schema?: Record<string, unknown> } } | undefined)?.format?.schema;
  if (!schema) return text;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return text;
  }
  const filled = JSON.stringify(fillFromSchema(v, schema));
  return filled === JSON.stringify(v) ? text : filled;
}

/** "a02: relationships.cato.varo.trust add 0.1 (meaning)" or "a05: assets.cash_ledger transfer 3000 from a to b (meaning)" as a delta. */
export function deltaFromLine(line: string): Record<string, unknown> {
  const t = /^(\w+): (\S+) transfer (\S+) from (\S+) to (\S+?)(?: \(.*\))?$/.exec(line);
  if (t) return { application_id: t[1], path: t[2], op: 'transfer', amount: Number(t[3]), from: t[4], to: t[5] };
  const m = /^(\w+): (\S+) (\w+) (\S+)(?: \(.*\))?$/.exec(line);
  if (!m) throw new Error(`fake model: cannot read the delta line "${line}"`);
  const raw = m[4]!;
  const value = /^-?\d/.test(raw) ? Number(raw) : raw === 'true' ? true : raw === 'false' ? false : raw;
  return { application_id: m[1], path: m[2], op: m[3], value };
}

/** A handler: the right answer, or with probability `rate` one of the faults the issue lists. */
export function faultyHandler(seed: string, rate: number): { handler: (req: FakeRequest) => FakeStep; faults: Record<string, number> } {
  const rng = new Rng(seed);
  const faults: Record<string, number> = {};
  const kinds = ['rateLimited', 'overloaded', 'serverError', 'reset', 'truncated', 'streamError', 'maxTokens', 'malformed'] as const;
  const handler = (req: FakeRequest): FakeStep => {
    const r = rng.fork(`req/${req.index}`);
    const text = modelAnswer(req);
    if (r.next() >= rate) return steps.ok(text);
    const kind = r.pick(kinds);
    faults[kind] = (faults[kind] ?? 0) + 1;
    const cut = text.slice(0, Math.floor(text.length * r.next()));
    switch (kind) {
      case 'rateLimited': return steps.rateLimited(0.001);
      case 'overloaded': return steps.overloaded(1);
      case 'serverError': return steps.serverError(1);
      case 'reset': return steps.reset();
      case 'truncated': return steps.truncated(cut, r.next() < 0.5 ? 'destroy' : 'end');
      case 'streamError': return steps.streamError(cut);
      case 'maxTokens': return steps.maxTokens(cut);
      default: return steps.malformedJson();
    }
  };
  return { handler, faults };
}
