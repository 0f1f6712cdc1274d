import { AureusError, ExitCode } from '../errors.js';
import { diag } from '../diagnostics/index.js';
import { formatFixed, READER_DECIMALS } from '../core/readable.js';
import { isBadModelAnswer, type LlmRole } from '../ports/llm.js';

/**
 * Typed failures of the LLM layer. All are AureusErrors (the CLI prints them without a stack);
 * the subclasses let stages react: e.g. the planning stages catch LlmOutputError and fall back to
 * the symbolic answer. Exit codes: 7 (provider) for everything but an abort, which is 130.
 */

/** A JSON answer still invalid after repair and the configured re-asks. */
export class LlmOutputError extends AureusError {
  /** The port's marker (isBadModelAnswer): a stage may fall back to its symbolic answer. */
  readonly badModelAnswer = true;
  readonly role: LlmRole;
  readonly schemaName: string;
  readonly problems: string[];
  readonly lastText: string;
  constructor(role: LlmRole, schemaName: string, problems: string[], attempts: number, lastText: string) {
    const shown = problems.slice(0, 5).join('; ');
    super(`the ${role} answer is not valid ${schemaName} after ${attempts} attempt(s): ${shown}`, {
      exitCode: ExitCode.PROVIDER,
      diagnostics: [diag('AUR4201', { role, schema: schemaName, attempts, problems: shown })],
    });
    this.name = 'LlmOutputError';
    this.role = role;
    this.schemaName = schemaName;
    this.problems = problems;
    this.lastText = lastText;
  }
}

/** Replay mode found no recorded answer. Names the request so it can be recorded. */
export class ReplayMissError extends AureusError {
  readonly key: string;
  readonly role: LlmRole;
  constructor(role: LlmRole, key: string, meta: { episode?: string; scene?: string; label?: string } | undefined) {
    const parts = [meta?.episode, meta?.scene, meta?.label].filter(Boolean);
    const where = parts.length ? ` (${parts.join(' ')})` : '';
    super(`replay miss: no recorded answer for the ${role} call${where}, key ${key}`, {
      exitCode: ExitCode.PROVIDER,
      diagnostics: [diag('AUR4301', { role, where, key })],
    });
    this.name = 'ReplayMissError';
    this.key = key;
    this.role = role;
  }
}

/**
 * Replay mode found the call's entry but could not read it (truncated, not JSON, not an entry): a
 * recording damaged after it was made, not a call never recorded, so AUR4302 as an error, not AUR4301.
 */
export class ReplayCorruptError extends AureusError {
  readonly role: LlmRole;
  readonly file: string;
  constructor(role: LlmRole, meta: { episode?: string; scene?: string; label?: string } | undefined, file: string, detail: string) {
    const parts = [meta?.episode, meta?.scene, meta?.label].filter(Boolean);
    const where = parts.length ? ` (${parts.join(' ')})` : '';
    const hint = `it holds the recorded answer to the ${role} call${where}, and a replay serves only recorded answers: restore the file from the recording, or delete it and record the call again with a real provider (cache.mode read-write), then replay`;
    super(`replay: the recorded answer for the ${role} call${where} is corrupt: ${file}: ${detail}`, {
      exitCode: ExitCode.PROVIDER,
      diagnostics: [diag('AUR4302', { file, detail }, { severity: 'error', hint })],
    });
    this.name = 'ReplayCorruptError';
    this.role = role;
    this.file = file;
  }
}

export class CallBudgetError extends AureusError {
  constructor(used: number, limit: number) {
    super(`provider call budget exhausted (${used} of ${limit} requests)`, {
      exitCode: ExitCode.PROVIDER,
      diagnostics: [diag('AUR4202', { used, limit })],
    });
    this.name = 'CallBudgetError';
  }
}

export class LlmAbortedError extends AureusError {
  constructor(role: LlmRole, cause?: unknown) {
    super(`the ${role} call was aborted`, { exitCode: ExitCode.INTERRUPTED, diagnostics: [diag('AUR4205', { role })], cause });
    this.name = 'LlmAbortedError';
  }
}

/** Any other provider failure (HTTP status, network, timeout, truncated stream, missing key). */
export class ProviderError extends AureusError {
  readonly status?: number;
  constructor(message: string, code: string, args: Record<string, unknown>, status?: number, cause?: unknown) {
    super(message, { exitCode: ExitCode.PROVIDER, diagnostics: [diag(code, args)], cause });
    this.name = 'ProviderError';
    this.status = status;
  }
}

/**
 * Whether a stage with a symbolic answer (proposals, director) may fall back to it after this
 * error. Only a bad model answer qualifies. A replay miss must stay loud (a silent fallback would
 * hide a stale recording and change the episode), and aborts, budget exhaustion and provider
 * outages end the run so it can be resumed with the same answers.
 */
