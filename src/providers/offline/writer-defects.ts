import { Rng } from '../../core/rng.js';
import type { ScenePacket } from '../../domain/packet.js';
import { type WriterPayload } from '../../stages/e-writer/types.js';
import { Draft, cap, fmt } from './writer-draft.js';
import { cueOf, heading, names } from './writer-names.js';

/** Planted defects (chaos): the mistakes real models make, so the verify/repair loop can be watched working. */

export type DefectKind =
  | 'dead_speaks'
  | 'anachronism'
  | 'missing_delta'
  | 'teleport'
  | 'overspend'
  | 'malformed_claims'
  | 'missing_section'
  | 'no_hook'
  | 'dead_acts_prose'
  | 'teleport_prose'
  | 'overspend_prose';

export const DEFECT_KINDS: readonly DefectKind[] = ['dead_speaks', 'anachronism', 'missing_delta', 'teleport', 'overspend', 'malformed_claims', 'missing_section', 'no_hook', 'dead_acts_prose', 'teleport_prose', 'overspend_prose'];

/** Finding codes each defect trips; a repair prompt prohibiting a code stops that defect. */
export const DEFECT_CODES: Record<DefectKind, string[]> = {
  dead_speaks: ['AUR5010'],
  anachronism: ['AUR5050'],
  missing_delta: ['AUR5031'],
  teleport: ['AUR5012', 'AUR5014'],
  overspend: ['AUR5020', 'AUR5032'],
  malformed_claims: ['AUR5002'],
  missing_section: ['AUR5001'],
  no_hook: ['AUR5060', 'AUR5061'],
  // Issue 14: the same mistakes told only in the narration, which only the prose reader sees.
  dead_acts_prose: ['AUR5015'],
  teleport_prose: ['AUR5017'],
  overspend_prose: ['AUR5022'],
};

/**
 * Chaos rate per attempt: the full rate on the first draft, a third of it on the first
 * regeneration, none after that (escalated and simplified rewrites come out clean), so the
 * repair loop converges within its budget.
 */
export function chaosRateFor(attempt: number, chaos: number): number {
  if (attempt <= 1) return chaos;
  if (attempt === 2) return chaos / 3;
  return 0;
}

