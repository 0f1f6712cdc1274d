import type { ResolvedDelta } from '../../../domain/delta.js';
import type { Finding, SceneEvent } from '../../../domain/scene.js';
import { describeDelta } from '../../e-writer/prompt.js';
import { finding, type VerifyContext } from '../context.js';
import { formatAmount } from '../../../core/readable.js';

/** Numbers equal up to float noise (a model may write 0.30000000000000004 for 0.3). */
function sameNumber(a: unknown, b: unknown): boolean {
  return typeof a === 'number' && typeof b === 'number' ? Math.abs(a - b) < 1e-6 : a === b;
}

export function sameDelta(a: ResolvedDelta, b: ResolvedDelta): boolean {
  if (a.path !== b.path || a.op !== b.op) return false;
  if (a.op === 'transfer') return a.from === b.from && a.to === b.to && sameNumber(a.amount, b.amount);
  return sameNumber(a.value, b.value);
}

/**
 * Plan compliance and ledger rules over the events:
 * - every required delta appears in an event aligned to its application (AUR5031);
 * - no event names an application that is not planned here (AUR5033);
 * - no event depicts an application whose prerequisite is false on the projected state (AUR5030,
 *   from the plan's evaluated prereqs when the context has them);
 * - no event depicts a change beyond the required ones (AUR5032); for an application planned to
 *   fail, such a change is depicting it succeeding (AUR5034);
 * - transfers replayed against the packet's balances never go negative (AUR5020) and a required
 *   transfer is not listed twice (AUR5021).
 */
export function deltaRules(events: SceneEvent[], ctx: VerifyContext): Finding[] {
  const out: Finding[] = [];
  const pk = ctx.packet;
  const scene = pk.scene_id;
  const instr = new Map(pk.director_instructions.sequence.map((s) => [s.application_id, s]));
  const remaining = pk.constraints.required_deltas.map((d) => ({ d, app: d.application_id, used: false }));
  const known = [...instr.keys()].join(', ') || '(none)';

  const judged = new Set<string>();
  for (const e of events) {
    if (e.application_id && !instr.has(e.application_id)) {
      out.push(finding('AUR5033', 'hard', scene, 'plan.unknown_application', { event: e.id, application: e.application_id, known }));
      continue;
    }
    // An operator taking effect while a prerequisite is false on the projected state.
    const falsePre = e.application_id && (e.deltas ?? []).length ? ctx.prereqs?.[e.application_id]?.find((p) => !p.holds) : undefined;
    if (falsePre && !judged.has(e.application_id!)) {
      judged.add(e.application_id!);
      const ins = instr.get(e.application_id!)!;
      out.push(finding('AUR5030', 'hard', scene, 'plan.effects_without_prereqs', { event: e.id, operator: ins.operator_name, application: ins.application_id, expr: `\`${falsePre.expr}\`` }));
    }
    for (const d of e.deltas ?? []) {
      const slot = remaining.find((r) => !r.used && r.app === e.application_id && sameDelta(r.d, d));
      if (slot) {
        slot.used = true;
        continue;
      }
      // The same change listed under another application: reported once, as that one's missing delta.
      if (remaining.some((r) => !r.used && r.app !== e.application_id && sameDelta(r.d, d))) continue;
      if (d.op === 'transfer' && pk.constraints.required_deltas.some((r) => sameDelta(r, d))) {
        out.push(finding('AUR5021', 'hard', scene, 'ledger.double_spend', { event: e.id, from: d.from ?? '?', to: d.to ?? '?', amount: formatAmount(d.amount ?? 0) }));
        continue;
      }
      const ins = e.application_id ? instr.get(e.application_id) : undefined;
      if (ins && ins.outcome === 'fail') {
        out.push(
          finding('AUR5034', 'hard', scene, 'plan.fail_depicted_as_success', {
            event: e.id,
            operator: ins.operator_name,
            path: d.path,
            directive: ins.narrative_directive,
          }),
        );
      } else {
        out.push(finding('AUR5032', 'hard', scene, 'plan.unplanned_delta', { event: e.id, delta: describeDelta(d) }));
      }
    }
  }
  for (const r of remaining) {
    if (!r.used) out.push(finding('AUR5031', 'hard', scene, 'plan.required_delta_missing', { delta: describeDelta(r.d), application: r.app }));
  }
  out.push(...ledgerRules(events, ctx));
  return out;
}

/** Replays every ledger change in event order against the packet's account balances. */
export function ledgerRules(events: SceneEvent[], ctx: VerifyContext): Finding[] {
  const out: Finding[] = [];
  const bal = new Map(ctx.packet.retrieved_subgraph.accounts.map((a) => [a.id, a.denarii]));
  const debit = (e: SceneEvent, account: string | undefined, amount: number) => {
    if (!account || !bal.has(account)) return; // an account outside the packet cannot be checked here
    const before = bal.get(account)!;
    if (before - amount < 0) {
      out.push(finding('AUR5020', 'hard', ctx.packet.scene_id, 'ledger.overdraw', { event: e.id, account, balance: formatAmount(before), amount: formatAmount(amount) }));
    }
    bal.set(account, before - amount);
  };
  for (const e of events) {
    for (const d of e.deltas ?? []) {
      if (d.path === 'assets.cash_ledger' && d.op === 'transfer') {
        const amount = Number(d.amount ?? 0);
        debit(e, d.from, amount);
        if (d.to && bal.has(d.to)) bal.set(d.to, bal.get(d.to)! + amount);
      } else if (d.path.startsWith('assets.cash_ledger.') && typeof d.value === 'number') {
        const account = d.path.slice('assets.cash_ledger.'.length);
        if (d.op === 'subtract') debit(e, account, d.value);
        else if (d.op === 'add' && bal.has(account)) bal.set(account, bal.get(account)! + d.value);
      }
    }
  }
  return out;
}
