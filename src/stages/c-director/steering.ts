import type { EpisodePlan, OperatorApplication } from '../../domain/plan.js';
import type { Character, Operator, World } from '../../domain/world.js';
import { hashValue } from '../../core/hash.js';
import { AureusError, ExitCode } from '../../errors.js';
import { diag } from '../../diagnostics/index.js';
import { canAct } from '../b-proposals/bdi.js';
import { infeasible } from './infeasible.js';

/**
 * The showrunner's steering of one episode (issue 16): `--focus`, `--require`, `--avoid`, `--cast`
 * and the season notes addressed to the episode. A small, explicit input of the Director: the
 * symbolic planner asks `SteeringHook.score` about each candidate move and reports each placed
 * application; `checkPlanSteering` then proves the plan honours the request, or planning ends with
 * exit 6 naming the rule (steer_focus, steer_require, steer_avoid, steer_cast).
 */
export interface SteeringNote {
  id: string;
  text: string;
  thread?: string;
  character?: string;
}

export interface Steering {
  /** Threads to advance first. */
  focus: string[];
  /** Operators that must be applied, optionally by a given actor. */
  require: { op: string; actor?: string }[];
  /** Operators never to apply. */
  avoid: string[];
  /** Characters the episode must feature (each appears in at least one scene). */
  cast: string[];
  /** The season notes addressed to this episode (they lean the Director, they do not bind it). */
  notes: SteeringNote[];
}

export const NO_STEERING: Steering = { focus: [], require: [], avoid: [], cast: [], notes: [] };

export function isSteered(s: Steering | null | undefined): s is Steering {
  return !!s && (s.focus.length + s.require.length + s.avoid.length + s.cast.length + s.notes.length) > 0;
}

/** The flags' part of the steering, hashed: it names the run folder, so a steered run never resumes an unsteered plan. */
export function steeringKey(s: Steering): string {
  return hashValue({ focus: s.focus, require: s.require, avoid: s.avoid, cast: s.cast }).slice(0, 8);
}

export function hasFlags(s: Steering): boolean {
  return s.focus.length + s.require.length + s.avoid.length + s.cast.length > 0;
}

const ID = /^[a-z0-9_]+$/;

