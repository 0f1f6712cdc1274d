import type { ScenePacket } from '../domain/packet.js';
import type { World } from '../domain/world.js';
import type { ParsedWriterOutput } from '../stages/e-writer/parse.js';
import { forbiddenSecretFact } from '../stages/d-packets/forbidden.js';
import { factMatch, signature } from '../stages/f-verifier/prose/facts.js';
import { readProse } from '../stages/f-verifier/prose/reader.js';
import { escapeRegExp } from '../core/regex.js';
import { personIndex } from '../stages/f-verifier/prose/names.js';
import { affirmedQuestion, flat, heardAs, type Exchange, type Person } from './exchange.js';
import type { VerifyContext } from '../stages/f-verifier/context.js';
import { proseForbiddenRules } from '../stages/f-verifier/rules/prose-facts.js';
import { worldVerifyContext } from '../stages/f-verifier/world-context.js';
import type { ActorAnswer } from './types.js';

/**
 * Which of the speaker's secrets an Actor's answer tells those who hear it (the principal and the
 * rest of the cast on stage): each one some listener does not hold yet. Judged on the answer
 * as heard in the exchange (exchange.ts: "you", "here", a "he" the user's line named, a bare "yes"
 * to it; what the user asks alone reveals nothing: "what did you discover?" is a question, not an
 * answer), by stage F's own reading of a forbidden fact in prose (AUR5046): each secret the
 * speaker holds and a listener does not is put to the reader as a forbidden fact, and only a
 * sure finding — the secret stated as fact, in paraphrase or not, not denied, hedged as rumour or
 * asked back — counts as told. What the character thinks (`internal`) is never said aloud, so
 * it is not read.
 */
export function disclosedSecrets(world: World, packet: ScenePacket, listeners: readonly string[], answer: ActorAnswer, userText = ''): PacketSecret[] {
  const candidates = packet.retrieved_subgraph.secrets.filter((s) => s.holders.includes(answer.speaker) && listeners.some((l) => !s.holders.includes(l)) && s.status !== 'inert');
  if (!candidates.length || !answer.dialogue.trim()) return [];
  const person = (id: string): Person | undefined => {
    const w = world.characters.characters.find((x) => x.id === id);
    const c = packet.cast.find((x) => x.id === id) ?? w;
    return c && { id: c.id, name: c.name, gender: c.gender ?? w?.gender };
  };
  const speaker = person(answer.speaker);
  const principal = listeners[0] !== undefined ? person(listeners[0]) : undefined;
  if (!speaker || !principal || IRONIC.test(answer.dialogue)) return [];
  const ctx = { ...worldVerifyContext(world, []), packet: probeOf(packet, candidates) };
  const cue = packet.cast.find((c) => c.id === answer.speaker)?.cue ?? world.characters.characters.find((c) => c.id === answer.speaker)?.cue ?? answer.speaker.toUpperCase();
  const x: Exchange = { speaker, principal, onStage: listeners.map(person).filter((p): p is Person => !!p), place: packet.setting.location_name ?? null, userText, index: personIndex(ctx), person };
  const told = toldIn(heardAs(answer.dialogue, x), candidates, { ctx, packet, cue, action: answer.action, name: speaker.name });
  // A bare "yes" to a line that carries the substance tells what that line says (exchange.ts affirmsAll), read apart.
  const affirmed = affirmedQuestion(answer.dialogue, x);
  const more = affirmed ? toldIn(affirmed, candidates, { ctx, packet, cue, action: '', name: speaker.name }) : [];
  return candidates.filter((c) => told.includes(c) || more.includes(c));
}