export function canFallBackFrom(e: unknown): boolean {
  return (e instanceof LlmOutputError || e instanceof LlmTruncatedError || e instanceof LlmEmptyAnswerError) && isBadModelAnswer(e);
}

/**
 * `--max-cost`: the next call could take the spend past the cap. Exit 5: nothing committed, resumable.
 * `spent` is real spend (CostGuard decides only once no call is in flight), never spend plus reservations.
 */
export class CostCapError extends AureusError {
  constructor(role: LlmRole, spent: number, cap: number, estimate: number) {
    const usd = (n: number) => formatFixed(n, READER_DECIMALS.usd);
    super(`cost cap reached: the next ${role} call (worst case $${usd(estimate)}) could take the spend past $${usd(cap)}: $${usd(spent)} spent, no call in flight`, {
      exitCode: ExitCode.BUDGET_EXHAUSTED,
      diagnostics: [diag('AUR4209', { role, spent: usd(spent), cap: usd(cap), estimate: usd(estimate) })],
    });
    this.name = 'CostCapError';
  }
}

/**
 * An answer cut at max_tokens again after the re-ask with more room: a JSON role's, or the writer's
 * (a scene cut short is not a draft to verify and regenerate: router.ts). A bad answer: stages may
 * fall back. Names the call (episode, scene, label) so the user knows which answer did not fit.
 */
export class LlmTruncatedError extends AureusError {
  readonly badModelAnswer = true;
  constructor(role: LlmRole, maxTokens: number, attempts: number, meta?: CallMeta) {
    const where = whereOf(meta);
    super(`the ${role} answer${where} was cut off at max_tokens (${maxTokens}) ${attempts} time(s)`, {
      exitCode: ExitCode.PROVIDER,
      diagnostics: [diag('AUR4210', { role, where, max_tokens: maxTokens, attempts })],
    });
    this.name = 'LlmTruncatedError';
  }
}

/**
 * An answer that held no text at all (an empty content list, or thinking blocks only): a JSON role's
 * when its re-asks ran out, the writer's when asked once more (router.ts). Not JSON of the wrong shape,
 * so AUR4201's advice (a stronger model, more re-asks for the schema) would mislead. A bad answer, as
 * AUR4201 is: stages may fall back.
 */
export class LlmEmptyAnswerError extends AureusError {
  readonly badModelAnswer = true;
  readonly role: LlmRole;
  constructor(role: LlmRole, meta: CallMeta | undefined, empties: number, attempts: number) {
    const where = whereOf(meta);
    super(`the ${role} answer${where} was empty (no text) in ${empties} of ${attempts} attempt(s)`, {
      exitCode: ExitCode.PROVIDER,
      diagnostics: [diag('AUR4230', { role, where, empties, attempts })],
    });
    this.name = 'LlmEmptyAnswerError';
    this.role = role;
  }
}

type CallMeta = { episode?: string; scene?: string; label?: string };

/** ` (s01e01 SC03)`: the call's episode, scene and label, or nothing. */
function whereOf(meta: CallMeta | undefined): string {
  const parts = [meta?.episode, meta?.scene, meta?.label].filter(Boolean);
  return parts.length ? ` (${parts.join(' ')})` : '';
}

/**
 * The model declined the call (stop_reason `refusal`) again after the one retry the router allows.
 * Not a bad answer a stage may paper over with its symbolic one, and never sent to format_fix as if
 * its form were broken: it ends the run (exit 7, nothing committed, resumable), quoting the model.
 */
export class LlmRefusalError extends AureusError {
  readonly role: LlmRole;
  readonly words: string;
  constructor(role: LlmRole, meta: { episode?: string; scene?: string; label?: string } | undefined, text: string, attempts: number) {
    const parts = [meta?.episode, meta?.scene, meta?.label].filter(Boolean);
    const where = parts.length ? ` (${parts.join(' ')})` : '';
    const words = shortWords(text);
    super(`the model refused the ${role} call${where} ${attempts} time(s): "${words}"`, {
      exitCode: ExitCode.PROVIDER,
      diagnostics: [diag('AUR4212', { role, where, attempts, words })],
    });
    this.name = 'LlmRefusalError';
    this.role = role;
    this.words = words;
  }
}

/** The model's words for a one-line message: control characters out, spaces collapsed, at most 160 characters. */
function shortWords(text: string): string {
  // eslint-disable-next-line no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, ' ').replace(/\s+/g, ' ').trim();
  if (flat === '') return '(no text)';
  return flat.length > 160 ? `${flat.slice(0, 159)}…` : flat;
}
