import type { ResolvedDelta } from '../../../domain/delta.js';
import type { PacketInstruction } from '../../../domain/packet.js';
import type { Finding, SceneEvent } from '../../../domain/scene.js';
import { formatDenarii } from '../../../core/readable.js';
import { finding, type VerifyContext } from '../context.js';
import type { Reading } from '../prose/reader.js';
import { moneyNamed, paymentShown } from '../prose/payment.js';
import { secretToldIn } from '../prose/beats.js';
import { paymentWithheld, secretWithheld } from '../prose/withheld.js';
import { sameDelta } from './deltas.js';
import { spanOf } from '../prose/span.js';

/** How many adjacent sentences a telling may run over: a line of speech split at every stop. */
const TELLING_RUN = 4;

/** What the prose shows of a change: shown, or not shown and how sure that is. */
export type Shown = 'shown' | 'doubtful' | 'missing';

/**
 * A required change declared in SCENE_EVENTS that the prose never shows (AUR5037). The events are what the
 * commit applies; the prose is what the audience sees. A payment or a secret told that the Writer left out, or a
 * showrunner's `scene edit` cut, while the event still lists it would change the ledger or who knows what with
 * nothing on stage. Read only where a change has a trace in words the verifier already reads — money paid
 * (prose/payment.ts, as the overspend rule reads it) and a secret put into words (prose/beats.ts, as the rule on a
 * failing beat's secret reads it) — and only for beats planned to succeed (a failing beat's changes are its
 * consequences, which the outcome rule reads). Other changes (a loyalty, a standing, a thread) have no one form in
 * prose and are the critic's.
 *
 * A finding only when the absence is certain: a false "not shown" that blocks a commit is expensive, and the readers
 * are built to say "yes" only when sure (their other rules must not fail a doubtful scene). So a payment is a hard
 * finding when no sentence of the scene names money or a verb that is paying at all. A doubtful reading (a payment
 * promised, refused, imagined or only named; a secret not found told) is no finding: on the held-out corpora's clean
 * scenes, answers a real model wrote with the beat shown, the readers miss a shown payment or telling too often for a
 * warning to mean anything (beatsShown still gives it, for the fixture's near misses and for a later, surer reader).
 */
export function proseBeatRules(r: Reading, ctx: VerifyContext, events: readonly SceneEvent[]): Finding[] {
  // Only whether a change is missing or kept off the stage in words is asked: cheaper than how it is shown.
  return beatTraces(r, ctx, events).flatMap((b) => {
    const gap = b.gap();
    return gap ? [finding('AUR5037', gap.severity, ctx.packet.scene_id, 'prose.beat_not_shown', args(b.app, b.event, b.label), gap.at ? spanOf(gap.at) : undefined)] : [];
  });
}

/** Each required change of a beat planned to succeed that an event declares and the prose can be read for: what it is and how it is shown. */
export function beatsShown(r: Reading, ctx: VerifyContext, events: readonly SceneEvent[]): { app: PacketInstruction; event: SceneEvent; label: string; shown: Shown }[] {
  return beatTraces(r, ctx, events).map(({ app, event, label, shown }) => ({ app, event, label, shown: shown() }));
}

/** The required changes beatsShown judges, each with its reading left to be made (`shown`). */
function beatTraces(r: Reading, ctx: VerifyContext, events: readonly SceneEvent[]): ({ app: PacketInstruction; event: SceneEvent } & Trace)[] {
  const pk = ctx.packet;
  const out: ({ app: PacketInstruction; event: SceneEvent } & Trace)[] = [];
  for (const app of pk.director_instructions.sequence) {
    if (app.outcome !== 'success') continue;
    for (const d of pk.constraints.required_deltas.filter((x) => x.application_id === app.application_id)) {
      const what = traceOf(d, ctx, r);
      if (!what) continue;
      // Declared: an event of this application carries the change (else AUR5031 already says it is missing).
      const event = events.find((x) => x.application_id === app.application_id && (x.deltas ?? []).some((y) => sameDelta(y, d)));
      if (event) out.push({ app, event, ...what });
    }
  }
  return out;
}

function args(app: PacketInstruction, e: SceneEvent, what: string): Record<string, string> {
  return { beat: app.beat_id, operator: app.operator_name, event: e.id, what, directive: app.narrative_directive.replace(/[.\s]+$/, '') };
}

/**
 * A change the prose can be read for: what to call it, how it is shown, and `gap`, the finding its reading gives:
 * 'hard' when it is surely missing or the prose denies it, 'soft' when the prose only puts it off, else null.
 */
interface Trace {
  label: string;
  shown: () => Shown;
  gap: () => Gap | null;
}

/** A finding's severity, and the sentence that keeps the change off the stage when one does. */
interface Gap {
  severity: 'hard' | 'soft';
  at?: { line: number; text: string };
}

/** A required change with a trace the prose can be read for; null for other changes. */
function traceOf(d: ResolvedDelta, ctx: VerifyContext, r: Reading): Trace | null {
  const pk = ctx.packet;
  const nameOf = (id: string | undefined) => (id ? (r.index.byId.get(pk.retrieved_subgraph.accounts.find((a) => a.id === id)?.owner ?? id)?.name ?? id.replace(/_/g, ' ')) : '?');
  if (d.op === 'transfer' && d.path === 'assets.cash_ledger') {
    const label = `the payment of ${formatDenarii(d.amount ?? 0)} from ${nameOf(d.from)} to ${nameOf(d.to)}`;
    const payer = pk.retrieved_subgraph.accounts.find((a) => a.id === d.from)?.owner ?? d.from ?? '';
    const gap = (): Gap | null => {
      if (!moneyNamed(r)) return { severity: 'hard' };
      if (paymentShown(r) === 'paid') return null;
      // Denied by its payer, the ledger would commit what the prose says did not happen; put off, it is only not shown yet.
      const kept = paymentWithheld(r, payer, d.amount ?? 0);
      return kept ? { severity: kept.how === 'refused' ? 'hard' : 'soft', at: kept.sentence } : null;
    };
    return { label, shown: () => ({ paid: 'shown', talked: 'doubtful', none: 'missing' } as const)[paymentShown(r)], gap };
  }
  const m = /^secrets\.([a-z0-9_]+)\.(holders|status)$/.exec(d.path);
  const sec = m ? pk.retrieved_subgraph.secrets.find((s) => s.id === m[1]) : undefined;
  if (!m || !sec) return null;
  const shown = (): Shown => (secretToldIn(r, sec, TELLING_RUN, ctx) ? 'shown' : 'doubtful');
  // A telling no reader finds is no finding (see proseBeatRules); the prose saying the secret is kept is.
  const gap = (): Gap | null => {
    if (shown() === 'shown') return null;
    // Said to be kept, the secret contradicts the event; a telling denied may deny another telling than this one.
    const kept = secretWithheld(r);
    return kept ? { severity: kept.how === 'kept' ? 'hard' : 'soft', at: kept.sentence } : null;
  };
  if (m[2] === 'holders' && d.op === 'add' && typeof d.value === 'string') return { label: `the secret ${sec.id} told to ${nameOf(d.value)}`, shown, gap };
  if (m[2] === 'status' && d.op === 'set' && (d.value === 'revealed' || d.value === 'rumored')) {
    return { label: `the secret ${sec.id} ${d.value === 'rumored' ? 'spread as a rumour' : 'made public'}`, shown, gap };
  }
  return null;
}
