import type { AureusConfig } from '../config/types.js';
import type { LlmRequest, LlmRole } from '../ports/llm.js';
import { modelInfo } from './models.js';

/**
 * The Messages API request body for one call, built from the request and the config. Only what the
 * model accepts goes on the wire: no temperature/top_p/top_k, no assistant prefill, no thinking
 * settings (5.x models think adaptively and answer 400 to budgets and `disabled`), no forced tool
 * choice. Depth is `output_config.effort`; JSON roles get `output_config.format` with their schema.
 *
 * Prompt cache: one breakpoint after all static content. The system blocks are the role
 * instructions, then the static context (style guide, lexicon, world digest); the breakpoint sits on
 * the last static block, so everything before the per-call message is one cached prefix.
 */

export interface WireTextBlock {
  type: 'text';
  text: string;
  cache_control?: { type: 'ephemeral'; ttl?: '1h' };
}

export interface WireBody {
  model: string;
  max_tokens: number;
  system?: WireTextBlock[];
  messages: Array<{ role: 'user' | 'assistant'; content: string }>;
  output_config?: { effort?: string; format?: { type: 'json_schema'; schema: Record<string, unknown> } };
}

export type SchemaTransform = (schema: Record<string, unknown>) => Record<string, unknown>;

export function wireBody(req: LlmRequest, model: string, config: AureusConfig, transform: SchemaTransform): WireBody {
  const info = modelInfo(model);
  const system: WireTextBlock[] = [];
  if (req.system) system.push({ type: 'text', text: req.system });
  if (req.static_context) system.push({ type: 'text', text: req.static_context });
  if (system.length && (req.static_context || req.cache_system)) {
    system[system.length - 1].cache_control = config.cache.ttl === '1h' ? { type: 'ephemeral', ttl: '1h' } : { type: 'ephemeral' };
  }
  // A conversation must end on a user turn and never carry an empty assistant turn (the API
  // answers 400 to both; an answer ending on an assistant turn is prefill, refused on 5.x models).
  const messages = req.messages.filter((m) => m.content.trim() !== '');
  const body: WireBody = {
    model,
    max_tokens: req.max_tokens ?? config.max_tokens[req.role],
    ...(system.length ? { system } : {}),
    messages: messages.map((m) => ({ role: m.role, content: m.content })),
  };
  const output: NonNullable<WireBody['output_config']> = {};
  const effort = effortFor(config, req.role, model);
  if (effort) output.effort = effort;
  if (req.json_schema && (info?.structured ?? true)) output.format = { type: 'json_schema', schema: transform(stripMeta(req.json_schema)) };
  if (Object.keys(output).length) body.output_config = output;
  return body;
}

/** The `output_config.effort` a call of this role sends on this model (none where the model takes none). */
export function effortFor(config: Pick<AureusConfig, 'effort'>, role: LlmRole, model: string): string | undefined {
  const effort = config.effort[role];
  return effort && (modelInfo(model)?.effort ?? true) ? effort : undefined;
}

/** `$id`/`$schema` name a schema for our validators; the wire wants the shape only. */
function stripMeta(schema: object): Record<string, unknown> {
  const { $id: _id, $schema: _s, ...rest } = schema as Record<string, unknown>;
  return rest;
}

/** Caps a response's retry-after / retry-after-ms at `maxMs` (the SDK honours whatever it is told). */
export function capRetryAfter(res: Response, maxMs: number): Response {
  const ms = retryAfterMs(res.headers);
  if (ms === undefined || ms <= maxMs) return res;
  const headers = new Headers(res.headers);
  headers.delete('retry-after');
  headers.set('retry-after-ms', String(Math.max(0, maxMs)));
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}

function retryAfterMs(h: Headers): number | undefined {
  const ms = h.get('retry-after-ms');
  if (ms !== null && !Number.isNaN(parseFloat(ms))) return parseFloat(ms);
  const s = h.get('retry-after');
  if (s === null) return undefined;
  const n = parseFloat(s);
  if (!Number.isNaN(n)) return n * 1000;
  const date = Date.parse(s);
  return Number.isNaN(date) ? undefined : date - Date.now();
}
