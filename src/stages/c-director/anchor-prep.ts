import type { Anchor } from '../../domain/anchors.js';
import type { Operator, World } from '../../domain/world.js';
import { parseExpression, type Ast } from '../../core/expr/index.js';
import type { Candidate } from './candidates.js';

/**
 * Getting history ready (issue 17, item 4): an anchor is only played if its operators' prereqs
 * hold when it comes due. The Senate's last decree needs a real danger (`world.global.threat_level
 * >= 5`); a season that has calmed the city by October could never pass it. So, while an anchor is
 * still to be played, the Director reads its operators' prereqs that compare a world metric with a
 * number, and when one fails or holds by less than PREP_MARGIN it favours moves that push the
 * metric the needed way and holds back those that push it away. The prereqs are read with the
 * expression parser (core/expr), never by pattern-matching text.
 */
export const PREP_MARGIN = 1.5;
export const PREP_BONUS = 1.5;

/** A world metric an anchored operator needs moved: +1 up, -1 down. */
export type MetricNeeds = Map<string, 1 | -1>;

interface Bound { metric: string; op: '<' | '<=' | '>' | '>='; value: number }

const boundsCache = new WeakMap<Operator, Bound[]>();

function metricOf(a: Ast): string | null {
  return a.type === 'Member' && a.object.type === 'Member' && a.object.property === 'global' && a.object.object.type === 'Identifier' && a.object.object.name === 'world' ? a.property : null;
}

const FLIP = { '<': '>', '<=': '>=', '>': '<', '>=': '<=' } as const;

/** The operator's top-level prereqs of the form world.global.X <op> number (or number <op> X). */
function boundsOf(op: Operator): Bound[] {
  let out = boundsCache.get(op);
  if (out) return out;
  out = [];
  for (const p of op.prereqs) {
    const r = parseExpression(p.expr);
    if (!r.ok) continue;
    const a = r.ast;
    if (a.type !== 'Binary' || !(a.operator in FLIP)) continue;
    const cmp = a.operator as keyof typeof FLIP;
    const lm = metricOf(a.left);
    const rm = metricOf(a.right);
    if (lm && a.right.type === 'Literal' && typeof a.right.value === 'number') out.push({ metric: lm, op: cmp, value: a.right.value });
    else if (rm && a.left.type === 'Literal' && typeof a.left.value === 'number') out.push({ metric: rm, op: FLIP[cmp], value: a.left.value });
  }
  boundsCache.set(op, out);
  return out;
}

/** What the anchors still to be played need of the world's metrics now. */
export function metricNeeds(world: World, anchors: readonly Anchor[]): MetricNeeds {
  const needs: MetricNeeds = new Map();
  const ops = new Map(world.operators.operators.map((o) => [o.id, o]));
  for (const a of anchors) for (const id of a.operators) {
    const op = ops.get(id);
    if (!op) continue;
    for (const b of boundsOf(op)) {
      const v = world.world.global[b.metric]?.value;
      if (typeof v !== 'number') continue;
      const up = b.op === '>' || b.op === '>=';
      const margin = up ? v - b.value : b.value - v;
      if (margin < PREP_MARGIN) needs.set(b.metric, up ? 1 : -1);
    }
  }
  return needs;
}

const pushes = new WeakMap<Operator, { metric: string; sign: number }[]>();

/** The operator's numeric add/subtract effects on world metrics, in effect order (read once per operator, not per slot). */
function metricPushes(op: Operator): { metric: string; sign: number }[] {
  let l = pushes.get(op);
  if (!l) {
    l = [];
    for (const e of op.effects) {
      const m = /^world\.global\.([a-z0-9_]+)$/.exec(String(e.path));
      if (!m || typeof e.value !== 'number' || (e.op !== 'add' && e.op !== 'subtract')) continue;
      l.push({ metric: m[1]!, sign: (e.op === 'add' ? 1 : -1) * Math.sign(e.value) });
    }
    pushes.set(op, l);
  }
  return l;
}

/** The candidate's score change for what it does to the metrics the anchors need. */
export function prepScore(c: Candidate, needs: MetricNeeds): number {
  if (needs.size === 0) return 0;
  let s = 0;
  for (const e of metricPushes(c.op)) {
    const dir = needs.get(e.metric);
    if (!dir) continue;
    s += e.sign === dir ? PREP_BONUS : -PREP_BONUS;
  }
  return s;
}
