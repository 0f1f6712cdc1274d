import { diag, type Diagnostic } from '../diagnostics/index.js';
import '../diagnostics/codes/core.js';
import { WORLD_FILES, type Effect, type World } from '../domain/world.js';
import { checkOp, expandRolePath, parsePath, type PathTarget } from '../core/deltas/paths.js';
import { operatorRoleKinds } from '../core/expr/prereqs.js';
import { deltaField, fieldKey, fieldMode, type DeltaField, type FieldMode } from '../schemas/delta-fields.js';
import { validatorFor } from '../schemas/validators.js';
import { schemaDiagnostics } from './schema.js';

/**
 * The literal values of operator effects against the world schema of the field each path writes
 * (schemas/delta-fields.ts): a flag "Reconciled Friends", a status "banished", a stat set to 150 or
 * a string added to a weight would otherwise pass `validate` and surface only when a run applies the
 * operator (stage H's AUR6026 then refuses the commit, or the engine AUR2022). Run with the reference
 * checks, once every file is schema-valid, so each finding gets its line:column in operators.json.
 *
 * Skipped on purpose: `{"expr": …}` values and amounts (their value exists only at run time; their
 * type is core/expr/check.ts's), and paths or ops that do not parse or are not allowed there
 * (AUR2020/AUR2021/AUR2024 from core/expr/check.ts say so already). A literal value is never a role
 * reference (docs/paths.md: a role's id goes into a value by an expression), so there is none to skip.
 */
export function checkEffectValues(world: World): Diagnostic[] {
  const out: Diagnostic[] = [];
  (world.operators?.operators ?? []).forEach((op, i) => {
    const kinds = operatorRoleKinds(op);
    // Role-relative paths are resolved with each role bound to a placeholder id (its own name), as check.ts does.
    const roles = new Map(Object.entries(kinds).map(([r, kind]) => [r, { kind, id: r }]));
    const check = (e: Effect, ptr: string) => {
      const exp = expandRolePath(String(e?.path), roles);
      const parsed = exp.ok ? parsePath(exp.path) : null;
      if (!parsed?.ok || checkOp(String(e.path), parsed.target, e.op)) return;
      // A transfer between one account and itself (the same role or id on both sides) is AUR2022 whenever it applies:
      // the operator's every application failed at run time, which the Director could only say as "no operator's
      // prerequisites hold" (AUR3001), naming neither the effect nor the rule.
      if (e.op === 'transfer' && typeof e.from === 'string' && e.from === e.to) {
        out.push(diag('AUR2022', { path: String(e.path), detail: `a transfer needs two different accounts, and from and to are both ${JSON.stringify(e.from)}` }, { file: WORLD_FILES.operators, pointer: `${ptr}/to` }));
        return;
      }
      const slot = e.op === 'transfer' ? 'amount' : 'value';
      const v = e[slot] as unknown;
      if (v === undefined || (v !== null && typeof v === 'object')) return;
      const bad = checkOne(v, parsed.target, e.op, String(e.path), `${ptr}/${slot}`);
      if (bad) out.push(bad);
    };
    (op.effects ?? []).forEach((e, k) => check(e, `/operators/${i}/effects/${k}`));
    (op.side_effect_risks ?? []).forEach((r, k) => (r.effects ?? []).forEach((e, m) => check(e, `/operators/${i}/side_effect_risks/${k}/effects/${m}`)));
  });
  return out;
}

/** One literal value against its field's validator: null when it fits, else one AUR2028 with every rule it breaks. */
function checkOne(value: unknown, target: PathTarget, op: string, path: string, pointer: string): Diagnostic | null {
  const field = deltaField(target);
  const mode = fieldMode(target, op);
  const found = schemaDiagnostics(validatorFor(fieldKey(field, mode)), value, WORLD_FILES.operators, `schemas/${field.file}`);
  if (!found.length) return null;
  const json = JSON.stringify(value);
  return diag(
    'AUR2028',
    {
      value: json.length > 60 ? json.slice(0, 57) + '…' : json,
      path,
      field: describeField(field, mode),
      rule: found.map((d) => d.message).join('; '),
      fix: found.map((d) => d.hint ?? '').filter(Boolean).join('; ') || 'change the value',
      target: field.file.replace('.schema.json', '.json'),
    },
    { file: WORLD_FILES.operators, pointer },
  );
}

/** "an item of flags in world/relationships.json", "a change to wealth in world/characters.json". */
function describeField(f: DeltaField, mode: FieldMode): string {
  const segs = f.pointer.split('/');
  const item = segs[segs.length - 1] === 'items';
  const name = segs[segs.length - (item ? 2 : 1)];
  const kind = f.file.replace('.schema.json', '') as keyof typeof WORLD_FILES;
  const where = WORLD_FILES[kind] ?? f.file;
  return `${mode === 'type' ? 'a change to ' : item ? 'an item of ' : ''}${name} in ${where}`;
}
