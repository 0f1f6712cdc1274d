/**
 * What reached the fake Messages API (fake-anthropic-server.ts): the recorded request, its body
 * as the SDK sends it, and the checks made on it (what a 5.x model refuses, which key it carried).
 */
import type http from 'node:http';

export interface FakeRequest {
  index: number;
  method: string;
  path: string;
  /** Lower-cased header names, as received. */
  headers: Record<string, string>;
  body: FakeMessagesBody | undefined;
  raw: string;
}

export interface FakeMessagesBody {
  model: string;
  max_tokens: number;
  stream?: boolean;
  system?: Array<{ type: 'text'; text: string; cache_control?: { type: string } }> | string;
  messages: Array<{ role: string; content: string | Array<{ type: string; text?: string }> }>;
  [k: string]: unknown;
}

/**
 * Why a 5.x model would answer this body with HTTP 400, or null. The rules as of 2026-11:
 * non-default sampling parameters, thinking budgets or `thinking: disabled`, forced tool choice,
 * assistant prefill (a last assistant turn), empty turns, and an unknown effort.
 */
export function rejectionFor5x(body: FakeMessagesBody | undefined): string | null {
  if (!body || !/^claude-[a-z]+-5-\d/.test(body.model)) return null;
  for (const k of ['temperature', 'top_p', 'top_k']) if (body[k] !== undefined) return `${k}: sampling parameters are not supported on ${body.model}`;
  const thinking = body.thinking as { type?: string; budget_tokens?: number } | undefined;
  if (thinking && (thinking.type === 'disabled' || thinking.budget_tokens !== undefined)) return `thinking: only adaptive thinking is supported on ${body.model}`;
  const tc = body.tool_choice as { type?: string } | undefined;
  if (tc && (tc.type === 'tool' || tc.type === 'any')) return `tool_choice: forced tool use is not supported on ${body.model}`;
  const msgs = body.messages ?? [];
  if (msgs.length && msgs[msgs.length - 1].role === 'assistant') return `messages: assistant prefill is not supported on ${body.model}`;
  if (msgs.some((m) => (typeof m.content === 'string' ? m.content.trim() === '' : m.content.length === 0))) return 'messages: all messages must have non-empty content';
  const oc = body.output_config as { effort?: string; format?: { type?: string; schema?: unknown } } | undefined;
  if (oc?.effort !== undefined && !['low', 'medium', 'high', 'xhigh', 'max'].includes(oc.effort)) return `output_config.effort: unknown value ${oc.effort}`;
  if (oc?.format && (oc.format.type !== 'json_schema' || typeof oc.format.schema !== 'object')) return 'output_config.format: expected {type: "json_schema", schema}';
  return null;
}

/** The API key a request carried (`x-api-key`, or `authorization: Bearer …` as newer SDKs send it). */
export function apiKeyOf(req: FakeRequest): string | undefined {
  if (req.headers['x-api-key']) return req.headers['x-api-key'];
  const m = /^Bearer (.+)$/.exec(req.headers['authorization'] ?? '');
  return m?.[1];
}

/** The record of one request: its body parsed when it is JSON (undefined otherwise), headers lower-cased. */
export function recordOf(req: http.IncomingMessage, raw: string, index: number): FakeRequest {
  let body: FakeMessagesBody | undefined;
  try {
    body = raw ? (JSON.parse(raw) as FakeMessagesBody) : undefined;
  } catch {
    body = undefined;
  }
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v ?? '');
  return { index, method: req.method ?? '', path: req.url ?? '', headers, body, raw };
}
