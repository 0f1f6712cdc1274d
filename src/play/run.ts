import readline from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { configWarnings, loadConfigOrThrow, type LoadedConfig } from '../config/index.js';
import { checkOverrideModels, parseMaxCost, parseModelFlags, parseProviderFlag, parseSeedFlag } from '../config/overrides.js';
import type { ConfigOverrides } from '../config/types.js';
import { LlmAbortedError } from '../providers/errors.js';
import { openSessionLlm, type SessionLlm } from './accounting.js';
import { failureForPlay, resumeCommand } from './recovery.js';
import { loadWorldOrThrow } from '../store/load.js';
import { createGit } from '../git/adapter.js';
import { hasPendingCommits } from '../pipeline/transaction.js';
import { CANONIZE_BLOCKED, refuseUncommittedEdits } from './canonize.js';
import { refuseHalfMadeBranch } from '../season/branch-journal.js';
import { resolveLexicon } from '../stages/f-verifier/load.js';
import { AureusError, ExitCode } from '../errors.js';
import { diag, type Diagnostic } from '../diagnostics/index.js';
import { findScenePacket, improvisedPacket, requireLiving, scenePacket, type FoundPacket } from './context.js';
import { checkResumeCast, pinnedPacketOf } from './resume-scene.js';
import { replay } from './state.js';
import { lockSession } from './session-lock.js';
import type { HeldLock } from '../pipeline/lock.js';
import { diagnosticNotice, renderJson, textRenderer } from './render.js';
import { PlaySession, type PlayDeps } from './session.js';
import { fileSessionStore, type SessionStore } from './store.js';
import { brokenUtf8Notice, pipedLines, terminalLines, unplayedNotice } from './input.js';
import { OBJECTIVE_KEY } from '../schemas/turn-record.js';
import { requirePositiveInt } from '../season/episode-id.js';
import { COMPLETION_MODES, type CompletionMode, type PlayEvent, type SceneSetup } from './types.js';
import type { ScenePacket } from '../domain/packet.js';
import type { World } from '../domain/world.js';
import { escapeControl } from '../diagnostics/sanitize.js';

export interface PlayOptions {
  as?: string;
  scene?: string;
  at?: string;
  with?: string;
  mode?: string;
  turns?: string;
  objective?: string;
  json?: boolean;
  resume?: string;
  session?: string;
  seed?: string;
  briefBudget?: string;
  maxInput?: string;
  /** As `episode run`'s: the provider, a model per role, the session's spend cap (they may change on --resume). */
  provider?: string;
  model?: string[];
  maxCost?: string;
}

export interface PlayIo {
  stdout: (t: string) => void;
  stderr: (t: string) => void;
  input: Readable;
  output: Writable;
  terminal: boolean;
  /** Text mode: diagnostics on stderr, as every command shows them (the config's warnings). */
  warnings: (list: Diagnostic[]) => void;
  /**
   * Ctrl-C and SIGTERM, whatever the streams are (the CLI's interruptSignal, installed around the
   * session): the first stops the loop once the turn in progress is played (exit 130, resumable),
   * a second quits at once, or once a canonization in progress is committed and recorded.
   */
  interrupt: {
    signal: AbortSignal;
    raise: (sig: NodeJS.Signals) => void;
    critical: <T>(what: string, fn: () => Promise<T>) => Promise<T>;
  };
  /** Told the session's id once it is started or resumed: a failure after it names the session (play --json's `error` event). */
  session?: (id: string) => void;
}

/**
 * A whole-number option from `min` to `max`, or its default: the CLI's one such parser
 * (season/episode-id.ts requirePositiveInt, AUR7010). Number(v) took `0x10`, `1e3`, ` 3` and
 * 99999999999999999999 as numbers; only digits are a count.
 */
function int(v: string | undefined, flag: string, def: number, min: number, max: number): number {
  return requirePositiveInt(flag.replace(/^--/, ''), v, max, min) ?? def;
}

/** The longest turn budget `--turns` takes (README, Completion): a scene, not a season. */
const MAX_TURNS = 1000;

