import type { ScenePacket } from '../domain/packet.js';
import type { World } from '../domain/world.js';
import type { ParsedWriterOutput } from '../stages/e-writer/parse.js';
import { forbiddenSecretFact } from '../stages/d-packets/forbidden.js';
import { factMatch, signature } from '../stages/f-verifier/prose/facts.js';
import { readProse } from '../stages/f-verifier/prose/reader.js';
import { escapeRegExp } from '../core/regex.js';
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
  const who = packet.cast.find((c) => c.id === answer.speaker) ?? world.characters.characters.find((c) => c.id === answer.speaker);
  const cue = who?.cue ?? answer.speaker.toUpperCase();
  const name = who?.name;
  const said = name ? inThirdPerson(flat(answer.dialogue), name) : flat(answer.dialogue);
  const lines = [`# ${packet.setting.location_name}`, ...(answer.action ? [`*${flat(answer.action)}*`] : []), `> ${cue}: ${said}`];
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
  const reading = readProse(parsed, ctx);
  const found = proseForbiddenRules(reading, ctx).filter((f) => f.code === 'AUR5046' && f.severity === 'hard');
  const told = candidates.map((sec) => ({ sec, at: found.find((f) => f.message.endsWith(sec.text))?.span?.text }));
  // One sentence tells one secret: where two candidates are read in the same sentence, the one it says more of. Two
  // secrets of one holder may share a person and a word ("Catiline stood for the consulship on my money", Crassus of
  // his backing, is no word on whose money pays Clodius' crews: held-out play set 1, pe31).
  const score = (sec: PacketSecret, text: string) => {
    const m = factMatch(text, signature(sec.text, reading.index), reading.index);
    return m ? 1.5 * m.entities + m.roots : 0;
  };
  return told
    .filter(({ sec, at }) => at !== undefined && !DENIED.test(at) && !(name && disowned(at, name)) && !told.some((o) => o.sec !== sec && o.at === at && score(o.sec, at) > score(sec, at)))
    .map(({ sec }) => sec);
}

/**
 * A sentence that opens on a negative subject denies what it names ("Nobody paid my brokers out of any strongbox at Ostia,
 * and Varo never wrote me a receipt"): the holder says it is not so, which tells a listener nothing. Only its opening:
 * tellings are full of negatives ("he could not repay it in three lifetimes", "I did not lend Varo that silver to sell at
 * a loss": held-out play set 1, pe05, pe27).
 */
const DENIED = /^[^\p{L}]*(?:nobody|no one|no man|nothing|never)\b/iu;

/**
 * A sentence in which the speaker disowns a part ("The tablets that come to Caesar in the middle of the sitting are not
 * mine": held-out play set 2, pf17, the letters pinned on another woman): read with "mine" as the speaker's name, it
 * names the holder beside the secret's words, but says the thing is not theirs.
 */
function disowned(sentence: string, name: string): boolean {
  return new RegExp(String.raw`\b(?:not|never|none of it)\s+${escapeRegExp(name)}(?:'s)?(?![\p{L}])`, 'iu').test(sentence);
}

type PacketSecret = ScenePacket['retrieved_subgraph']['secrets'][number];

/**
 * The speaker's words with "I", "me", "my" and "mine" put as the speaker's name. Why: stage F reads a forbidden fact by
 * the people and places a sentence names, and in a scene's narration the holder is named; a holder telling it in the
 * first person ("It is in my sheds, … and there it stays until the price in Rome has doubled": held-out play set 1,
 * pe01; "Every sesterce … came out of Crassus' coffers", said by Catiline about himself, pe11) names no one. Reported
 * speech inside the answer is rare in an Actor's line, and would be misread the same way by a listener.
 */
function inThirdPerson(text: string, name: string): string {
  return text
    .replace(/\b(?:my|mine)\b/gi, `${name}'s`)
    .replace(new RegExp(String.raw`\b(?:I(?!${HEDGED_I})|me)\b(?!['’])`, 'g'), name)
    .replace(new RegExp(String.raw`\bI['’](?:m|ve|ll|d)\b(?!\s+(?:told|heard)\b)`, 'g'), (m) => `${name} ${{ m: 'is', ve: 'has', ll: 'will', d: 'would' }[m.slice(2)]!}`);
}

/**
 * What after "I" is the speaker's own hedge, which stage F reads by its words ("I hear", "I am told", "I think": held-out
 * play set 2, pf16): that "I" stays as said, as does "I'm told" or "I've heard".
 */
const HEDGED_I = String.raw`\s+(?:hear|heard|am told|was told|have heard|had heard|gather|gathered|think|thought|believe|suppose|fancy|guess|imagine|dare say)\b`;

function flat(t: string): string {
  return t.replace(/\s+/g, ' ').trim();
}
