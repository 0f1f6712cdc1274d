import type { Normalisation } from '../../../domain/scene.js';
import type { Resolver, NormaliseContext } from './ids.js';

/**
 * The SCENE_EVENTS value read in the forms models write (issue 13): ids as names or capitals, an
 * operator by its name or description, a transfer keyed `denarii` (spec §8.2), subtract values
 * written signed, an event without `deltas`, fields the schema does not know (kept out of the
 * judged event, noted), and bookkeeping deltas Aureus derives itself. Nothing is invented: a
 * change the model did not write is never added, except the plan's own bookkeeping.
 */
const EVENT_FIELDS = new Set(['id', 'type', 'application_id', 'operator_id', 'actor', 'target', 'text', 'deltas']);
const DELTA_FIELDS = new Set(['path', 'op', 'value', 'from', 'to', 'amount', 'application_id']);
const OPS = new Set(['add', 'subtract', 'set', 'multiply', 'transfer']);
const EVENT_TYPES = new Set(['operator', 'action', 'dialogue', 'transfer', 'movement', 'reveal']);
/** The words models use for the schema's ops. */
const OP_WORDS: Record<string, string> = { increase: 'add', plus: 'add', inc: 'add', decrease: 'subtract', minus: 'subtract', sub: 'subtract', reduce: 'subtract', assign: 'set', times: 'multiply', pay: 'transfer', move: 'transfer' };

