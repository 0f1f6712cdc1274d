import type { ParsedWriterOutput } from '../stages/e-writer/parse.js';
import { verifyParsed } from '../stages/f-verifier/verify.js';
import { worldVerifyContext } from '../stages/f-verifier/world-context.js';
import type { LexiconEntry } from '../stages/e-writer/types.js';
import type { ScenePacket, PacketInstruction } from '../domain/packet.js';
import type { Claim, Finding, SceneEvent } from '../domain/scene.js';
import type { World } from '../domain/world.js';
import type { PlayState } from './state.js';
import type { Proposal } from './types.js';

export interface ProposalVerdict {
  /** Proposal id → the stage F finding(s) that reject it. */
  rejected: Map<string, string>;
  /** Claim proposals stage F keeps as canon, and those it keeps only as the cast's belief. */
  canonClaims: Set<string>;
  /** Hard findings about the scene that name no proposal and no turn (e.g. a teleport): reported, not binding. */
  scene: Finding[];
}

/**
 * Stage F on the staged proposals (seed 004: "evaluate proposals" before canon is written). The
 * session becomes a scene under test, judged by stage F's own entry point (verifyParsed) against
 * the world as it is at canonization: the transcript is the scene text (one `> CUE: words` line per
 * turn), the pending claims are its CLAIMS, and each pending delta is a SCENE_EVENTS event by the
 * character who brings it about. Each delta is declared as its own application of the session in
 * the packet the rules read, so the plan-compliance rules hold the events to exactly what was
 * staged; every other rule runs as for a compiled scene: schema, the dead and the cast (speakers and
 * actors), the ledger, claims against canon and hidden secrets, anachronisms in the cast's lines.
 *
 * A hard finding that names a proposal (its event or claim id) rejects it; one on a line of the
 * transcript rejects the proposals that line's turn supports. The user's own words are not held to
 * the lexicon (the user is not the writer). Soft findings change nothing.
 */
export function verifyProposals(world: World, packet: ScenePacket, s: PlayState, pending: Proposal[], lexicon: LexiconEntry[]): ProposalVerdict {
  const deltas = pending.filter((p) => p.kind === 'delta' && p.delta);
  const claims = pending.filter((p) => p.kind === 'claim' && p.claim);
  const { text, lineTurn, userLines } = sceneText(world, packet, s);
  const events: SceneEvent[] = deltas.map((p) => ({ id: p.id, type: 'action', application_id: p.id, ...(p.actor ? { actor: p.actor } : {}), deltas: [p.delta!], text: p.reason }));
  const claimList: Claim[] = claims.map((p) => p.claim!);
  const parsed: ParsedWriterOutput = {
    scene_text: text, claims: claimList, events, parse_findings: [], text_first_line: 1,
    found: { text: true, claims: true, events: true }, claims_raw: claimList, events_raw: events,
    // Built from the session's proposals, not read from a model's answer: nothing to normalise.
    claims_section: { text: '', first: 0 }, normalisations: [],
  };
  // No minimum length: the transcript grows turn by turn, and a short one is not a stub scene.
  const v = verifyParsed(parsed, { ...worldVerifyContext(world, lexicon), packet: asApplications(packet, deltas), min_scene_words: 0 });
  const out: ProposalVerdict = { rejected: new Map(), canonClaims: new Set(), scene: [] };
  const reject = (id: string, f: Finding) => out.rejected.set(id, [out.rejected.get(id), `${f.code} ${f.message}`].filter(Boolean).join('; '));
  for (const f of v.findings.filter((x) => x.severity === 'hard')) {
    const named = pending.filter((p) => names(f, p.kind === 'claim' ? p.claim!.id : p.id));
    const turn = f.span ? lineTurn.get(f.span.line) : undefined;
    if (named.length) named.forEach((p) => reject(p.id, f));
    else if (turn && f.code === 'AUR5050' && userLines.has(f.span!.line)) continue;
    else if (turn) pending.filter((p) => p.turns.includes(turn)).forEach((p) => reject(p.id, f));
    else out.scene.push(f);
  }
  for (const p of claims) if (!out.rejected.has(p.id) && v.accepted_claims.some((c) => c.id === p.claim!.id)) out.canonClaims.add(p.id);
  return out;
}

/** Whether a finding names this id (as a word: p1 is not p10). */
function names(f: Finding, id: string): boolean {
  const re = new RegExp(`(^|[^a-z0-9_])${id.replace(/[^a-z0-9_]/gi, '')}($|[^a-z0-9_])`, 'i');
  return re.test(f.message) || re.test(f.fix);
}

/** The transcript in stage F's canonical dialogue form, with the turn of every line. */
function sceneText(world: World, packet: ScenePacket, s: PlayState): { text: string; lineTurn: Map<number, string>; userLines: Set<number> } {
  const cue = (id: string) => packet.cast.find((c) => c.id === id)?.cue ?? world.characters.characters.find((c) => c.id === id)?.cue ?? id.toUpperCase();
  const lines: string[] = [`# ${packet.setting.location_name}`];
  const lineTurn = new Map<number, string>();
  const userLines = new Set<number>();
  const add = (t: string, turn: string) => {
    lines.push(t.replace(/\s+/g, ' '));
    lineTurn.set(lines.length, turn);
  };
  for (const e of s.exchanges) {
    add(`> ${cue(s.setup.principal)}: ${e.user}`, e.user_id);
    userLines.add(lines.length);
    if (e.answer.action) add(`*${e.answer.action}*`, e.actor_id);
    if (e.answer.dialogue) add(`> ${cue(e.answer.speaker)}: ${e.answer.dialogue}`, e.actor_id);
  }
  return { text: lines.join('\n'), lineTurn, userLines };
}

/** The packet with each staged delta as a planned application of the session (what the plan rules hold events to). */
function asApplications(packet: ScenePacket, deltas: Proposal[]): ScenePacket {
  const sequence: PacketInstruction[] = deltas.map((p) => ({
    beat_id: 'play', application_id: p.id, tag: null, operator_id: 'play', operator_name: `play proposal ${p.id}`, type: 'soap',
    bindings: (p.actor ? { actor: p.actor } : {}) as Record<string, string>, outcome: 'success', narrative_directive: p.reason, visual_cues: [], triggered_risks: [],
  }));
  return {
    ...packet,
    director_instructions: { ...packet.director_instructions, sequence },
    constraints: { ...packet.constraints, required_deltas: deltas.map((p) => ({ ...p.delta!, application_id: p.id })) },
  };
}
