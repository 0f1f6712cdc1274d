/**
 * The SDK's per-call deprecation warning, kept out of Aureus's output. `messages.create` of
 * @anthropic-ai/sdk does `console.warn("The model '…' is deprecated and will reach end-of-life on
 * …\nPlease migrate …")` on EVERY call to a model of its DEPRECATED_MODELS (claude-sonnet-4-5): dozens
 * of lines on stderr in an episode, through the live progress and play's terminal. Aureus says the
 * same once, before the first call, as AUR4010 (config/model-checks.ts). The client's `logger` and
 * `logLevel` options do not reach this warn: it is a bare console.warn.
 *
 * The warn happens synchronously inside create, before it returns its promise. So console.warn is
 * swapped for that synchronous stretch only, in which no other code can run, and restored in
 * finally; any other warning passes through unchanged.
 */
const SDK_DEPRECATION = /^The model '[^']*' is deprecated and will reach end-of-life/;

export function withoutSdkDeprecationWarning<T>(create: () => T): T {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && SDK_DEPRECATION.test(args[0])) return;
    warn.apply(console, args);
  };
  try {
    return create();
  } finally {
    console.warn = warn;
  }
}
