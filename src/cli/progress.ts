import type { Io } from './io.js';
import type { ChalkInstance } from 'chalk';
import type { Diagnostic } from '../diagnostics/index.js';
import { describeCounts, ForwardingProgress, SilentProgress, STAGE_ORDER, STAGE_TITLES, type ProgressSink, type SceneCounts, type SceneState, type StageId, type StageState } from '../pipeline/progress.js';

/**
 * Progress of `episode run`: the stages A–H, and inside E–G a live status per scene (writing,
 * verifying, repairing, done) with the calls in flight. The interface is the pipeline's
 * (src/pipeline/progress.ts); these are its renderers:
 *   - listr2 on a TTY (to stderr, so stdout stays clean for the summary);
 *   - plain lines on stderr without a TTY (CI logs, tests);
 *   - silent with --json (stdout carries only the final JSON summary).
 */
export { STAGE_ORDER, STAGE_TITLES, SilentProgress, type ProgressSink, type SceneCounts, type SceneState, type StageId, type StageState } from '../pipeline/progress.js';

/**
 * A run's warnings as the terminal gets them: those the pipeline reports as the run starts (the
 * world files as loaded, ProgressSink.warnings) are said then, the others at the end of the run
 * (or of the season), and none twice. With --json nothing is said early: the JSON lists them all.
 */
export class RunWarnings {
  private readonly said = new Set<string>();
  constructor(private readonly print: (warnings: Diagnostic[]) => void) {}
  /** Says those not said yet: each episode of a season reads the config anew (AUR4010), said once. */
  say(warnings: Diagnostic[]): void {
    const fresh = distinctWarnings(this.unsaid(warnings));
    if (!fresh.length) return;
    this.print(fresh);
    for (const w of fresh) this.said.add(sameWarning(w));
  }
  /**
   * Of a run's warnings, those not said yet. Told apart by what the reader sees, not by object: a
   * step that reads the config again (`scene rewrite`'s restage) makes its AUR4010 anew.
   */
  unsaid(warnings: Diagnostic[]): Diagnostic[] {
    return warnings.filter((w) => !this.said.has(sameWarning(w)));
  }
}