/** Resolve the scene: a planned/committed packet, or an improvised one from --at/--with. */
async function setupFor(root: string, o: PlayOptions) {
  const { world } = await loadWorldOrThrow(root);
  if (!o.as) throw new AureusError('play needs --as <character_id> (or --resume <session>)', { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7011', { command: 'aureus play', needed: '--as <character_id> (or --resume <session>)', example: 'e.g. aureus play --as cicero --at forum --with catiline' })] });
  requireLiving(world, o.as, '--as');
  const mode = (o.mode ?? 'turn_limited') as CompletionMode;
  if (!COMPLETION_MODES.includes(mode)) throw new AureusError(`--mode ${o.mode}: expected ${COMPLETION_MODES.join(', ')}`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7010', { option: '--mode', value: String(o.mode).slice(0, 80) || '""', expected: `one of ${COMPLETION_MODES.join(', ')}`, example: 'e.g. --mode open (you end the scene with /end)' })] });
  if (mode === 'objective' && !o.objective) throw new AureusError('--mode objective needs --objective <key>', { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7011', { command: '--mode objective', needed: '--objective <key>', example: 'e.g. --objective accusation_made' })] });
  // Only --mode objective ends on it: in another mode the flag would do nothing, silently.
  if (mode !== 'objective' && o.objective) throw new AureusError(`--objective cannot be used with --mode ${mode}`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7012', { option: '--objective', other: `--mode ${mode}`, reason: 'only --mode objective ends the scene on it', fix: `add --mode objective, or drop --objective` })] });
  // The Director's flags are keyed by it (schemas/turn-record.ts OBJECTIVE_KEY, which a log's start record is held to too).
  if (o.objective && !new RegExp(OBJECTIVE_KEY).test(o.objective)) throw new AureusError(`--objective ${o.objective}: not a flag name`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7010', { option: '--objective', value: o.objective.slice(0, 80) || '""', expected: 'a flag name: a lower-case letter, then lower-case letters, digits or _ (at most 64)', example: 'e.g. --objective accusation_made (met by a line of yours that states it: "I accuse you")' })] });
  let packet;
  let found: FoundPacket | null = null;
  if (o.scene) {
    found = findScenePacket(root, o.scene);
    packet = found.packet;
    requirePrincipalInCast(packet, world, o.as, o.scene);
  } else if (o.at) {
    const ids = (o.with ?? '').split(',').map((x) => x.trim()).filter(Boolean);
    for (const id of ids) requireLiving(world, id, '--with');
    const others = ids.filter((i) => i !== o.as);
    // For the hints: a living character to bring on stage beside the principal.
    const someone = world.characters.characters.find((c) => c.id !== o.as && c.status === 'alive')?.id ?? 'catiline';
    // The Actor voices the others: a scene with nobody else on stage has no one to answer.
    if (!o.with) throw new AureusError('--at needs --with <ids>: the others on stage', { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7011', { command: `aureus play --at ${o.at}`, needed: '--with <ids> (the others on stage, comma-separated)', example: `e.g. aureus play --as ${o.as} --at ${o.at} --with ${someone}` })] });
    if (!others.length) throw new AureusError(`--with names no one besides ${o.as}, the character you play`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7103', { as: o.as, at: o.at, other: someone })] });
    packet = improvisedPacket(world, o.at, [o.as, ...others]);
  } else throw new AureusError('play needs --scene <SCxx> or --at <location> --with <ids>', { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7011', { command: 'aureus play', needed: '--scene <SCxx> or --at <location> --with <ids>', example: `e.g. aureus play --as ${o.as} --at forum --with catiline` })] });
  const cast = packet.cast.map((c) => c.id).filter((id) => id !== o.as && world.characters.characters.find((c) => c.id === id)?.status === 'alive');
  const season = Number(/^s(\d{2})/.exec(packet.episode_id)?.[1] ?? 1) || 1;
  const setup: SceneSetup = { scene: packet.scene_id, episode: packet.episode_id === 'play' ? null : packet.episode_id, location: packet.setting.location, principal: o.as, cast, mode, turn_budget: int(o.turns, '--turns', 8, 1, MAX_TURNS), objective: o.objective ?? null, season };
  return { world, packet, setup, found };
}

/** Which folder's packet a planned scene is played from, when several hold it (context.ts findScenePacket's order). */
function whichPacket(found: FoundPacket | null): string | null {
  if (!found?.others.length) return null;
  const n = found.others.length;
  return `${found.packet.scene_id}: playing ${found.file}, the packet of ${found.why}; ${n} other folder${n === 1 ? '' : 's'} hold${n === 1 ? 's' : ''} it too (${found.others.join(', ')}): the committed episode comes first, then the most recent plan (--scene sNNeNN/SCxx picks the episode); the session keeps this packet`;
}

/**
 * A planned scene is played as one of its own cast: the packet's checks hold every speaker to its cast
 * (AUR5012), so a principal from outside it would have their own lines rejected as proposals.
 */
function requirePrincipalInCast(packet: ScenePacket, world: World, as: string, scene: string): void {
  if (packet.cast.some((c) => c.id === as)) return;
  const name = world.characters.characters.find((c) => c.id === as)?.name ?? as;
  const cast = packet.cast.map((c) => c.id);
  throw new AureusError(`${name} is not in the cast of ${scene}`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7109', { as, name, scene, cast: cast.join(', ') || 'nobody', example: cast[0] ?? 'cicero' })] });
}

/**
 * Before a session starts or resumes: what its canonization would refuse is refused now, so no turn
 * is played only to be kept from canon: a lexicon `scene verify` refuses (a row or entry that does
 * not parse, a byte that breaks UTF-8: AUR5082 and each problem, exit 3, resolveLexicon) and
 * uncommitted edits it would carry (exit 8), a half-made what-if branch (exit 10, AUR6035). An interrupted commit is rolled forward first,
 * under the lock, by the canonization, which checks again then (as `episode run` waits for it).
 */
async function refuseUncanonizable(root: string, season: number): Promise<void> {
  resolveLexicon(root);
  if (hasPendingCommits(root)) return;
  const git = createGit(root);
  await refuseUncommittedEdits(git, season, { readOnly: true });
  // A half-made what-if branch (AUR6035): refused before a turn is played, as the other committing
  // commands refuse before their work; canonize.ts checks again under the lock.
  await refuseHalfMadeBranch(root, CANONIZE_BLOCKED, git);
}

/**
 * `<principal>-NNN`, numbered from the count of sessions, past any id a --session already took
 * (cicero-002 named by hand would otherwise refuse the second plain `play`, AUR7107).
 */
function defaultSessionId(store: SessionStore, principal: string): string {
  for (let n = store.list().length + 1; ; n++) {
    const id = `${principal}-${String(n).padStart(3, '0')}`;
    if (!store.exists(id)) return id;
  }
}

/**
 * The config's warnings (a model at its end-of-life, AUR4010) concern the calls the session makes:
 * said before the first one, as `episode run` and `episode plan` say them; with --json as `notice`
 * events carrying the code.
 */
function sayConfigWarnings(loaded: LoadedConfig, o: PlayOptions, io: PlayIo, emit: (e: PlayEvent) => void): void {
  const list = configWarnings(loaded);
  if (!list.length) return;
  if (!o.json) return io.warnings(list);
  // The hint is the notice's `hint`, as every other warning's (it was once in the message too, said twice).
  for (const d of list) emit(diagnosticNotice(d, `warning ${d.code} ${d.message}`));
}

export async function runPlay(root: string, o: PlayOptions, io: PlayIo): Promise<number> {
  // The session's lock, from the moment its id is known to every way out (end, paused input,
  // Ctrl-C, an error); a process killed without releasing it leaves a stale lock the next takes over.
  const held: { lock?: HeldLock } = {};
  // A second Ctrl-C quits with process.exit (no finally runs): released then too, not left stale.
  const atExit = () => held.lock?.release();
  process.on('exit', atExit);
  try {
    return await openAndPlay(root, o, io, held);
  } finally {
    process.off('exit', atExit);
    held.lock?.release();
  }
}

/** Say warnings found on the way (the stale session lock taken over, AUR6003; a corrupt cache entry, AUR4302), as the config's are said. */
function sayWarnings(list: Diagnostic[], o: PlayOptions, io: PlayIo, emit: (e: PlayEvent) => void): void {
  if (!o.json) return list.length ? io.warnings(list) : undefined;
  for (const d of list) emit(diagnosticNotice(d, `warning ${d.code} ${d.message}`));
}

/** --provider, --model and --max-cost over aureus.config.yaml, as `episode run` takes them (usage errors, exit 2). */
function playOverrides(o: PlayOptions): ConfigOverrides {
  const out: ConfigOverrides = {};
  if (o.provider !== undefined) out.provider = parseProviderFlag(o.provider);
  if (o.model?.length) out.models = parseModelFlags(o.model);
  if (o.maxCost !== undefined) out.maxCostUsd = parseMaxCost(o.maxCost);
  return out;
}

async function openAndPlay(root: string, o: PlayOptions, io: PlayIo, held: { lock?: HeldLock }): Promise<number> {
  const store = fileSessionStore(root);
  const overrides = playOverrides(o);
  const loaded = loadConfigOrThrow(root, overrides);
  const { config } = loaded;
  checkOverrideModels(config, overrides);
  const text = textRenderer({ out: io.stdout, err: io.stderr, live: io.terminal, columns: () => (io.output as { columns?: number }).columns ?? 0 });
  const emit = (e: PlayEvent) => (o.json ? io.stdout(renderJson(e)) : text(e));
  const info = (t: string) => (o.json ? io.stdout(renderJson({ type: 'notice', message: t })) : io.stdout(escapeControl(t) + '\n'));
  const calls = (seed: string, session: string) => openSessionLlm({ root, config, seed, session, onNotice: (message) => emit({ type: 'notice', message }), onWarning: (d) => sayWarnings([d], o, io, emit) });
  let session: PlaySession;
  let accounts: SessionLlm;
  // aureus.config.yaml `play:` keys, a flag overriding its key (within the config schema's bounds for the key).
  const base = { root, store, briefBudget: int(o.briefBudget, '--brief-budget', config.play.brief_budget, 50, 20000), maxInput: int(o.maxInput, '--max-input', config.play.max_input, 10, 100000), emit, info, critical: io.interrupt.critical, interrupt: io.interrupt.signal };
  if (o.resume) {
    store.read(o.resume); // AUR7108 for no such session, before a lock is made for it
    const taken: Diagnostic[] = [];
    held.lock = lockSession(root, o.resume, taken);
    sayWarnings(taken, o, io, emit);
    // Read under the lock: what a process that held it until now appended is in it.
    const log = store.readLog(o.resume);
    const { records } = log;
    const first = records[0];
    if (!first || first.type !== 'start') throw new AureusError(`session ${o.resume} has no start record`, { exitCode: ExitCode.INVALID_WORLD, diagnostics: [diag('AUR6202', { id: o.resume })] });
    // The scene as the running session would have it now (context.ts sceneWorld, also taken after
    // each canonization): its pinned packet, on the world as committed, with who is on stage checked
    // against that world first (an id it no longer has, a principal who died: refused; a dead cast member leaves).
    const { state } = replay(records);
    const { world } = await loadWorldOrThrow(root);
    const leaving = checkResumeCast(o.resume, log, state, world);
    const pinned = pinnedPacketOf(root, first, (message) => {
      if (!state.complete) emit({ type: 'notice', message });
    });
    const packet = scenePacket(world, first.setup, pinned?.packet ?? null, state.cast);
    accounts = calls(first.seed, o.resume);
    session = PlaySession.resume({ ...base, llm: accounts.llm, trailers: accounts.trailers, world, packet, pinned }, o.resume);
    io.session?.(o.resume);
    // A finished session canonizes nothing more: resuming it stays harmless on a dirty world.
    if (!session.done) await refuseUncanonizable(root, first.setup.season);
    // A complete session plays no more lines: said plainly (exit 0, as the resume of a paused one
    // whose input is empty), so a line piped to it is not taken for a turn that was played.
    if (session.done) emit({ type: 'notice', message: `session ${o.resume} is complete (its scene ended after turn ${session.state.director.turn_count}): nothing was played; \`aureus session show ${o.resume}\` shows it` });
    else {
      sayConfigWarnings(loaded, o, io, emit);
      if (!o.json) io.stderr(`aureus: resuming ${o.resume} after turn ${session.state.director.turn_count}\n`);
      session.leave(leaving);
    }
  } else {
    // The seed rule of episode run (AUR4003, exit 2), before anything is written.
    parseSeedFlag(o.seed, 'the session id');
    const { world, packet, setup, found } = await setupFor(root, o);
    await refuseUncanonizable(root, setup.season);
    sayConfigWarnings(loaded, o, io, emit);
    const id = o.session ?? defaultSessionId(store, setup.principal);
    // A taken id is AUR7107 from PlaySession.start, not a lock's refusal.
    if (!store.exists(id)) held.lock = lockSession(root, id);
    accounts = calls(o.seed ?? id, id);
    session = PlaySession.start({ ...base, llm: accounts.llm, trailers: accounts.trailers, world, packet, pinned: found && { packet: found.packet, file: found.file } }, id, o.seed ?? id, setup);
    io.session?.(id);
    const which = whichPacket(found);
    if (which) emit({ type: 'notice', message: which });
    // The place and the principal's name are world text: shown escaped (textRenderer says why).
    if (!o.json) io.stdout(escapeControl(`${setup.scene} at ${packet.setting.location_name}. You are ${world.characters.characters.find((c) => c.id === setup.principal)?.name}; on stage: ${setup.cast.join(', ') || 'nobody'}. (/help for commands)\n`));
  }
  try {
    return await loop(session, o, io, emit);
  } catch (e) {
    // A failure that stopped the session (a provider error, a spent budget): paused, its log whole.
    if (session.done) throw e;
    if (!o.json) io.stderr(`aureus: session ${session.state.session} paused; continue with \`${resumeCommand(session.state.session)}\`\n`);
    throw failureForPlay(e, session.state.session);
  }
}

/**
 * The turn loop over input lines: a readline REPL on a terminal, one turn per LF-ended line
 * otherwise (input.ts pipedLines). Ctrl-C or SIGTERM (io.interrupt) closes the input: the line in
 * progress is played to its end, the lines after it are not, and the session pauses (exit 130) as
 * when the input ends.
 */
async function loop(session: PlaySession, o: PlayOptions, io: PlayIo, emit: (e: PlayEvent) => void): Promise<number> {
  const rl = io.terminal ? readline.createInterface({ input: io.input, output: io.output, terminal: true, historySize: 200 }) : null;
  const lines = rl ? terminalLines(rl) : pipedLines(io.input);
  const { signal } = io.interrupt;
  // On a terminal readline reads Ctrl-C as a key (raw mode): the same interrupt as the signal.
  rl?.on('SIGINT', () => io.interrupt.raise('SIGINT'));
  const stop = () => lines.close();
  signal.addEventListener('abort', stop);
  // A session complete before this resume was said so (openAndPlay's notice: nothing was played).
  const completeBefore = session.done;
  try {
    // A resume first finishes what its last process left (a line without its answer, a canonization).
    if (!(await played(() => session.recover(), signal))) return paused(session, o, io, emit, true);
    if (rl && !signal.aborted) {
      rl.setPrompt('> ');
      if (!session.done) rl.prompt();
    }
    // No line is read once the scene is over (a resume's recovery may end it) or the input was
    // interrupted (while a resume finished its last turn): a line taken here and then not played
    // would be missing from the count of lines not played.
    const more = () => !session.done && !signal.aborted;
    for (let line = more() ? await lines.next() : null; line !== null; line = more() ? await lines.next() : null) {
      // Lines already read past the interrupt are not played.
      if (!more()) break;
      if (line.broken) emit({ type: 'notice', message: brokenUtf8Notice(line.broken) });
      if (!(await played(() => session.line(line.text), signal))) break;
      if (!more()) break;
      if (rl) rl.prompt();
    }
    // A script's lines after the scene's last turn: said, not dropped in silence.
    const unplayed = session.done && !completeBefore && !rl ? unplayedNotice(lines.pending()) : null;
    if (unplayed) emit({ type: 'notice', message: unplayed });
  } finally {
    signal.removeEventListener('abort', stop);
    lines.close();
  }
  return paused(session, o, io, emit, signal.aborted);
}

/**
 * Whether a line (or a resume's recovery) was played: false when the interrupt cancelled a model
 * call in flight (call-guard.ts), which leaves the line to be answered on resume.
 */
async function played(fn: () => Promise<void>, signal: AbortSignal): Promise<boolean> {
  try {
    await fn();
    return true;
  } catch (e) {
    if (e instanceof LlmAbortedError && signal.aborted) return false;
    throw e;
  }
}

/** The loop's end: `done`, and for a session not complete the paused notice (exit 130 when interrupted). */
function paused(session: PlaySession, o: PlayOptions, io: PlayIo, emit: (e: PlayEvent) => void, interrupted: boolean): number {
  const s = session.state;
  emit({ type: 'done', session: s.session, turns: s.director.turn_count });
  // The turn played to its end after a Ctrl-C completed the scene: nothing is left to resume.
  if (session.done) return 0;
  const held = session.postponed;
  const staged = held ? ' with its proposals staged, not canonized' : '';
  if (!o.json) io.stderr(`aureus: session ${s.session} paused${staged}; continue with \`${resumeCommand(s.session)}\`\n`);
  if (interrupted) return ExitCode.INTERRUPTED;
  // The input ended while a canonization waited (the lock, exit 9; uncommitted edits, exit 8): the
  // scene's changes are not canon, which a script must not read as success. Nothing is lost.
  if (held) throw new AureusError(`session ${s.session} ended with its proposals staged: ${held.message}`, { exitCode: held.exitCode, diagnostics: held.diagnostics, hint: held.hint });
  return 0;
}
