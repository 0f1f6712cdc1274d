import { AureusError, ExitCode } from '../errors.js';
import { diag } from '../diagnostics/index.js';

/**
 * Provider ids, as written in aureus.config.yaml `provider:` or `--provider`:
 *   auto | offline | anthropic | anthropic:<model> | replay:<dir>
 * An unknown or malformed id is a usage error (exit 2) listing these forms.
 */
export type ProviderSpec =
  | { kind: 'auto' }
  | { kind: 'offline' }
  | { kind: 'anthropic'; model?: string }
  | { kind: 'replay'; dir: string };

export const PROVIDER_FORMS = 'auto | offline | anthropic | anthropic:<model> | replay:<dir>';
export const MODEL_ID_RE = /^[A-Za-z0-9][A-Za-z0-9._:@/-]{0,127}$/;

export function parseProviderId(id: string): ProviderSpec {
  const s = id.trim();
  if (s === 'auto') return { kind: 'auto' };
  if (s === 'offline') return { kind: 'offline' };
  if (s === 'anthropic') return { kind: 'anthropic' };
  if (s.startsWith('anthropic:')) {
    const model = s.slice('anthropic:'.length);
    if (MODEL_ID_RE.test(model)) return { kind: 'anthropic', model };
  }
  if (s.startsWith('replay:')) {
    const dir = s.slice('replay:'.length);
    if (dir.length > 0 && !dir.includes('\0')) return { kind: 'replay', dir };
  }
  throw new AureusError(`unknown provider "${id}" (valid forms: ${PROVIDER_FORMS})`, {
    exitCode: ExitCode.USAGE,
    diagnostics: [diag('AUR4001', { id })],
  });
}

/** `auto` resolves by the environment: anthropic when ANTHROPIC_API_KEY is set, offline otherwise. */
export function resolveProviderSpec(id: string, env: NodeJS.ProcessEnv): Exclude<ProviderSpec, { kind: 'auto' }> {
  const spec = parseProviderId(id);
  if (spec.kind !== 'auto') return spec;
  return env.ANTHROPIC_API_KEY ? { kind: 'anthropic' } : { kind: 'offline' };
}
