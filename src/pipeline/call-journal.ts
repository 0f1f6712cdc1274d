import fs from 'node:fs';
import path from 'node:path';
import { writeDurable, writeVisible } from '../store/durable.js';
import { hashValue } from '../core/hash.js';
import { stableStringify } from '../core/json.js';
import { isBadModelAnswer, type AttemptJournal, type Llm, type LlmRequest, type LlmResponse } from '../ports/llm.js';
import { LlmRefusalError } from '../providers/errors.js';
import type { AureusConfig } from '../config/types.js';
import { diag, type Diagnostic } from '../diagnostics/index.js';
import { runRelative } from './checkpoint.js';
import { readStateFile } from './state-file.js';

/**
 * Resume without repeating LLM calls: every finished call's response is written to
 * <run>/calls/<key>.json (atomically) before the stage sees it; a resumed run answers the same
 * call from there instead of the provider. The key hashes everything that defines the call
 * (role, prompts, schema, limits, escalation, labels, payload) and nothing that depends on timing,
 * so the same call of a resumed run finds the same file whatever order calls finish in.
 * Replayed answers are identical to the originals, so a resumed run decides exactly as the
 * uninterrupted run did. Replayed calls are not logged again: their run-log lines are already in
 * the run's run_log.jsonl (`beforeRecord` flushes the log before a call is journaled).
 *
 * A call is often more than one paid answer (a JSON re-ask, a refusal's second ask, a cut answer
 * asked again with more room), and it can be cut short between them: Ctrl-C during the re-ask, or a
 * fatal error of another call (the call budget, an outage) cancelling it. Each answer is therefore
 * also kept on its own, at <run>/calls/<key>-<attempt>.json, the moment it arrives (CallAttempts,
 * through LlmRequest.attempts), so the resumed run's same call is answered from the answers it paid
 * for and asks only what it had not. So is a call that failed on its own answers (JSON still
 * invalid, refused twice): a stage that fell back from it decides the same way on resume. When the
 * run itself ends on such a failure, those answers are forgotten (`forgetFailedAnswers`): a run
 * that failed on a bad answer resumes with fresh ones once the model behaves, as the record/replay
 * cache does (providers/cache.ts). Not only the call the run ended on: its siblings in flight
 * (another scene's writer) land after it, and a refusal or bad answer of theirs would otherwise be
 * replayed by the resumed run, which then fails again without asking the model. So the run's end
 * first stops every attempt not yet asked, lets the ones in flight land (paid for: a good answer is
 * journaled whole and kept), then forgets. A call's attempt files go once its whole answer is journaled.
 */
export class JournaledLlm implements Llm {
  readonly deterministic: boolean;
  readonly providerId: string;
  readonly dir: string;
  replayed = 0;
  fresh = 0;
  /** Calls sent to the provider and not answered yet (progress: "n in flight"). */
  active = 0;
  /** The calls that failed on their own answers in this process (see forgetFailedAnswers). */
  private readonly failedOnAnswers: CallAttempts[] = [];
  /** Every call not settled yet, journal hits included (see settled). */
  private readonly pending = new Set<Promise<LlmResponse>>();
  /** The bad answer or refusal the run ended on, once forgetFailedAnswers has it: nothing more is asked. */
  private ended: { error: unknown } | undefined;

  constructor(
    private readonly inner: Llm,
    runDir: string,
    private readonly beforeRecord: () => Promise<void> = async () => {},
    /** Called when a call goes to the provider (progress: writing / verifying). */
    private readonly onCall: (req: LlmRequest) => void = () => {},
    /** What answers the calls (provider, model routing, chaos): a change of it is a change of call. */
    private readonly salt: unknown = null,
    /** Told of a damaged entry (AUR6097), ignored and asked again: the run's warnings. */
    private readonly onIgnored: (warning: Diagnostic) => void = () => {},
  ) {
    this.deterministic = inner.deterministic;
    this.providerId = inner.providerId;
    this.dir = path.join(runDir, 'calls');
  }

  static keyOf(req: LlmRequest, salt: unknown = null): string {
    const { signal: _signal, attempts: _attempts, ...rest } = req;
    return hashValue({ salt, req: rest }).slice(0, 32);
  }

  async complete(request: LlmRequest): Promise<LlmResponse> {
    const call = this.answer(request);
    this.pending.add(call);
    try {
      return await call;
    } finally {
      this.pending.delete(call);
    }
  }

