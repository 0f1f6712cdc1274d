import type { Llm } from '../ports/llm.js';
import { AureusError, ExitCode } from '../errors.js';
import type { ScenePacket } from '../domain/packet.js';
import type { World } from '../domain/world.js';
import { ACTOR_ANSWER_SCHEMA, actorTurn } from './actor.js';
import { guardCall } from './call-guard.js';
import { BEAT_OBJECTIVE_SCHEMA, BEAT_SCHEMA, observe } from './observe.js';
import { validatorFor } from '../providers/json-answer.js';
import { canonize } from './canonize.js';
import { canonTag } from './reconcile.js';
import { sceneWorld } from './context.js';
import { testKillHook } from '../pipeline/checkpoint.js';
import { chooseSpeaker, extractProposals, threadsInPlay, writeBrief } from './director.js';
import { parseCommand, type Parsed } from './directives.js';
import { evaluate, suggestNext } from './evaluate.js';
import { cleanInput } from './input.js';
import { runAction } from './commands.js';
import { reduce, replay, emptyState, turnId, type PlayState } from './state.js';
import type { SessionStore } from './store.js';
import type { ActorAnswer, Beat, PlayEvent, SceneSetup, TurnRecord } from './types.js';

/** A planned scene's packet as a session pinned it, and the file it was read from. */
export interface PinnedPacket {
  packet: ScenePacket;
  file: string;
}

/**
 * The answers' validators, compiled when the session opens: ajv's start costs more than a whole
 * offline turn, and the user should not wait for it on the first line (bench/play.mjs: ≤ 200 ms a turn).
 */
function prepareValidators(): void {
  validatorFor(ACTOR_ANSWER_SCHEMA);
  validatorFor(BEAT_SCHEMA);
  validatorFor(BEAT_OBJECTIVE_SCHEMA);
}

/** The directives a model may give; the others (commit, end, undo …) are the user's. */
const MODEL_ACTIONS: readonly string[] = ['note', 'thread', 'beat', 'character'];

/** Tries of the lock at a canonization, 250 ms apart. */
const LOCK_TRIES = 8;

export interface PlayDeps {
  root: string;
  store: SessionStore;
  llm: Llm;
  world: World;
  packet: ScenePacket;
  /**
   * A planned or committed scene's packet as the session started with it (its start record keeps
   * it): every packet the session takes again (a resume, after a canonization, an /undo) is built on
   * this one, never on whatever the scene's file holds by then. Null for an improvised scene.
   */
  pinned: PinnedPacket | null;
  briefBudget: number;
  maxInput: number;
  /** Events for the user (rendered as text, or one JSON line each with --json). Never carries the brief. */
  emit: (e: PlayEvent) => void;
  /** Informational text (status, help, scene). */
  info: (text: string) => void;
  /** Runs a canonization as one step a second Ctrl-C waits for (run.ts; the CLI's interruptSignal). */
  critical?: <T>(what: string, fn: () => Promise<T>) => Promise<T>;
  /** The first Ctrl-C or SIGTERM: it reaches the model calls in flight (call-guard.ts). */
  interrupt?: AbortSignal;
  /** The canonization commit's trailers of the session's spend so far (accounting.ts). */
  trailers?: () => Promise<string[]>;
}

/**
 * The scene and turn loops (seed 004). Every state change is a record appended to the session log
 * first and then reduced into the state, so the log alone rebuilds the session (resume).
 */
export class PlaySession {
  state: PlayState;
  private pending: { id: string; text: string } | null = null;

  private constructor(private readonly d: PlayDeps, state: PlayState) {
    this.state = state;
  }

  static start(d: PlayDeps, id: string, seed: string, setup: SceneSetup): PlaySession {
    d.store.create(id);
    prepareValidators();
    const s = new PlaySession(d, emptyState(id, seed, setup));
    const pinned = d.pinned ? { packet: d.pinned.packet, packet_file: d.pinned.file } : {};
    s.record({ type: 'start', session: id, seed, setup, ...pinned });
    s.rebrief();
    return s;
  }

