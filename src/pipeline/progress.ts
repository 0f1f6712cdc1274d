import type { Diagnostic } from '../diagnostics/index.js';

/**
 * The progress interface of `episode run`, owned by the pipeline: the pipeline reports what really
 * happens (a stage starts, a stage ends, a scene changes state, a provider call waits) and a
 * renderer in the CLI (src/cli/progress.ts) draws it. Lower floors never import the CLI.
 */
export type StageId = 'A' | 'B' | 'C' | 'D' | 'EFG' | 'H' | 'commit';
/** `running` when the stage starts; one of the others when it ends. */
export type StageState = 'running' | 'done' | 'resumed' | 'failed' | 'skipped';
export type SceneState = 'writing' | 'verifying' | 'repairing' | 'done' | 'failed' | 'resumed';

export const STAGE_TITLES: Record<StageId, string> = {
  A: 'A  snapshot',
  B: 'B  agent proposals',
  C: 'C  director plan',
  D: 'D  scene packets',
  EFG: 'E–G write, verify, repair',
  H: 'H  deltas, recap, cliffhanger',
  commit: '   commit and tag',
};
export const STAGE_ORDER: StageId[] = ['A', 'B', 'C', 'D', 'EFG', 'H', 'commit'];

/** Where E–G stands: scenes by state and provider calls. */
export interface SceneCounts {
  /** Scenes being written, verified or repaired. */
  working: number;
  /** Scenes not started yet. */
  queued: number;
  /** Scenes approved (or resumed from a checkpoint). */
  done: number;
  /** Provider calls sent and not answered yet. */
  calls: number;
  /** Calls waiting for a free provider slot (concurrency limit). */
  waiting: number;
}

export interface ProgressSink {
  stage(id: StageId, state: StageState, detail?: string): void;
  /** The scene ids of E–G, once the plan is known. */
  scenes(ids: string[]): void;
  scene(id: string, state: SceneState, detail?: string): void;
  counts(c: SceneCounts): void;
  /** A wait the user should know about: "429 rate limited, retrying in 8 s". */
  notice(text: string): void;
  info(text: string): void;
  /**
   * Warnings about the world files as the run loaded them (AUR1040: its commit rewrites a file that
   * has CRLF line endings or a byte-order mark), reported once the checks have passed and before
   * any stage runs: the author reads them before the commit they warn about, not after it. The
   * run's warnings (EpisodeRunOptions.warnings) hold them too, for the caller's summary.
   */
  warnings(list: Diagnostic[]): void;
  /** Stop rendering (after success or failure). */
  close(): Promise<void>;
}

export class SilentProgress implements ProgressSink {
  stage(): void {}
  scenes(): void {}
  scene(): void {}
  counts(): void {}
  notice(): void {}
  info(): void {}
  warnings(): void {}
  async close(): Promise<void> {}
}

/** A sink that passes every call on to another: the base of sinks that also note something as calls pass. */
export class ForwardingProgress implements ProgressSink {
  constructor(protected readonly inner: ProgressSink) {}
  stage(id: StageId, state: StageState, detail?: string): void { this.inner.stage(id, state, detail); }
  scenes(ids: string[]): void { this.inner.scenes(ids); }
  scene(id: string, state: SceneState, detail?: string): void { this.inner.scene(id, state, detail); }
  counts(c: SceneCounts): void { this.inner.counts(c); }
  notice(text: string): void { this.inner.notice(text); }
  info(text: string): void { this.inner.info(text); }
  warnings(list: Diagnostic[]): void { this.inner.warnings(list); }
  close(): Promise<void> { return this.inner.close(); }
}

/**
 * Passes every call on and remembers the stage started and not ended yet, so that a run that
 * fails can end it as failed (run-episode.ts): every renderer then shows where the run stopped.
 */
export class StageWatch extends ForwardingProgress {
  private open: StageId | null = null;
  override stage(id: StageId, state: StageState, detail?: string): void {
    this.open = state === 'running' ? id : this.open === id ? null : this.open;
    super.stage(id, state, detail);
  }
  /** End the stage under way, if any, as failed. */
  failOpen(detail?: string): void {
    if (this.open) this.stage(this.open, 'failed', detail);
  }
}

/**
 * Counts scenes by their last reported state, so the renderer's counters agree with the scene
 * lines ("4 working, 16 queued" while 16 show queued). Wraps the sink; calls pass through.
 */
export class SceneTracker {
  private readonly state = new Map<string, SceneState | 'queued'>();
  constructor(
    private readonly sink: ProgressSink,
    private readonly calls: () => { active: number; waiting: number } = () => ({ active: 0, waiting: 0 }),
  ) {}
  scenes(ids: string[]): void {
    for (const id of ids) if (!this.state.has(id)) this.state.set(id, 'queued');
    this.sink.scenes(ids);
    this.emit();
  }
  scene(id: string, state: SceneState, detail?: string): void {
    this.state.set(id, state);
    this.sink.scene(id, state, detail);
    this.emit();
  }
  current(): SceneCounts {
    let working = 0, queued = 0, done = 0;
    for (const s of this.state.values()) {
      if (s === 'queued') queued += 1;
      else if (s === 'done' || s === 'resumed') done += 1;
      else if (s !== 'failed') working += 1;
    }
    const c = this.calls();
    return { working, queued, done, calls: c.active, waiting: c.waiting };
  }
  emit(): void {
    this.sink.counts(this.current());
  }
}

/** "4 working, 16 queued, 2 done · 4 calls in flight, 1 waiting". */
export function describeCounts(c: SceneCounts): string {
  const calls = c.calls || c.waiting ? ` · ${c.calls} call${c.calls === 1 ? '' : 's'} in flight${c.waiting ? `, ${c.waiting} waiting` : ''}` : '';
  return `${c.working} working, ${c.queued} queued, ${c.done} done${calls}`;
}