/** Paths Aureus keeps for itself: when a thread last progressed is bookkeeping, not story. */
export function isBookkeeping(path: string): boolean {
  return /^threads\.[a-z0-9_]+\.last_progress_episode$/.test(path);
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

interface Run {
  r: Resolver;
  notes: Normalisation[];
  where: string;
}

function note(run: Run, code: string, what: string, why: string): void {
  run.notes.push({ code, what: `${run.where}: ${what}`, why });
}

/** Resolves one id field in place; notes the change. */
function resolveField(run: Run, o: Obj, field: string, kind: 'character' | 'operator' | 'application'): void {
  const v = o[field];
  if (typeof v !== 'string') return;
  const id = run.r[kind](v);
  if (id && id !== v) {
    o[field] = id;
    note(run, kind === 'operator' ? 'operator_resolved' : 'id_resolved', `${field} "${v}" read as "${id}"`, `"${v}" names exactly one ${kind} of this scene`);
  }
}

function dropUnknown(run: Run, o: Obj, known: Set<string>, what: string): void {
  for (const k of Object.keys(o)) {
    if (known.has(k)) continue;
    note(run, 'field_ignored', `ignored ${what} field "${k}": ${JSON.stringify(o[k])}`, 'the field is not part of the schema; it does not change what the event depicts');
    delete o[k];
  }
}

function normaliseDelta(run: Run, d: Obj, ctx: NormaliseContext): void {
  if (typeof d.op === 'string' && !OPS.has(d.op)) {
    const k = d.op.trim().toLowerCase();
    const op = OPS.has(k) ? k : OP_WORDS[k];
    if (op) {
      note(run, 'delta_op', `read op "${d.op}" as "${op}"`, `"${d.op}" is the model's word for ${op}`);
      d.op = op;
    }
  }
  numericStrings(run, d, ctx);
  if (d.op === 'transfer' && d.amount === undefined && typeof d.denarii === 'number') {
    d.amount = d.denarii;
    delete d.denarii;
    note(run, 'transfer_key', `read transfer key "denarii" as "amount"`, 'spec §8.2 writes a transfer with "denarii"; the schema calls it "amount"');
  }
  if (d.op === 'subtract' && typeof d.value === 'number' && d.value < 0) {
    note(run, 'signed_subtract', `read subtract ${d.value} on ${String(d.path)} as subtract ${-d.value}`, 'a subtraction written with its sign: the magnitude is what is subtracted');
    d.value = -d.value;
  }
  resolveField(run, d, 'from', 'character');
  resolveField(run, d, 'to', 'character');
  if (typeof d.path === 'string') {
    const fixed = resolvePath(run.r, d.path, ctx);
    if (fixed !== d.path) {
      note(run, 'id_resolved', `path "${d.path}" read as "${fixed}"`, 'the ids in the path were written as names or in capitals');
      d.path = fixed;
    }
  }
  dropUnknown(run, d, DELTA_FIELDS, 'delta');
}

/** A number written as a string ("0.3", "3,000") where the plan's delta on that path is a number. */
function numericStrings(run: Run, d: Obj, ctx: NormaliseContext): void {
  const req = ctx.packet.constraints.required_deltas.find((r) => r.path === d.path || (d.op === 'transfer' && r.op === 'transfer'));
  for (const k of ['value', 'amount', 'denarii'] as const) {
    const v = d[k];
    if (typeof v !== 'string' || !/^\s*[+-]?[\d,]*\.?\d+\s*$/.test(v)) continue;
    if (k === 'value' && typeof req?.value !== 'number') continue;
    const n = Number(v.replace(/[,\s]/g, ''));
    if (!Number.isFinite(n)) continue;
    note(run, 'number_string', `read ${k} "${v}" as the number ${n}`, 'a number written as a string (quoted, or with thousands separators)');
    d[k] = n;
  }
}

/** A path spelled with names or capitals: the packet's spelling of the same path, or its character segments resolved. */
function resolvePath(r: Resolver, path: string, ctx: NormaliseContext): string {
  const known = ctx.packet.constraints.required_deltas.map((x) => x.path);
  const same = known.find((k) => k.toLowerCase() === path.toLowerCase());
  if (same) return same;
  const seg = path.split('.');
  const who = seg[0] === 'characters' ? [1] : seg[0] === 'relationships' ? [1, 2] : [];
  for (const i of who) if (seg[i]) seg[i] = r.character(seg[i]) ?? seg[i];
  const out = seg.join('.');
  return known.find((k) => k.toLowerCase() === out.toLowerCase()) ?? out;
}

export function normaliseEvents(value: unknown, r: Resolver, ctx: NormaliseContext, notes: Normalisation[]): unknown {
  if (!Array.isArray(value)) return value;
  const events: unknown[] = structuredClone(value);
  events.forEach((e, i) => {
    if (!isObj(e)) return;
    const run: Run = { r, notes, where: `event ${typeof e.id === 'string' ? e.id : `#${i + 1}`}` };
    if (typeof e.type === 'string' && !EVENT_TYPES.has(e.type) && EVENT_TYPES.has(e.type.trim().toLowerCase())) {
      note(run, 'id_resolved', `type "${e.type}" read as "${e.type.trim().toLowerCase()}"`, 'the event type was written in another case');
      e.type = e.type.trim().toLowerCase();
    }
    resolveField(run, e, 'application_id', 'application');
    resolveField(run, e, 'operator_id', 'operator');
    resolveField(run, e, 'actor', 'character');
    resolveField(run, e, 'target', 'character');
    if (e.deltas === undefined || e.deltas === null) {
      e.deltas = [];
      note(run, 'deltas_missing', 'read the event without "deltas" as changing nothing (deltas: [])', 'an event that lists no change depicts no change');
    }
    if (isObj(e.deltas) && 'path' in e.deltas) {
      e.deltas = [e.deltas];
      note(run, 'list_unwrapped', 'read the one delta given without a list as a list of one', 'one delta was given without the list around it');
    }
    if (Array.isArray(e.deltas)) for (const d of e.deltas) if (isObj(d)) normaliseDelta(run, d, ctx);
    dropUnknown(run, e, EVENT_FIELDS, 'event');
  });
  deriveBookkeeping(events, ctx, notes);
  return events;
}

/**
 * The plan's bookkeeping deltas (when a thread last progressed) that the answer left out are added
 * to the first event aligned to their application: Aureus derives them, the model is not asked to.
 */
function deriveBookkeeping(events: unknown[], ctx: NormaliseContext, notes: Normalisation[]): void {
  for (const req of ctx.packet.constraints.required_deltas) {
    if (!isBookkeeping(req.path) || !req.application_id) continue;
    const aligned = events.filter((e): e is Obj & { deltas: Obj[] } => isObj(e) && e.application_id === req.application_id && Array.isArray(e.deltas));
    if (!aligned.length || aligned.some((e) => e.deltas.some((d) => isObj(d) && d.path === req.path))) continue;
    const { application_id: _a, ...delta } = req;
    aligned[0].deltas.push({ ...delta });
    notes.push({
      code: 'bookkeeping_derived',
      what: `event ${String(aligned[0].id)}: added ${req.path} ${req.op} ${String(req.value)} of application ${req.application_id}`,
      why: 'bookkeeping of the plan, derived by Aureus rather than demanded from the model',
    });
  }
}
