/**
 * What reaches a reader's terminal from data Aureus does not control (world files, model and
 * server answers) is made safe at the one place messages are formatted:
 * - control characters are shown escaped (`\x1b`, `\u202e`), so a hostile id or name cannot
 *   drive the terminal (colours, cursor moves, title changes, bidi reordering);
 * - secrets are redacted, so a server that echoes the API key in its error message never gets it
 *   printed (issue 12). This covers every provider: it works on the text, not on the provider.
 */

// C0 controls except tab and newline, DEL, C1 controls, and the Unicode bidi overrides/isolates.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function escapeControl(text: string): string {
  return text.replace(CONTROL, (ch) => {
    const code = ch.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** Anthropic-style keys anywhere in a text, even one we were not told about (a key from a config file). */
const KEY_PATTERN = /sk-ant-[A-Za-z0-9_-]{8,}/g;
export const REDACTED = '[REDACTED]';

/** The secrets of an environment worth redacting: the provider API keys that are set. */
export function secretsOf(env: NodeJS.ProcessEnv): string[] {
  return Object.entries(env)
    .filter(([k, v]) => /(^|_)(API_KEY|AUTH_TOKEN|SECRET)$/.test(k) && typeof v === 'string' && v.length >= 8)
    .map(([, v]) => v as string);
}

export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 8) out = out.split(s).join(REDACTED);
  return out.replace(KEY_PATTERN, REDACTED);
}
