import fs from 'node:fs';
import path from 'node:path';
import { writeVisible } from '../store/durable.js';
import { hashValue } from '../core/hash.js';
import { stableStringify } from '../core/json.js';
import type { Llm, LlmRequest, LlmResponse } from '../ports/llm.js';

/**
 * Resume without repeating LLM calls: every finished call's response is written to
 * <run>/calls/<key>.json (atomically) before the stage sees it; a resumed run answers the same
 * call from there instead of the provider. The key hashes everything that defines the call
 * (role, prompts, schema, limits, escalation, labels, payload) and nothing that depends on timing,
 * so the same call of a resumed run finds the same file whatever order calls finish in.
 * Replayed answers are identical to the originals, so a resumed run decides exactly as the
 * uninterrupted run did. Replayed calls are not logged again: their run-log lines are already in
 * the run's run_log.jsonl (`beforeRecord` flushes the log before a call is journaled).
 */
export class JournaledLlm implements Llm {
  readonly deterministic: boolean;
  readonly providerId: string;
  readonly dir: string;
  replayed = 0;
  fresh = 0;
  /** Calls sent to the provider and not answered yet (progress: "n in flight"). */
  active = 0;

  constructor(
    private readonly inner: Llm,
    runDir: string,
    private readonly beforeRecord: () => Promise<void> = async () => {},
    /** Called when a call goes to the provider (progress: writing / verifying). */
    private readonly onCall: (req: LlmRequest) => void = () => {},
    /** What answers the calls (provider, model routing, chaos): a change of it is a change of call. */
    private readonly salt: unknown = null,
  ) {
    this.deterministic = inner.deterministic;
    this.providerId = inner.providerId;
    this.dir = path.join(runDir, 'calls');
  }

  static keyOf(req: LlmRequest, salt: unknown = null): string {
    const { signal: _signal, ...rest } = req;
    return hashValue({ salt, req: rest }).slice(0, 32);
  }

  async complete(request: LlmRequest): Promise<LlmResponse> {
    const file = path.join(this.dir, `${JournaledLlm.keyOf(request, this.salt)}.json`);
    try {
      const cached = JSON.parse(fs.readFileSync(file, 'utf8')) as LlmResponse;
      this.replayed += 1;
      return cached;
    } catch {
      /* not journaled yet */
    }
    this.active += 1;
    this.onCall(request);
    let res: LlmResponse;
    try {
      res = await this.inner.complete(request);
    } finally {
      this.active -= 1;
    }
    await this.beforeRecord();
    // Without fsync (issue 18; a small file written in ~0.1 ms): the entry is a cache of an answer, not a fact the
    // commit relies on. Temp + rename keeps it whole for any later reader; a SIGKILL leaves it in the
    // page cache, so a resumed run finds it. A power cut can lose or empty it: `complete` then fails
    // to parse it and asks the provider again, which costs a call and never changes a committed file
    // (the run's checkpoints, not the call journal, carry the decisions already taken).
    writeVisible(file, stableStringify(res));
    this.fresh += 1;
    return res;
  }
}

/**
 * What the journaled calls of a run already cost: a resumed run counts it against `--max-cost`, so
 * a cap means the same on a run killed and resumed as on one that ran through (unreadable entries
 * count nothing; they will be asked again and counted then). Only what was paid counts: an answer
 * served from the record/replay cache cost nothing (its `cost_usd` is the recorded call's price), so
 * each entry counts its `charged_usd`, or, journaled before the router said it, nothing when cached.
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
  for (const n of names) {
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