/** The warnings, each said once (the first of those its reader would see as the same, in order). */
export function distinctWarnings(warnings: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return warnings.filter((w) => {
    const key = sameWarning(w);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A warning as its reader sees it: code, where and message. */
function sameWarning(d: Diagnostic): string {
  return JSON.stringify([d.code, d.file, d.pointer, d.line, d.column, d.message]);
}

/**
 * Nothing drawn, but the world files' warnings said as the run starts, before its commit: the
 * progress of `episode commit`, whose output is the summary alone (no stage lines, even on a TTY).
 */
export function earlyWarningsOnly(early: RunWarnings): ProgressSink {
  return Object.assign(new SilentProgress(), { warnings: (list: Diagnostic[]) => early.say(list) });
}

/** One line per event on stderr. */
export class PlainProgress implements ProgressSink {
  private lastInflight = '';
  constructor(
    private readonly io: Io,
    private readonly c: ChalkInstance,
    private readonly early: RunWarnings,
  ) {}
  stage(id: StageId, state: StageState, detail?: string): void {
    if (state === 'running') {
      this.io.stderr(`${STAGE_TITLES[id].trim()} …\n`);
      return;
    }
    const mark = state === 'failed' ? this.c.red('failed') : state === 'resumed' ? this.c.cyan('resumed') : state === 'skipped' ? this.c.dim('skipped') : this.c.green('done');
    this.io.stderr(`${STAGE_TITLES[id].trim()} … ${mark}${detail ? ` ${this.c.dim(`(${detail})`)}` : ''}\n`);
  }
  scenes(ids: string[]): void {
    this.io.stderr(`${ids.length} scenes: ${ids.join(' ')}\n`);
  }
  scene(id: string, state: SceneState, detail?: string): void {
    const busy = state === 'writing' || state === 'repairing' || state === 'verifying' ? this.lastInflight : '';
    const bits = [detail, busy].filter(Boolean).join(', ');
    this.io.stderr(`  ${id} ${state}${bits ? ` ${this.c.dim(`(${bits})`)}` : ''}\n`);
  }
  counts(c: SceneCounts): void {
    this.lastInflight = describeCounts(c);
  }
  notice(text: string): void {
    this.io.stderr(`  ${this.c.yellow('…')} ${text}\n`);
  }
  info(text: string): void {
    this.io.stderr(`${text}\n`);
  }
  warnings(list: Diagnostic[]): void {
    this.early.say(list);
  }
  async close(): Promise<void> {}
}

interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
  reject: (e: Error) => void;
  settled: boolean;
}

function deferred(): Deferred {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => undefined);
  const d: Deferred = { promise, resolve: () => ((d.settled = true), resolve()), reject: (e) => ((d.settled = true), reject(e)), settled: false };
  return d;
}

type TitleSetter = { title: string; output?: string; skip?: (msg?: string) => void };

/** listr2 renderer, driven by pipeline events (tasks await deferreds resolved by the sink). */
export class ListrProgress implements ProgressSink {
  private readonly stages = new Map<StageId, Deferred>(STAGE_ORDER.map((s) => [s, deferred()]));
  private readonly stageTasks = new Map<StageId, TitleSetter>();
  /** Titles and skips set before listr started the task (stages finish before their turn is drawn). */
  private readonly pendingTitle = new Map<StageId, { title: string; skip: boolean }>();
  private readonly sceneDone = new Map<string, Deferred>();
  private readonly sceneTasks = new Map<string, TitleSetter>();
  private readonly sceneIds = deferred();
  private ids: string[] = [];
  private listr: { run: () => Promise<unknown> } | null = null;
  private running: Promise<unknown> | null = null;
  private current: StageId | null = null;

  private constructor(private readonly early: RunWarnings) {}

  static async create(early: RunWarnings): Promise<ListrProgress> {
    const p = new ListrProgress(early);
    await p.build();
    return p;
  }

  /**
   * listr draws from the first stage on. Until then stderr is the run's own: once listr draws, it
   * holds back every other write to stderr until it stops (listr2's ProcessOutput), which would put
   * the warnings said as the run starts after the commit they warn about.
   */
  private begin(): void {
    this.running ??= this.listr!.run().catch(() => undefined);
  }

  private async build(): Promise<void> {
    const { Listr, ProcessOutput } = await import('listr2');
    const tasks = STAGE_ORDER.map((id) => ({
      title: STAGE_TITLES[id],
      task: async (_ctx: unknown, task: TitleSetter & { newListr: (t: unknown[], o: unknown) => unknown }) => {
        this.stageTasks.set(id, task);
        const pending = this.pendingTitle.get(id);
        if (pending) {
          if (pending.skip && task.skip) return task.skip(pending.title);
          task.title = pending.title;
        }
        if (id === 'EFG') {
          await Promise.race([this.sceneIds.promise, this.stages.get(id)!.promise]);
          if (this.ids.length) {
            return task.newListr(
              this.ids.map((scene) => ({
                title: `${scene} queued`,
                task: async (_c: unknown, t: TitleSetter) => {
                  this.sceneTasks.set(scene, t);
                  await this.sceneDone.get(scene)!.promise;
                },
              })),
              { concurrent: true, exitOnError: false, rendererOptions: { collapseSubtasks: false } },
            );
          }
        }
        await this.stages.get(id)!.promise;
      },
    }));
    const out = new ProcessOutput(process.stderr, process.stderr);
    // listr2's own SIGINT handler calls process.exit(127), leaving the lock behind and printing
    // nothing: Ctrl-C belongs to the run (cli/commands/run-shared.ts interruptSignal, exit 130).
    this.listr = new Listr(tasks as never, { concurrent: false, exitOnError: true, registerSignalListeners: false, rendererOptions: { processOutput: out } as never });
  }

  stage(id: StageId, state: StageState, detail?: string): void {
    this.begin();
    const d = this.stages.get(id)!;
    const t = this.stageTasks.get(id);
    if (state === 'running') {
      this.current = id;
      return;
    }
    const title = `${STAGE_TITLES[id]}${state === 'resumed' ? ' (resumed)' : ''}${detail ? ` — ${detail}` : ''}`;
    if (t) {
      if (state === 'skipped' && t.skip) t.skip(title);
      else t.title = title;
    } else this.pendingTitle.set(id, { title, skip: state === 'skipped' });
    if (state === 'failed') d.reject(new Error(detail ?? 'failed'));
    else d.resolve();
    if (id === 'EFG') {
      this.sceneIds.resolve();
      for (const s of this.sceneDone.values()) if (!s.settled) s.resolve();
    }
  }
  scenes(ids: string[]): void {
    this.begin();
    this.ids = ids;
    for (const id of ids) this.sceneDone.set(id, deferred());
    this.sceneIds.resolve();
  }
  scene(id: string, state: SceneState, detail?: string): void {
    this.begin();
    const t = this.sceneTasks.get(id);
    if (t) t.title = `${id} ${state}${detail ? ` — ${detail}` : ''}`;
    const d = this.sceneDone.get(id);
    if (!d) return;
    if (state === 'done' || state === 'resumed') d.resolve();
    else if (state === 'failed') d.reject(new Error(detail ?? `${id} failed`));
  }
  counts(c: SceneCounts): void {
    this.begin();
    const t = this.stageTasks.get('EFG');
    if (t && !this.stages.get('EFG')!.settled) t.title = `${STAGE_TITLES.EFG} — ${describeCounts(c)}`;
  }
  notice(text: string): void {
    this.begin();
    const t = this.current ? this.stageTasks.get(this.current) : undefined;
    if (t) t.output = text;
  }
  info(): void {}
  warnings(list: Diagnostic[]): void {
    this.early.say(list);
  }
  async close(): Promise<void> {
    this.begin(); // a run refused before its first stage is drawn as before: stopped at A
    for (const d of this.stages.values()) if (!d.settled) d.reject(new Error('stopped'));
    this.sceneIds.resolve();
    for (const d of this.sceneDone.values()) if (!d.settled) d.reject(new Error('stopped'));
    await this.running;
  }
}

/**
 * A sink that also knows whether the commit stage is under way, passing every call on: a Ctrl-C
 * then is told the commit (atomic) is finished first, not that the run stays resumable.
 */
export class CommitWatch extends ForwardingProgress {
  committing = false;
  override stage(id: StageId, state: StageState, detail?: string): void {
    if (id === 'commit') this.committing = state === 'running';
    super.stage(id, state, detail);
  }
}

export async function makeProgress(io: Io, chalk: ChalkInstance, json: boolean, early: RunWarnings): Promise<ProgressSink> {
  if (json) return new SilentProgress();
  // listr2 draws on the real terminal; in-process tests pass a non-TTY Io and get plain lines.
  // A terminal that reports no width (script(1), some CI shells) gets plain lines too.
  if (io.isTTY && process.stderr.isTTY && (process.stderr.columns ?? 0) >= 40 && !io.env.CI) return ListrProgress.create(early);
  return new PlainProgress(io, chalk, early);
}