  static resume(d: PlayDeps, id: string): PlaySession {
    const records = d.store.read(id);
    const { state, pending } = replay(records);
    prepareValidators();
    const s = new PlaySession(d, state);
    s.pending = pending;
    s.interrupted = interruptedCheckpoint(records);
    return s;
  }

  /** A /commit or /end the log has but whose canonization it has not (killed, or postponed): resume runs it again. */
  private interrupted: 'commit' | 'end' | null = null;

  get done(): boolean {
    return this.state.complete !== null;
  }

  /**
   * Records of one exchange, written in one atomic append (see answer()), and what the user is told
   * of it (events, a command's answer), said after the append, in the order it happened.
   */
  private batch: { records: TurnRecord[]; said: (() => void)[] } | null = null;

  private record(r: TurnRecord): void {
    if (this.batch) this.batch.records.push(r);
    else this.d.store.append(this.state.session, r);
    ({ state: this.state, pendingUser: this.pending } = reduce(this.state, r, this.pending));
  }

  private say(fn: () => void): void {
    if (this.batch) this.batch.said.push(fn);
    else fn();
  }

  private emit(e: PlayEvent): void {
    this.say(() => this.d.emit(e));
  }

  private flush(): void {
    const b = this.batch;
    this.batch = null;
    if (!b) return;
    this.d.store.appendMany(this.state.session, b.records);
    for (const fn of b.said) fn();
  }

  private nextId(): string {
    return turnId(this.state.seq + 1);
  }

  /**
   * Finish what a kill interrupted: a user turn without its answer, a canonization (its /commit or
   * /end, or a critical one) without its `canonized` record, or a completion not yet written. A
   * canonization git already holds is read back from its tag, not made again (reconcile.ts).
   */
  async recover(): Promise<void> {
    // Everyone else left the stage while the session was paused (leave()): nobody can answer the line.
    if (this.pending && !this.state.cast.length) this.d.emit({ type: 'notice', message: `nobody else is on stage to answer ${this.pending.id}: it stays unanswered; bring someone in with /character <id>` });
    else if (this.pending) await this.answer(this.pending.id, this.pending.text);
    else if (this.interrupted === 'commit') await this.checkpoint('commit');
    else if (this.interrupted === 'end') await this.finish('user_end');
    else if (this.state.proposals.some((p) => p.critical && p.status === 'pending')) await this.checkpoint('critical');
    if (!this.done && this.state.director.completion_trigger) await this.finish(this.state.director.completion_trigger);
  }

  /**
   * Characters on stage who died in the world since the session paused leave the scene before it
   * goes on: a `leave` command record each (a later resume or /undo replays it), said with a notice,
   * then the brief of who is on stage now. The dead do not speak, as a new session never casts them.
   */
  leave(ids: string[]): void {
    if (!ids.length) return;
    for (const id of ids) {
      const c = this.d.world.characters.characters.find((x) => x.id === id);
      const why = `${c?.name ?? id} is ${c?.status ?? 'gone'} in the world as committed now`;
      this.record({ type: 'command', id: this.nextId(), name: 'leave', args: id, effect: `${id} leaves the scene: ${why}` });
      this.d.emit({ type: 'notice', message: `${id} leaves the scene: ${why}` });
    }
    this.rebrief();
  }

  /** One input line: a slash command or an in-character turn. */
  async line(raw: string): Promise<void> {
    if (this.done) return;
    // A scene end the lock postponed: try again before anything else.
    if (this.state.director.completion_trigger) return this.finish(this.state.director.completion_trigger);
    const input = cleanInput(raw, this.d.maxInput);
    for (const n of input.notices) this.d.emit({ type: 'notice', message: n });
    if (input.text === '') {
      if (raw.trim() !== '' || input.notices.length) return;
      this.d.emit({ type: 'notice', message: 'empty line ignored (type /help for the commands)' });
      return;
    }
    const cmd = parseCommand(input.text);
    if (cmd) return this.act(cmd);
    if (this.state.cast.length === 0) {
      this.d.emit({ type: 'notice', message: 'nobody else is on stage: bring someone in with /character <id>' });
      return;
    }
    const id = this.nextId();
    this.record({ type: 'user', id, text: input.text, truncated: input.truncated });
    await this.answer(id, input.text);
  }