/** The candidates stage F reads as told, sure, in the words said: each in its own sentence, not denied, disowned or supposed. */
function toldIn(said: string, candidates: readonly PacketSecret[], o: { ctx: VerifyContext; packet: ScenePacket; cue: string; action: string; name: string }): PacketSecret[] {
  const lines = [`# ${o.packet.setting.location_name}`, ...(o.action ? [`*${flat(o.action)}*`] : []), `> ${o.cue}: ${said}`];
  const parsed: ParsedWriterOutput = {
    scene_text: lines.join('\n'), claims: [], events: [], parse_findings: [], text_first_line: 1,
    found: { text: true, claims: false, events: false }, claims_raw: [], events_raw: [],
    claims_section: { text: '', first: 0 }, normalisations: [],
  };
  const reading = readProse(parsed, o.ctx);
  const found = proseForbiddenRules(reading, o.ctx).filter((f) => f.code === 'AUR5046' && f.severity === 'hard');
  const told = candidates.map((sec) => ({ sec, at: found.find((f) => f.message.endsWith(sec.text))?.span?.text }));
  // One sentence tells one secret: where two candidates are read in the same sentence, the one it says more of. Two
  // secrets of one holder may share a person and a word ("Catiline stood for the consulship on my money", Crassus of
  // his backing, is no word on whose money pays Clodius' crews: held-out play set 1, pe31).
  const score = (sec: PacketSecret, text: string) => {
    const m = factMatch(text, signature(sec.text, reading.index), reading.index);
    return m ? 1.5 * m.entities + m.roots : 0;
  };
  return told
    .filter(({ sec, at }) => at !== undefined && !DENIED.test(at) && !HAS_NOTHING.test(at) && !SUPPOSED.test(at) && !disowned(at, o.name) && !told.some((t) => t.sec !== sec && t.at === at && score(t.sec, at) > score(sec, at)))
    .map(({ sec }) => sec);
}

/**
 * An answer that opens in irony ("Oh, certainly. I paid for all his campaigns … And I am the King of Parthia": held-out
 * play set 2, pf10) says the opposite of its words: read with the question's people put in, it states the secret.
 */
const IRONIC = /^[^\p{L}]*oh,?\s+(?:certainly|yes|of course|indeed|surely|absolutely|naturally|to be sure|quite)\b/iu;

/**
 * A sentence whose doer "would", "could" or "might" do it supposes, it does not tell ("If I wanted you dead … I would send
 * a few friends … to your morning salutation": held-out play set 2, pf38, where the "if" stands in the sentence before).
 */
const SUPPOSED = /^[^\p{L}]*(?:(?:and|but|then|so)\s+)?(?:\p{Lu}[\p{L}'’]*\s+){1,4}(?:would|could|might)\s/u;

/**
 * The packet stage F reads the answer against: the candidates are its only forbidden facts, and no beat of it tells a
 * secret, so a secret the cast may tell (one the principal already holds) still outscores a candidate it resembles.
 */
function probeOf(packet: ScenePacket, candidates: readonly PacketSecret[]): ScenePacket {
  return {
    ...packet,
    director_instructions: { ...packet.director_instructions, sequence: [] },
    constraints: { ...packet.constraints, forbidden_facts: candidates.map((s) => forbiddenSecretFact(s.text)), required_deltas: [] },
  };
}

/**
 * A sentence that opens on a negative subject denies what it names ("Nobody paid my brokers out of any strongbox at Ostia,
 * and Varo never wrote me a receipt"): the holder says it is not so, which tells a listener nothing. Only its opening:
 * tellings are full of negatives ("he could not repay it in three lifetimes", "I did not lend Varo that silver to sell at
 * a loss": held-out play set 1, pe05, pe27).
 */
const DENIED = /^[^\p{L}]*(?:nobody|no one|no man|nothing|never)\b/iu;

/**
 * A sentence that says its doer knows, keeps, holds or owes nothing denies it as plainly ("I know nothing of any grain,
 * and Varo keeps nothing at Ostia": test/play/director-judgement.test.ts), unless "nothing but" makes it a telling.
 */
const HAS_NOTHING = /\b(?:know|knows|knew|keep|keeps|kept|hold|holds|held|hide|hides|hid|owe|owes|owed|paid|pay|pays|wrote|write|writes|sent|send|sends)\s+nothing\b(?!\s+but\b)/iu;

/**
 * A sentence in which the speaker disowns a part ("The tablets that come to Caesar in the middle of the sitting are not
 * mine": held-out play set 2, pf17, the letters pinned on another woman): read with "mine" as the speaker's name, it
 * names the holder beside the secret's words, but says the thing is not theirs.
 */
function disowned(sentence: string, name: string): boolean {
  return new RegExp(String.raw`\b(?:not|never|none of it)\s+${escapeRegExp(name)}(?:'s)?(?![\p{L}])`, 'iu').test(sentence);
}

type PacketSecret = ScenePacket['retrieved_subgraph']['secrets'][number];
