import type { Diagnostic } from '../diagnostics/index.js';
import { AureusError, isAureusError } from '../errors.js';

/**
 * What to do after a model call failed a session, said for play. The provider's diagnostics are
 * written for `episode run` ("run the same command again", "raise --max-cost … and run the same
 * command again to resume"), but the same `aureus play` command starts a new session: the session
 * that failed is paused with its log whole (the line in flight is answered again on resume), and
 * it is continued with `aureus play --resume <id>`, to which --model, --provider and --max-cost
 * may be added.
 */
export function resumeCommand(session: string): string {
  return `aureus play --resume ${session}`;
}

/** The role a provider diagnostic names ("the writer call", "the director answer"). */
function roleOf(d: Diagnostic): string {
  return /\bthe (\w+) (?:call|answer)\b/.exec(d.message)?.[1] ?? '<role>';
}

/** Hints of their own, where the episode's advice names what play does otherwise. */
const PLAY_HINTS: Record<string, (d: Diagnostic, resume: string) => string> = {
  AUR4201: (d, r) => `the model kept answering with JSON that does not match the schema; the session is paused: continue it with \`${r}\`, with a stronger model (\`${r} --model ${roleOf(d)}=<model-id>\`) or with more budgets.json_reasks`,
  AUR4202: (_d, r) => `a session counts its provider requests across its resumes; raise budgets.provider_calls_per_episode in aureus.config.yaml, then continue it with \`${r}\``,
  AUR4209: (_d, r) => `nothing was committed and the session is paused; a session's spend counts across its resumes: continue it with a higher cap, \`${r} --max-cost <usd>\` (or raise budgets.max_cost_usd)`,
  AUR4212: (d, r) => `the model declined the request (stop_reason "refusal"), so nothing was committed and the session is paused: continue it with \`${r}\` (the model is asked again), with another model (\`${r} --model ${roleOf(d)}=<model-id>\`), or say your line another way once resumed`,
};

/** Every other hint of a resumable failure: the episode's advice, then how the session goes on. */
const EPISODE_RESUME = /[;,]?\s*(?:(?:the run|it) is resumable(?::? run the same command again[^;]*)?|run the same command again[^;]*)\.?$/i;

/** Advice that names what only an episode run has: play makes one call at a time (no --concurrency). */
const EPISODE_ONLY_ADVICE: [RegExp, string][] = [[/\blower --concurrency or raise\b/, 'wait a minute, or raise']];

function hintForPlay(d: Diagnostic, resume: string): string | undefined {
  const own = PLAY_HINTS[d.code];
  if (own) return own(d, resume);
  if (!d.hint || !EPISODE_RESUME.test(d.hint)) return d.hint;
  const advice = EPISODE_ONLY_ADVICE.reduce((h, [from, to]) => h.replace(from, to), d.hint.replace(EPISODE_RESUME, '').trim());
  return `${advice ? `${advice}; ` : ''}the session is paused: continue it with \`${resume}\``;
}

/**
 * A failure that stopped a session not complete, with hints for play. Only the hints change: the
 * message, the codes and the exit code stay the failure's.
 */
export function failureForPlay(e: unknown, session: string): unknown {
  if (!isAureusError(e)) return e;
  const resume = resumeCommand(session);
  const diagnostics = e.diagnostics.map((d) => {
    const hint = hintForPlay(d, resume);
    return hint === d.hint ? d : { ...d, ...(hint ? { hint } : {}) };
  });
  if (diagnostics.every((d, i) => d === e.diagnostics[i])) return e;
  return new AureusError(e.message, { exitCode: e.exitCode, diagnostics, ...(e.hint ? { hint: e.hint } : {}), cause: e });
}