  private async act(p: Parsed): Promise<void> {
    if (!p.ok) return this.d.emit({ type: 'notice', message: `${p.error}; nothing changed` });
    await runAction(this.ctl(), p.action);
  }

  private ctl() {
    return {
      state: () => this.state,
      deps: this.d,
      emit: (e: PlayEvent) => this.emit(e),
      info: (text: string) => this.say(() => this.d.info(text)),
      nextId: () => this.nextId(),
      record: (r: TurnRecord) => this.record(r),
      rebrief: () => this.rebrief(),
      setPacket: (p: ScenePacket) => void (this.d.packet = p),
      canonize: (trigger: string) => this.checkpoint(trigger),
      finish: (trigger: string) => this.finish(trigger),
    };
  }

  /**
   * One exchange: the Actor answers first (nothing waits before its call, so its line starts at
   * once), then the Director observes the exchange just completed (observe.ts: its beat, the
   * objective), then the whole exchange is recorded in one append.
   */
  private async answer(userId: string, text: string): Promise<void> {
    const s = this.state;
    const speaker = chooseSpeaker(this.d.packet, s.cast, text, s.director.turn_count);
    const cast = s.cast.map((id) => {
      const pc = this.d.packet.cast.find((c) => c.id === id);
      const c = this.d.world.characters.characters.find((x) => x.id === id);
      return { id, name: c?.name ?? id, cue: c?.cue ?? id.toUpperCase(), mood: pc?.mood ?? 'guarded', objective: pc?.objective ?? c?.bdi.intentions[0] ?? 'hold position', sample_lines: c?.voice.sample_lines ?? [] };
    });
    const history = s.exchanges.map((e) => ({ user: e.user, answer: e.answer }));
    const payload = { kind: 'play_actor' as const, speaker, principal: s.setup.principal, cast, user_text: text, turn: s.director.turn_count, tension: s.director.tension_curve.at(-1) ?? 0.3, topics: s.brief?.suggested_topics ?? [] };
    // The answer's id: nothing is recorded while the Actor answers, so it is the next one now.
    const actorId = this.nextId();
    const show = (content: string, reset: boolean) => this.d.emit({ type: 'chunk', turn: actorId, content, ...(reset ? { reset } : {}) });
    const guard = guardCall(this.d.interrupt);
    let t: Awaited<ReturnType<typeof actorTurn>>;
    try {
      t = await actorTurn(this.d.llm, this.d.packet, payload, history, s.brief, { scene: s.setup.scene, label: `play/${s.session}/${userId}`, signal: guard.signal, progress: guard.progress }, show);
    } finally {
      guard.dispose();
    }
    const seen = await observe(this.d.llm, { setup: s.setup, session: s.session, turn: s.director.turn_count + 1, exchanges: [...s.exchanges.slice(-1), { user: text, content: t.content }], signal: this.d.interrupt });
    // The answer, its directives, its proposals and the new brief are one atomic append, and the
    // user sees the whole answer only after it (a streamed line is shown as it arrives, but the
    // message_complete that makes it part of the transcript comes after the append): a kill
    // leaves the exchange wholly there or wholly absent (then resume answers the line again).
    this.batch = { records: [], said: [] };
    this.record({ type: 'actor', id: actorId, reply_to: userId, answer: t.answer, content: t.content, beat: seen.beat, ...(seen.objective_met !== undefined ? { objective_met: seen.objective_met } : {}) });
    const dir = this.state.director;
    this.emit({ type: 'message_complete', turn: actorId, content: t.content, structured: t.answer, director: { turn_count: dir.turn_count, beat: dir.current_beat, completion_eligible: dir.completion_trigger !== null || dir.beats_completed.includes('escalation') } });
    for (const n of t.notices) this.emit(n);
    if (seen.fallback) this.emit({ type: 'notice', message: seen.fallback });
    await this.modelDirectives(t.directives);
    this.stage(userId, actorId, text, t.answer, s.director.current_beat);
    this.flush();
    if (this.state.proposals.some((p) => p.critical && p.status === 'pending')) await this.checkpoint('critical');
    if (this.state.director.completion_trigger) await this.finish(this.state.director.completion_trigger);
  }

