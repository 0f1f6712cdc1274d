import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { diag } from '../diagnostics/index.js';
import '../diagnostics/codes/llm.js';
import type { Llm, LlmRequest } from '../ports/llm.js';
import { LlmRefusalError } from '../providers/errors.js';

/**
 * The recap call of stage H. Its text is committed as prose (recap.md, the commit message), so an
 * answer that is not a recap — refused (AUR4212 after the router's retry), cut at max_tokens, or
 * empty — is never committed. The recap is the one call with a deterministic answer from the same
 * inputs: the offline recap written from the episode's recap events, which is what an offline run
 * commits. That is used instead, with warning AUR4213 naming what happened, rather than failing an
 * episode whose scenes are all written and approved. Any other failure ends the run as before.
 */
export async function recapAnswer(llm: Llm, req: LlmRequest, seed: string): Promise<{ text: string; warnings: Diagnostic[] }> {
  let why: string;
  try {
    const res = await llm.complete(req);
    if (res.stop_reason === 'max_tokens') why = 'it was cut off at max_tokens';
    else if (res.text.trim() === '') why = 'it was empty';
    else return { text: res.text, warnings: [] };
  } catch (e) {
    if (!(e instanceof LlmRefusalError)) throw e;
    why = `the model refused it: "${e.words}"`;
  }
  // Loaded only for this fallback: a run whose recap is usable never needs the offline realizers.
  const { OfflineProvider } = await import('../providers/offline/index.js');
  const offline = await new OfflineProvider({ seed }).complete(req, 'offline');
  return { text: offline.text, warnings: [diag('AUR4213', { why, episode: req.meta?.episode ?? 'the episode' })] };
}