function badValue(option: string, value: string, detail: string, example: string): AureusError {
  return new AureusError(`bad ${option} value`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR3062', { option, value, detail, example })] });
}

/** The command-line flags as a Steering (syntax only; `checkSteering` checks them against the world). */
export function parseSteeringFlags(f: { focus?: string[]; require?: string[]; avoid?: string[]; cast?: string[] }): Steering {
  const list = (option: string, values: string[] | undefined, example: string) =>
    (values ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean).map((v) => {
      if (!ID.test(v)) throw badValue(option, v, 'ids are lower-case letters, digits and _', example);
      return v;
    });
  const require = (f.require ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean).map((v) => {
    const [op, actor, extra] = v.split('@');
    if (extra !== undefined || !op || !/^[A-Za-z0-9_]+$/.test(op) || (actor !== undefined && !ID.test(actor))) {
      throw badValue('--require', v, 'expected OP_ID or OP_ID@actor', 'aureus episode plan --require op_bribe@crassus');
    }
    return actor ? { op, actor } : { op };
  });
  const uniq = <T>(xs: T[]) => [...new Map(xs.map((x) => [JSON.stringify(x), x])).values()];
  return {
    focus: uniq(list('--focus', f.focus, 'aureus episode plan --focus thr_murena_trial')),
    require: uniq(require),
    avoid: uniq((f.avoid ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean).map((v) => {
      if (!/^[A-Za-z0-9_]+$/.test(v)) throw badValue('--avoid', v, 'expected an operator id', 'aureus episode plan --avoid op_assassination_attempt');
      return v;
    })),
    cast: uniq(list('--cast', f.cast, 'aureus episode plan --cast cicero,terentia')),
    notes: [],
  };
}

/** The command-line flags that give this steering back (parseSteeringFlags' inverse), for a hint that names the command again. */
export function steeringFlags(s: Steering): string {
  const flag = (option: string, values: string[]) => (values.length ? ` ${option} ${values.join(',')}` : '');
  const require = s.require.map((r) => (r.actor ? `${r.op}@${r.actor}` : r.op));
  return `${flag('--focus', s.focus)}${flag('--require', require)}${flag('--avoid', s.avoid)}${flag('--cast', s.cast)}`;
}

function unknown(kind: string, id: string, option: string, known: string[]): AureusError {
  return new AureusError(`unknown ${kind} ${id}`, { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR3061', { kind, id, option, known: known.slice(0, 40).join(', ') })] });
}

/**
 * The request against the world, before planning: an unknown id is a usage error (exit 2); a
 * request the world cannot meet (a closed thread, a dead actor) is exit 6 naming the rule.
 */
export function checkSteering(world: World, s: Steering): void {
  const threads = new Map(world.threads.threads.map((t) => [t.id, t]));
  const chars = new Map(world.characters.characters.map((c) => [c.id, c]));
  const ops = new Map(world.operators.operators.map((o) => [o.id, o]));
  for (const id of s.focus) {
    const t = threads.get(id);
    if (!t) throw unknown('thread', id, '--focus', [...threads.keys()]);
    if (t.status !== 'open') throw infeasible('steer_focus', `--focus ${id}: the thread is ${t.status}, it cannot advance`);
  }
  for (const r of s.require) {
    if (!ops.has(r.op)) throw unknown('operator', r.op, '--require', [...ops.keys()]);
    if (s.avoid.includes(r.op)) throw infeasible('steer_require', `--require ${r.op} and --avoid ${r.op} contradict each other`);
    if (r.actor) {
      const c = chars.get(r.actor);
      if (!c) throw unknown('character', r.actor, '--require', [...chars.keys()]);
      if (!canAct(c)) throw infeasible('steer_require', `--require ${r.op}@${r.actor}: ${c.name} is ${c.status} and cannot act`);
    }
  }
  for (const id of s.avoid) if (!ops.has(id)) throw unknown('operator', id, '--avoid', [...ops.keys()]);
  for (const id of s.cast) {
    const c = chars.get(id);
    if (!c) throw unknown('character', id, '--cast', [...chars.keys()]);
    if (c.status === 'dead') throw infeasible('steer_cast', `--cast ${id}: ${c.name} is dead and cannot appear`);
  }
}

/** What the hook needs to know of a candidate move (c-director/plan.ts Candidate). */
export interface SteeredMove {
  op: Pick<Operator, 'id'>;
  actor: Pick<Character, 'id'>;
  chars: string[];
  threads: string[];
}

/** Score weights: a required move or the focus thread outranks everything but the cliffhanger reserve. */
const W = { require: 20, focusFirst: 8, focusAgain: 1, castFirst: 4, castAgain: 0.5, noteThread: 1.5, noteCharacter: 1 } as const;

/**
 * The Director's hook, one per planning attempt (it remembers what the plan already placed).
 * `score` returns the bonus of a move, or null when the move is ruled out (`--avoid`).
 */
export class SteeringHook {
  private readonly placedRequire = new Set<number>();
  private readonly advanced = new Set<string>();
  private readonly appeared = new Set<string>();
  constructor(private readonly s: Steering | null) {}

  score(c: SteeredMove): number | null {
    const s = this.s;
    if (!s) return 0;
    if (s.avoid.includes(c.op.id)) return null;
    let bonus = 0;
    s.require.forEach((r, i) => {
      if (!this.placedRequire.has(i) && r.op === c.op.id && (!r.actor || r.actor === c.actor.id)) bonus += W.require;
    });
    for (const t of s.focus) if (c.threads.includes(t)) bonus += this.advanced.has(t) ? W.focusAgain : W.focusFirst;
    for (const id of s.cast) if (c.chars.includes(id)) bonus += this.appeared.has(id) ? W.castAgain : W.castFirst;
    for (const n of s.notes) {
      if (n.thread && c.threads.includes(n.thread)) bonus += W.noteThread;
      if (n.character && c.chars.includes(n.character)) bonus += W.noteCharacter;
    }
    return bonus;
  }

  placed(app: OperatorApplication): void {
    const s = this.s;
    if (!s) return;
    s.require.forEach((r, i) => {
      if (r.op === app.operator_id && (!r.actor || r.actor === app.bindings.actor)) this.placedRequire.add(i);
    });
    for (const t of app.threads_advanced) this.advanced.add(t);
    for (const id of Object.values(app.bindings)) this.appeared.add(id);
  }
}

/** The plan honours the request, or exit 6 naming the rule it could not meet. */
export function checkPlanSteering(plan: EpisodePlan, s: Steering | null | undefined): void {
  if (!s) return;
  const apps = plan.beats.flatMap((b) => b.applications);
  for (const t of s.focus) {
    if (!plan.threads_advanced.includes(t)) throw infeasible('steer_focus', `--focus ${t}: no applicable move advances the thread in this episode`);
  }
  for (const r of s.require) {
    if (!apps.some((a) => a.operator_id === r.op && (!r.actor || a.bindings.actor === r.actor))) {
      throw infeasible('steer_require', `--require ${r.op}${r.actor ? `@${r.actor}` : ''}: its prerequisites never hold in this episode's plan`);
    }
  }
  for (const op of s.avoid) {
    const a = apps.find((x) => x.operator_id === op);
    if (a) throw infeasible('steer_avoid', `--avoid ${op}: the plan still applies it (${a.id})`);
  }
  const onScreen = new Set(plan.scenes.flatMap((sc) => sc.cast));
  for (const id of s.cast) if (!onScreen.has(id)) throw infeasible('steer_cast', `--cast ${id}: no scene of the plan can feature them`);
}

/** The steering as the LLM Director reads it (a key of its prompt, only when there is any). */
export function showrunnerBrief(s: Steering): Record<string, unknown> {
  return {
    focus_threads_first: s.focus,
    required_moves: s.require.map((r) => (r.actor ? `${r.op}@${r.actor}` : r.op)),
    avoided_operators: s.avoid,
    featured_cast: s.cast,
    notes: s.notes.map((n) => ({ text: n.text, ...(n.thread ? { thread: n.thread } : {}), ...(n.character ? { character: n.character } : {}) })),
  };
}