export function safeParse(s: string | undefined): unknown[] {
  try {
    const v = JSON.parse(s ?? '[]');
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

// ---------------------------------------------------------------------------------------------
// Chaos: defects planted the way a model makes them.

export function feasible(kind: DefectKind, p: WriterPayload, d: Draft): boolean {
  const pk = p.packet;
  switch (kind) {
    case 'dead_speaks':
    case 'dead_acts_prose':
      return pk.dead.length > 0;
    case 'teleport_prose':
      return pk.cast.length > 1 && elsewhereFor(pk) !== undefined;
    case 'anachronism':
      return p.lexicon.length > 0;
    case 'missing_delta':
      return d.events.some((e) => e.deltas.length > 0);
    case 'teleport':
      return teleportCandidates(pk).length > 0;
    case 'overspend':
    case 'overspend_prose':
      return pk.retrieved_subgraph.accounts.some((a) => pk.cast.some((c) => c.id === a.owner || c.id === a.id)) && pk.cast.length > 1;
    default:
      return true;
  }
}

export function teleportCandidates(pk: ScenePacket) {
  const cast = new Set(pk.cast.map((c) => c.id));
  const castCues = new Set(pk.cast.flatMap((c) => [c.cue.toUpperCase(), ...c.name.toUpperCase().split(/\s+/)]));
  return pk.retrieved_subgraph.characters.filter(
    (c) => !cast.has(c.id) && c.status === 'alive' && c.location !== pk.setting.location && !castCues.has(c.name.split(/\s+/).pop()!.toUpperCase()),
  );
}

/** Towns a day or more from Rome, for a cast member cut away to mid-scene; never the scene's own place. */
const ELSEWHERE = ['Ostia', 'Tusculum', 'Praeneste', 'Antium', 'Tibur'];

function elsewhereFor(pk: ScenePacket): string | undefined {
  const here = `${pk.setting.location} ${pk.setting.location_name}`.toLowerCase();
  return ELSEWHERE.find((t) => !here.includes(t.toLowerCase()));
}

/**
 * A prose-only defect, one narration line: a dead man acting on stage, a cast member placed in another
 * town mid-scene, a payment beyond the payer's purse with no event for it. Only the prose reader sees them.
 */
function proseDefect(kind: 'dead_acts_prose' | 'teleport_prose' | 'overspend_prose', pk: ScenePacket, rng: Rng): string {
  if (kind === 'dead_acts_prose') {
    const ghost = rng.pick(pk.dead);
    return `${ghost.name} ${rng.pick(['crosses to the brazier and holds both hands out to the coals.', 'laughs softly from the doorway and folds both arms.', 'sits down on the nearest bench as if invited.'])}`;
  }
  if (kind === 'teleport_prose') {
    const who = pk.cast[1 + rng.int(pk.cast.length - 1)];
    return `Meanwhile, at ${elsewhereFor(pk)}, ${who.name} ${rng.pick(['walks the quay and counts the grain ships.', 'reads the morning letters in a borrowed garden.', 'waits by the town gate for a rider from Rome.'])}`;
  }
  const acct = rng.pick(pk.retrieved_subgraph.accounts.filter((a) => pk.cast.some((c) => c.id === a.owner || c.id === a.id)));
  const payer = pk.cast.find((c) => c.id === acct.owner || c.id === acct.id)!;
  const payee = pk.cast.find((c) => c.id !== payer.id)!;
  return `${payer.name} counts out ${fmt(acct.denarii + 1000 * (1 + rng.int(5)))} denarii for ${payee.name}, coin by coin, on the table between them.`;
}

export function plantDefect(d: Draft, p: WriterPayload, rng: Rng, forced?: DefectKind): void {
  const prohibited = new Set(p.prohibited_codes);
  const kinds = DEFECT_KINDS.filter((k) => feasible(k, p, d) && !DEFECT_CODES[k].some((c) => prohibited.has(c)));
  if (forced && !feasible(forced, p, d)) return;
  if (!forced && !kinds.length) return;
  const kind = forced ?? rng.pick(kinds);
  const pk = p.packet;
  // Somewhere after the opening paragraph (heading, blank, cast, blank, opening, blank) and before the hook.
  const mid = Math.min(d.hookIndex - 1, 6 + rng.int(Math.max(1, d.hookIndex - 7)));
  switch (kind) {
    case 'dead_speaks': {
      const ghost = rng.pick(pk.dead);
      d.lines.splice(mid, 0, `> ${ghost.cue.toUpperCase()}: You thought you were rid of me?`);
      break;
    }
    case 'anachronism': {
      const e = rng.pick(p.lexicon);
      const who = rng.pick(pk.cast);
      const t = rng.pick([`> ${cueOf(who)}: ${cap(e.forbidden)}. That is all I will say.`, `${who.name} thinks of the ${e.forbidden}, and says nothing.`, `> ${cueOf(who)}: No more talk of ${e.forbidden}, not tonight.`]);
      d.lines.splice(mid, 0, t);
      d.planted = t;
      break;
    }
    case 'missing_delta': {
      const ev = rng.pick(d.events.filter((e) => e.deltas.length > 0));
      ev.deltas.splice(rng.int(ev.deltas.length), 1);
      break;
    }
    case 'teleport': {
      const c = rng.pick(teleportCandidates(pk));
      const cue = c.name.split(/\s+/).pop()!.toUpperCase();
      d.lines.splice(mid, 0, `${c.name} steps out from behind a column.`, `> ${cue}: I came as soon as I heard.`);
      break;
    }
    case 'overspend': {
      const acct = rng.pick(pk.retrieved_subgraph.accounts.filter((a) => pk.cast.some((c) => c.id === a.owner || c.id === a.id)));
      const payer = pk.cast.find((c) => c.id === acct.owner || c.id === acct.id)!;
      const payee = pk.cast.find((c) => c.id !== payer.id)!;
      const amount = acct.denarii + 1000 * (1 + rng.int(5));
      d.lines.splice(mid, 0, `${payer.name} presses a fat purse into ${payee.name}'s hand: ${fmt(amount)} denarii, to keep things quiet.`);
      d.events.push({
        id: `e${d.events.length + 1}`,
        type: 'transfer',
        actor: payer.id,
        target: payee.id,
        deltas: [{ path: 'assets.cash_ledger', op: 'transfer', from: acct.id, to: payee.id, amount }],
        text: `${payer.name} bribes ${payee.name}.`,
      });
      break;
    }
    case 'malformed_claims': {
      const items = d.claims.length ? d.claims : [{ id: 'c1', kind: 'place_detail', text: `${pk.setting.location_name} is busier than usual.` }];
      d.claims = [];
      d.claimsText = items.map((c) => `- ${c.id} (${c.kind}): ${c.text}`).join('\n');
      break;
    }
    case 'missing_section':
      d.dropEvents = true;
      break;
    case 'dead_acts_prose':
    case 'teleport_prose':
    case 'overspend_prose':
      d.lines.splice(mid, 0, proseDefect(kind, pk, rng));
      break;
    case 'no_hook': {
      const names = pk.cast.map((c) => c.name).join(' and ');
      d.lines[d.hookIndex] = `In the end ${names} go their separate ways, each of them thinking about what was said and what was not said, and the ${pk.setting.location_name} slowly empties as the day wears on into evening and the lamps are lit one by one by the household slaves`;
      break;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Output