  /** The directives of a model's answer: its own are run as the same actions as the commands; the user's are refused. */
  private async modelDirectives(list: Parsed[]): Promise<void> {
    for (const p of list) {
      if (!p.ok) this.emit({ type: 'notice', message: `the model wrote a malformed directive (${p.error}); it was ignored` });
      else if (MODEL_ACTIONS.includes(p.action.name)) await runAction(this.ctl(), p.action);
      else this.emit({ type: 'notice', message: `the model wrote ${/^[aeiou]/.test(p.action.name) ? 'an' : 'a'} ${p.action.name} directive, which is yours to give (/${p.action.name}); it was ignored` });
    }
  }

  /** Stage the exchange's proposals; a new brief when something happened, a thread moved or the beat turned. */
  private stage(userId: string, actorId: string, text: string, answer: ActorAnswer, beatBefore: Beat): void {
    const next = this.state.proposals.length + 1;
    const props = extractProposals(this.d.world, this.d.packet, this.state.setup, userId, actorId, text, answer, next, this.state.cast);
    for (const p of props) this.record({ type: 'proposal', proposal: p });
    const moved = threadsInPlay(this.d.packet, this.state.exchanges).length > threadsInPlay(this.d.packet, this.state.exchanges.slice(0, -1)).length;
    if (props.length || moved || this.state.director.current_beat !== beatBefore) this.rebrief();
  }

  /** A new brief when the situation changed; hidden: recorded in the log, never emitted. */
  rebrief(onlyIfChanged = false): void {
    const s = this.state;
    const brief = writeBrief(this.d.packet, s.setup, s.cast, s.director, s.proposals, this.d.briefBudget, threadsInPlay(this.d.packet, s.exchanges));
    // After a canonization: a brief only when what the Actor is told differs (a checkpoint with nothing staged adds no record).
    if (onlyIfChanged && s.brief && JSON.stringify({ ...s.brief, turn: 0 }) === JSON.stringify({ ...brief, turn: 0 })) return;
    this.record({ type: 'brief', id: this.nextId(), brief });
    // Over even at its smallest (who is on stage): sent so, and said once a session (the brief's words stay hidden).
    if (brief.tokens > this.d.briefBudget && !this.briefOver) {
      this.briefOver = true;
      this.emit({ type: 'notice', message: `the Director's brief needs ${brief.tokens} tokens even at its smallest (who is on stage), over the brief budget of ${this.d.briefBudget}: it is sent at its smallest; raise --brief-budget (or play.brief_budget)` });
    }
  }

  private briefOver = false;

  /**
   * Why the last canonization did not run (the lock held, exit 9; uncommitted edits, exit 8), until
   * one runs: the session then ends with that exit code (run.ts), its proposals staged, not lost.
   */
  get postponed(): AureusError | null {
    return this.held;
  }

  private held: AureusError | null = null;

  /**
   * Canonize under the run lock. Another session canonizing holds it for a moment, so a few tries;
   * an `episode run` holds it for minutes; the user may have edited the world since the session
   * started (canonize refuses to commit the edit as the session's). Then the proposals stay staged,
   * the user is told, and the scene goes on (a later /commit, /end or --resume canonizes). Returns
   * whether it ran.
   *
   * A second Ctrl-C waits for it (deps.critical): its commit and the `canonized` record that says
   * so go out together, or a resume would judge the same proposals again against a world that has them.
   */
  private checkpoint(trigger: string): Promise<boolean> {
    const critical = this.d.critical ?? ((_what, fn) => fn());
    return critical('the canonization in progress', () => this.canonizeStaged(trigger));
  }

