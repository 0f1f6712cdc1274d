import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultConfig } from '../../src/config/defaults.js';
import type { AureusConfig } from '../../src/config/types.js';
import type { LlmRequest } from '../../src/ports/llm.js';

export const FAKE_KEY = 'sk-ant-test-9f8e7d6c5b4a-NEVER-ON-DISK';

export async function tempRoot(prefix = 'aureus-llm-'): Promise<string> {
  return fs.promises.mkdtemp(path.join(os.tmpdir(), prefix));
}

/** Test config: fast timeouts, few retries, explicit provider. */
export function testConfig(patch: (c: AureusConfig) => void = () => {}): AureusConfig {
  const c = defaultConfig();
  c.budgets.retries = 3;
  c.timeouts_ms = { director: 5000, proposals: 5000, writer: 5000, critic: 5000, recap: 5000, format_fix: 5000 };
  patch(c);
  return c;
}

/** testConfig on the Anthropic provider with the response cache off: every call reaches the fake server. */
export function anthropicConfig(patch: (c: AureusConfig) => void = () => {}): AureusConfig {
  return testConfig((c) => {
    c.provider = 'anthropic';
    c.cache.mode = 'off';
    patch(c);
  });
}

export const criticSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['verdict', 'violations'],
  properties: {
    verdict: { enum: ['PASS', 'FAIL'] },
    violations: { type: 'array', items: { type: 'object', required: ['type', 'message'], properties: { type: { type: 'string' }, message: { type: 'string' } } } },
  },
};

export function criticRequest(extra: Partial<LlmRequest> = {}): LlmRequest {
  return {
    role: 'critic',
    system: 'You are the critic. Output JSON only.',
    static_context: 'STYLE GUIDE: Court scenes use one rhetorical device. LEXICON: no "okay".',
    messages: [{ role: 'user', content: 'SCENE_TEXT: Cicero rises. CICERO: How long, Catilina?' }],
    json_schema: criticSchema,
    schema_name: 'critic_verdict',
    max_tokens: 800,
    meta: { episode: 's01e01', scene: 'SC03', attempt: 0 },
    ...extra,
  };
}

export function writerRequest(extra: Partial<LlmRequest> = {}): LlmRequest {
  return {
    role: 'writer',
    system: 'You are the Writer.',
    static_context: 'STYLE GUIDE: Street scenes use short sentences.',
    messages: [{ role: 'user', content: 'SCENE_PACKET: {"scene":"SC04"}' }],
    max_tokens: 4000,
    meta: { episode: 's01e01', scene: 'SC04', attempt: 0 },
    ...extra,
  };
}

/** Every file under dir whose bytes contain needle (relative paths). */
export function filesContaining(dir: string, needle: string): string[] {
  const hits: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && fs.readFileSync(p).includes(needle)) hits.push(path.relative(dir, p));
    }
  };
  walk(dir);
  return hits;
}

export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    if (!fs.existsSync(d)) return;
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(path.relative(dir, p));
    }
  };
  walk(dir);
  return out.sort();
}