  /**
   * Every call made so far has settled (answered, failed or cancelled). A stage that fails on its
   * first rejected call leaves its sibling calls running; once cancelled they still write (the
   * router logs each into the run log): an interrupted plan removes its folder only after them, or
   * the removal races their writes (ENOTEMPTY) and they make the folder again.
   */
  async settled(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }

  private async answer(request: LlmRequest): Promise<LlmResponse> {
    const key = JournaledLlm.keyOf(request, this.salt);
    const file = path.join(this.dir, `${key}.json`);
    const cached = this.journaled(file);
    if (cached) {
      this.replayed += 1;
      return cached;
    }
    // The run has ended on an answer: a call its stages still make (a scene whose writer landed
    // goes on to its critic) is not asked; it fails as the run did.
    if (this.ended) throw this.ended.error;
    const attempts = new CallAttempts(this.dir, key, (f) => this.journaled(f), () => this.ended);
    this.active += 1;
    this.onCall(request);
    let res: LlmResponse;
    try {
      res = await this.inner.complete({ ...request, attempts });
    } catch (e) {
      // Stopped by the run's end (CallAttempts.replay threw it): forgotten with the call it ended on.
      if (failedOnItsAnswer(e) || this.stoppedBy(e)) this.failedOnAnswers.push(attempts);
      throw e;
    } finally {
      this.active -= 1;
    }
    await this.beforeRecord();
    // Offline (deterministic, free) without fsync (issue 18; a small file written in ~0.1 ms): the
    // entry is a cache of an answer, not a fact the commit relies on, and losing it costs nothing.
    // Temp + rename keeps it whole for any later reader; a SIGKILL leaves it in the page cache.
    // A real provider's entry is a paid answer: fsynced too (a few ms against seconds of the call),
    // so a power cut does not make the resumed run pay for it again.
    (this.deterministic ? writeVisible : writeDurable)(file, stableStringify(res));
    attempts.drop();
    this.fresh += 1;
    return res;
  }

  private stoppedBy(e: unknown): boolean {
    return this.ended !== undefined && e === this.ended.error;
  }

  /**
   * The answer journaled in `file`, or undefined: not journaled yet, or damaged (not JSON, or not of
   * an answer's shape: schemas/run-files.ts), which is ignored with a warning (AUR6097) and asked
   * again. An entry this user may not read is AUR1053 (state-file.ts): asking again would pay twice.
   */
  private journaled(file: string): LlmResponse | undefined {
    const rel = path.posix.join('calls', path.basename(file));
    const r = readStateFile<LlmResponse>(file, rel, 'run/call_answer');
    if (r.ok) return r.value;
    if (!r.missing) this.onIgnored(diag('AUR6097', { file: runRelative(file), detail: r.detail }, { file: runRelative(file) }));
    return undefined;
  }

  /**
   * The run ends on `e`. When it is a model's bad answer or refusal, the answers of every call that
   * failed on its own answers are forgotten, so the resumed run asks those calls again instead of
   * replaying the failure. Any other end (Ctrl-C, an outage, the call budget) keeps them: the
   * resumed run decides as the uninterrupted run would have.
   *
   * The run's other calls are still going when it ends (a stage fails on its first rejected call):
   * no attempt of theirs is asked from now on (each fails with `e`, and so is forgotten too), those
   * in flight land, and only once every call has settled are the failures forgotten. Forgotten at
   * once, a sibling refused after it kept its refusals, and the next run replayed them (AUR4212
   * again, no request sent).
   */
  async forgetFailedAnswers(e: unknown): Promise<void> {
    if (!endsOnAnAnswer(e)) return;
    this.ended ??= { error: e };
    await this.settled();
    for (const a of this.failedOnAnswers.splice(0)) a.drop();
  }
}

/**
 * What answers a run's calls besides the calls themselves (the provider, the model routing, chaos):
 * a change of it is a change of call. One salt for every command that journals into a run folder
 * (`episode run`, `episode plan`, `scene rewrite`), so each answers the others' calls.
 */
export function journalSalt(providerId: string, config: Pick<AureusConfig, 'models' | 'chaos'>): unknown {
  return { provider: providerId, models: config.models, chaos: config.chaos };
}