  private async canonizeStaged(trigger: string): Promise<boolean> {
    let r: Awaited<ReturnType<typeof canonize>> | undefined;
    // Read (and the run log flushed) before anything can stop it: a resumed canonization says the same spend.
    const trailers = (await this.d.trailers?.()) ?? [];
    testKillHook('play-canonize');
    for (let i = 0; !r; i++) {
      try {
        r = await canonize(this.d.root, this.state, this.d.packet, trigger, trailers);
      } catch (e) {
        if (!heldBack(e)) throw e;
        if (e.exitCode === ExitCode.LOCKED && i < LOCK_TRIES) {
          await new Promise((res) => setTimeout(res, 250));
          continue;
        }
        this.held = e;
        this.d.emit({ type: 'notice', message: postponedNotice(e) });
        return false;
      }
    }
    this.held = null;
    testKillHook('play-committed');
    if (r.recovered) this.d.emit({ type: 'notice', message: `canonization ${this.state.canonizations + 1} was committed (${r.commit?.slice(0, 10)}, tag ${canonTag(this.state.session, this.state.canonizations + 1)}) before the session stopped; recorded it` });
    // Canon is the truth from here on: the world as committed and the packet walked on it, exactly
    // as `--resume` would open the scene now (context.ts sceneWorld), so the two agree.
    const scene = await sceneWorld(this.d.root, this.state.setup, this.d.pinned?.packet ?? null, this.state.cast);
    this.d.world = scene.world;
    this.d.packet = scene.packet;
    // The record and the brief of the canonized world are one append: a kill cannot split them.
    this.batch = { records: [], said: [] };
    const found = r.scene_findings.length ? { scene_findings: r.scene_findings } : {};
    const unchanged = r.unchanged.length ? { unchanged: r.unchanged } : {};
    this.record({ type: 'canonized', id: this.nextId(), commit: r.commit, accepted: r.accepted, ...unchanged, rejected: r.rejected, ...found });
    this.emit({ type: 'canonized', commit: r.commit, accepted: r.accepted, unchanged: r.unchanged, rejected: r.rejected, scene_findings: r.scene_findings });
    this.rebrief(true);
    this.flush();
    return true;
  }

  /** Scene end: canonize what is staged, then the evaluation and the next suggestion. */
  async finish(trigger: string): Promise<void> {
    if (this.done) return;
    if (!(await this.checkpoint(trigger === 'user_end' ? 'scene_end' : trigger))) return;
    const evaluation = evaluate(this.state, this.d.packet);
    const next = suggestNext(this.state, this.d.packet);
    this.record({ type: 'complete', id: this.nextId(), trigger, evaluation, next });
    this.d.emit({ type: 'episode_complete', trigger, evaluation, next_suggestion: next });
  }
}

/** The log's last record when it is a /commit or /end: a canonization that never recorded its end. */
function interruptedCheckpoint(records: TurnRecord[]): 'commit' | 'end' | null {
  const last = records.at(-1);
  return last?.type === 'command' && (last.name === 'commit' || last.name === 'end') ? last.name : null;
}

/**
 * A refusal a canonization waits out with its proposals staged (the scene goes on): the lock held
 * (exit 9), uncommitted edits (exit 8), a half-made what-if branch (exit 10, AUR6035). Any other
 * error stops the session.
 */
function heldBack(e: unknown): e is AureusError {
  if (!(e instanceof AureusError)) return false;
  return e.exitCode === ExitCode.LOCKED || e.exitCode === ExitCode.DIRTY_WORLD || e.diagnostics.some((d) => d.code === 'AUR6035');
}

/** Why a canonization waits, and what the user can do about it. */
function postponedNotice(e: AureusError): string {
  const stays = 'the staged proposals stay staged';
  if (e.exitCode === ExitCode.LOCKED) return `another run holds the world lock (${e.message}); ${stays} — /commit or /end again later, or --resume`;
  const half = e.diagnostics.find((d) => d.code === 'AUR6035');
  if (half) return `${half.message}; ${stays} — ${half.hint}, then /commit or /end again, or --resume`;
  const what = e.diagnostics.map((d) => d.message).join('; ');
  return `${what}: canonizing now would commit them as this session's; ${stays} — commit or discard them, then /commit or /end again, or --resume`;
}
