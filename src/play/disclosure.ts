import type { ScenePacket } from '../domain/packet.js';
import type { World } from '../domain/world.js';
import type { ParsedWriterOutput } from '../stages/e-writer/parse.js';
import { forbiddenSecretFact } from '../stages/d-packets/forbidden.js';
import { readProse } from '../stages/f-verifier/prose/reader.js';
import { proseForbiddenRules } from '../stages/f-verifier/rules/prose-facts.js';
import { worldVerifyContext } from '../stages/f-verifier/world-context.js';
import type { ActorAnswer } from './types.js';

/**
 * Which of the speaker's secrets an Actor's answer tells those who hear it (the principal and the
 * rest of the cast on stage): each one some listener does not hold yet. Judged on the answer
 * alone (what the user asks reveals nothing: "what did you discover?" is a question, not an
 * answer), by stage F's own reading of a forbidden fact in prose (AUR5046): each secret the
 * speaker holds and a listener does not is put to the reader as a forbidden fact, and only a
 * sure finding — the secret stated as fact, in paraphrase or not, not denied, hedged as rumour or
 * asked back — counts as told. What the character thinks (`internal`) is never said aloud, so
 * it is not read.
 */
export function disclosedSecrets(world: World, packet: ScenePacket, listeners: readonly string[], answer: ActorAnswer): PacketSecret[] {
  const candidates = packet.retrieved_subgraph.secrets.filter((s) => s.holders.includes(answer.speaker) && listeners.some((l) => !s.holders.includes(l)) && s.status !== 'inert');
  if (!candidates.length || !answer.dialogue.trim()) return [];
  const cue = packet.cast.find((c) => c.id === answer.speaker)?.cue ?? world.characters.characters.find((c) => c.id === answer.speaker)?.cue ?? answer.speaker.toUpperCase();
  const lines = [`# ${packet.setting.location_name}`, ...(answer.action ? [`*${flat(answer.action)}*`] : []), `> ${cue}: ${flat(answer.dialogue)}`];
  const parsed: ParsedWriterOutput = {
    scene_text: lines.join('\n'), claims: [], events: [], parse_findings: [], text_first_line: 1,
    found: { text: true, claims: false, events: false }, claims_raw: [], events_raw: [],
    claims_section: { text: '', first: 0 }, normalisations: [],
  };
  // The candidates are the packet's only forbidden facts, and no beat of it tells a secret: a secret
  // the cast may tell (one the principal already holds) still outscores a candidate it resembles.
  const probe: ScenePacket = {
    ...packet,
    director_instructions: { ...packet.director_instructions, sequence: [] },
    constraints: { ...packet.constraints, forbidden_facts: candidates.map((s) => forbiddenSecretFact(s.text)), required_deltas: [] },
  };
  const ctx = { ...worldVerifyContext(world, []), packet: probe };
  const found = proseForbiddenRules(readProse(parsed, ctx), ctx).filter((f) => f.code === 'AUR5046' && f.severity === 'hard');
  return candidates.filter((s) => found.some((f) => f.message.endsWith(s.text)));
}

type PacketSecret = ScenePacket['retrieved_subgraph']['secrets'][number];

function flat(t: string): string {
  return t.replace(/\s+/g, ' ').trim();
}
