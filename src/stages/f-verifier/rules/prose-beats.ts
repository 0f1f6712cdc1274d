import type { ResolvedDelta } from '../../../domain/delta.js';
import type { PacketInstruction } from '../../../domain/packet.js';
import type { Finding, SceneEvent } from '../../../domain/scene.js';
import { formatDenarii } from '../../../core/readable.js';
import { finding, type VerifyContext } from '../context.js';
import type { Reading } from '../prose/reader.js';
import { paymentShown, type Shown } from '../prose/payment-shown.js';
import { secretShown } from '../prose/secret-shown.js';
import { sameDelta } from './deltas.js';

/**
 * A required change declared in SCENE_EVENTS that the prose never shows (AUR5037). The events are
 * what the commit applies; the prose is what the audience sees. A payment or a secret told that the
 * Writer (or a showrunner's edit) cut from the prose while the event still lists it would change the
 * ledger or who knows what with nothing on stage: the recap and the next episodes would rest on a
 * scene nobody saw. Read only where a change has a sure trace in words — money changing hands, a
 * secret put into words — and only for beats planned to succeed (a failing beat's changes are its
 * consequences, which the outcome rule reads). Other changes (a loyalty, a standing, a thread's
 * progress) have no one form in prose and are left to the critic. Hard when nothing in the prose
 * shows the change; soft when only a doubtful sign does (money on the table with no verb that moves
 * it, a telling under a condition, a weak match).
 */
export function proseBeatRules(r: Reading, ctx: VerifyContext, events: readonly SceneEvent[]): Finding[] {
  const pk = ctx.packet;
  const out: Finding[] = [];
  for (const app of pk.director_instructions.sequence) {
    if (app.outcome !== 'success') continue;
    for (const d of pk.constraints.required_deltas.filter((x) => x.application_id === app.application_id)) {
      const what = traceOf(d, ctx, r);
      if (!what) continue;
      // Declared: an event of this application carries the change (else AUR5031 already says it is missing).
      const e = events.find((x) => x.application_id === app.application_id && (x.deltas ?? []).some((y) => sameDelta(y, d)));
      if (!e) continue;
      const shown = what.shown();
      if (shown === 'shown') continue;
      out.push(finding('AUR5037', shown === 'absent' ? 'hard' : 'soft', pk.scene_id, 'prose.beat_not_shown', args(app, e, what.label)));
    }
  }
  return out;
}

function args(app: PacketInstruction, e: SceneEvent, what: string): Record<string, string> {
  return { beat: app.beat_id, operator: app.operator_name, event: e.id, what, directive: app.narrative_directive.replace(/[.\s]+$/, '') };
}

/** A required change with a trace the prose can be read for, what to call it, and how it is shown; null for other changes. */
function traceOf(d: ResolvedDelta, ctx: VerifyContext, r: Reading): { label: string; shown: () => Shown } | null {
  const pk = ctx.packet;
  const nameOf = (id: string | undefined) => (id ? (r.index.byId.get(pk.retrieved_subgraph.accounts.find((a) => a.id === id)?.owner ?? id)?.name ?? id.replace(/_/g, ' ')) : '?');
  if (d.op === 'transfer' && d.path === 'assets.cash_ledger') {
    return { label: `the payment of ${formatDenarii(d.amount ?? 0)} from ${nameOf(d.from)} to ${nameOf(d.to)}`, shown: () => paymentShown(r, d.amount ?? 0) };
  }
  const m = /^secrets\.([a-z0-9_]+)\.(holders|status)$/.exec(d.path);
  const sec = m ? pk.retrieved_subgraph.secrets.find((s) => s.id === m[1]) : undefined;
  if (!m || !sec) return null;
  if (m[2] === 'holders' && d.op === 'add' && typeof d.value === 'string') {
    return { label: `the secret ${sec.id} told to ${nameOf(d.value)}`, shown: () => secretShown(r, sec, false) };
  }
  if (m[2] === 'status' && d.op === 'set' && (d.value === 'revealed' || d.value === 'rumored')) {
    const rumour = d.value === 'rumored';
    return { label: `the secret ${sec.id} ${rumour ? 'spread as a rumour' : 'made public'}`, shown: () => secretShown(r, sec, rumour) };
  }
  return null;
}