/** Failed on its own answers (JSON still invalid or cut twice, refused twice), not cut short. */
function failedOnItsAnswer(e: unknown): boolean {
  return isBadModelAnswer(e) || e instanceof LlmRefusalError;
}

/** `e` or an error it carries (cause, AggregateError) is a call that failed on its own answers. */
function endsOnAnAnswer(e: unknown, depth = 0): boolean {
  if (typeof e !== 'object' || e === null || depth > 8) return false;
  if (failedOnItsAnswer(e)) return true;
  const inner = [(e as { cause?: unknown }).cause, ...(e instanceof AggregateError ? e.errors : [])];
  return inner.some((x) => endsOnAnAnswer(x, depth + 1));
}

/**
 * One call's paid answers, attempt by attempt: <run>/calls/<call key>-<attempt key>.json, the
 * attempt key hashing the attempt's number within the call, its model, conversation and token limit
 * (a refusal's second ask is the same request as the first: only its number tells them apart).
 * Written durably (temp, fsync, rename): each is an answer the run paid for.
 */
class CallAttempts implements AttemptJournal {
  private readonly files = new Set<string>();

  constructor(
    private readonly dir: string,
    private readonly key: string,
    /** JournaledLlm's reading of an entry (a damaged one warned of and asked again). */
    private readonly read: (file: string) => LlmResponse | undefined,
    /** The error the run ended on, if it has: an attempt not journaled is then not asked. */
    private readonly ended: () => { error: unknown } | undefined = () => undefined,
  ) {}

  private fileOf(model: string, req: LlmRequest, attempt: number): string {
    const id = hashValue({ attempt, model, messages: req.messages, max_tokens: req.max_tokens ?? null }).slice(0, 16);
    return path.join(this.dir, `${this.key}-${id}.json`);
  }

  /**
   * Throws once the run has ended on a bad answer or refusal: the router asks for the journaled
   * answer right before it would send the attempt, so a call waiting for a slot, or about to re-ask
   * or ask a refusal again, sends nothing and fails as the run did (then forgotten with it).
   */
  replay(model: string, req: LlmRequest, attempt: number): LlmResponse | undefined {
    const file = this.fileOf(model, req, attempt);
    const res = this.read(file); // not journaled, or torn by a power cut: asked again
    if (res) this.files.add(file);
    const ended = this.ended();
    if (!res && ended) throw ended.error;
    return res;
  }

  record(model: string, req: LlmRequest, attempt: number, answer: LlmResponse): void {
    const file = this.fileOf(model, req, attempt);
    writeDurable(file, stableStringify(answer));
    this.files.add(file);
  }

  /** The call's whole answer is journaled, or its failure is to be asked again: its attempts go. */
  drop(): void {
    for (const f of this.files) fs.rmSync(f, { force: true });
    this.files.clear();
  }
}

/** An attempt file, `<call key>-<attempt key>.json`: counted unless its call's whole answer is journaled. */
const ATTEMPT_FILE = /^([0-9a-f]{32})-[0-9a-f]{16}\.json$/;

/**
 * What the journaled calls of a run already cost: a resumed run counts it against `--max-cost`, so
 * a cap means the same on a run killed and resumed as on one that ran through (unreadable entries
 * count nothing; they will be asked again and counted then). Only what was paid counts: an answer
 * served from the record/replay cache cost nothing (its `cost_usd` is the recorded call's price), so
 * each entry counts its `charged_usd`, or, journaled before the router said it, nothing when cached.
 * The answers of a call cut short count too; a whole call's entry already counts its attempts.
 */
export function journalSpend(runDir: string): number {
  const dir = path.join(runDir, 'calls');
  let usd = 0;
  let names: string[] = [];
  try {
    names = fs.readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch {
    return 0;
  }
  const whole = new Set(names);
  for (const n of names) {
    const call = ATTEMPT_FILE.exec(n)?.[1];
    if (call !== undefined && whole.has(`${call}.json`)) continue;
    try {
      const r = JSON.parse(fs.readFileSync(path.join(dir, n), 'utf8')) as Partial<LlmResponse>;
      const paid = typeof r.charged_usd === 'number' ? r.charged_usd : r.cached === true ? 0 : r.cost_usd;
      if (typeof paid === 'number' && Number.isFinite(paid)) usd += paid;
    } catch {
      /* unreadable: asked again later */
    }
  }
  return usd;
}
