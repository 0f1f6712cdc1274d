import { round } from '../core/json.js';
import type { ScenePacket } from '../domain/packet.js';
import type { World } from '../domain/world.js';
import { disclosedSecrets } from './disclosure.js';
import { stableStringify } from '../core/json.js';
import { BEATS, type ActorAnswer, type Beat, type ContextBrief, type DirectorState, type Proposal, type SceneSetup } from './types.js';

/**
 * The hidden Director (seed 000), symbolic part: pure functions over the state after each exchange.
 * Turn counting, the beat by turn position, user signals, the tension curve, flags, the completion
 * check per mode, proposal extraction, and the ContextBrief (seed 002) within its token budget.
 */
export function initialDirector(): DirectorState {
  return { turn_count: 0, current_beat: 'establishment', beats_completed: [], user_signals: {}, tension_curve: [], flags: {}, completion_trigger: null };
}

/** Seed 000's v1 heuristic; `open` scenes use a nominal budget of 10 turns. */
export function beatByPosition(turn: number, budget: number): Beat {
  const p = turn / Math.max(1, budget);
  return p < 0.25 ? 'establishment' : p < 0.5 ? 'complication' : p < 0.75 ? 'escalation' : 'pivot';
}

/** Marks `beat` reached: every earlier beat counts as completed too. */
export function reachBeat(d: DirectorState, beat: Beat): DirectorState {
  const upTo = BEATS.slice(0, BEATS.indexOf(beat) + 1);
  const done = BEATS.filter((b) => upTo.includes(b) || d.beats_completed.includes(b));
  return { ...d, current_beat: BEATS.indexOf(beat) > BEATS.indexOf(d.current_beat) ? beat : d.current_beat, beats_completed: done };
}

const SIGNALS: [string, RegExp][] = [
  ['inquisitive', /\?|\b(why|how|what|who|where|tell me)\b/i],
  ['aggressive', /\b(threat\w*|destroy|ruin|kill|expose|fool|traitor|demand|must)\b|!/i],
  ['conciliatory', /\b(friend|please|together|trust|forgive|ally|alliance|help)\b/i],
  ['hesitant', /\b(perhaps|maybe|might|i suppose|not sure|uncertain)\b|\.\.\./i],
  ['confident', /\b(i will|i shall|certainly|of course|i know|i promise)\b/i],
];

export function userSignals(text: string): string[] {
  return SIGNALS.filter(([, re]) => re.test(text)).map(([k]) => k);
}

/**
 * After one exchange: count, beat, signals, tension, flags. `objectiveMet` is the Director's verdict
 * recorded with the exchange (observe.ts); a log written before it was recorded is judged by the
 * symbolic check of the user's words.
 */
export function observeExchange(d: DirectorState, setup: SceneSetup, userText: string, answer: ActorAnswer, classified?: Beat, objectiveMet?: boolean): DirectorState {
  const turn = d.turn_count + 1;
  const budget = setup.mode === 'turn_limited' ? setup.turn_budget : Math.max(setup.turn_budget, 1);
  const beat = classified ?? beatByPosition(turn, budget);
  const signals = { ...d.user_signals };
  for (const s of userSignals(userText)) signals[s] = (signals[s] ?? 0) + 1;
  const prev = d.tension_curve.at(-1) ?? 0.3;
  const tension = round(Math.min(1, Math.max(0, prev + answer.tension_shift)));
  const flags = { ...d.flags };
  if (setup.objective && (objectiveMet ?? objectiveHeuristic(setup.objective, userText))) flags[setup.objective] = true;
  const next = reachBeat({ ...d, turn_count: turn, user_signals: signals, tension_curve: [...d.tension_curve, tension], flags }, beat);
  return { ...next, completion_trigger: completion(next, setup) };
}

/** Words that deny, doubt or suppose what follows them in a sentence. */
const NOT_SO = /\b(?:not|never|no|nor|cannot|if|unless|whether|would|should|could|might)\b|n['’]t\b/i;

/**
 * The symbolic objective check (offline, and when the model's verdict is unusable): an objective key
 * such as `accusation_made` is met by a sentence of the user's that carries its stem ("accus") as a
 * statement — not a question ("Do you accuse me?"), not denied or supposed before it ("I do not
 * accuse you", "If I accused you…").
 */
export function objectiveHeuristic(key: string, text: string): boolean {
  const stem = key.split('_')[0]!.slice(0, 5).toLowerCase();
  if (stem.length < 3) return false;
  return (text.match(/[^.!?]+[.!?]*/g) ?? []).some((sentence) => {
    const at = sentence.toLowerCase().indexOf(stem);
    return at >= 0 && !sentence.trim().endsWith('?') && !NOT_SO.test(sentence.slice(0, at));
  });
}

/**
 * Seed 000's completion check, per mode. The objective's flag is met only when set on the flags
 * themselves: `d.flags[key]` found Object.prototype's members, so `--objective constructor` (or
 * toString) ended the scene on its first turn with nothing said.
 */
export function completion(d: DirectorState, s: SceneSetup): string | null {
  if (s.mode === 'turn_limited' && d.turn_count >= s.turn_budget) return 'turn_limit';
  if (s.mode === 'beat_gated' && d.beats_completed.includes('pivot')) return 'beat_complete';
  if (s.mode === 'objective' && s.objective && Object.hasOwn(d.flags, s.objective) && d.flags[s.objective] === true) return 'objective_met';
  return null;
}

/** Whether the scene may end now (reported as director.completion_eligible). */
export function completionEligible(d: DirectorState, s: SceneSetup): boolean {
  return completion(d, s) !== null || d.beats_completed.includes('escalation');
}

/** A death spoken of; DEATH_DENIED: the same words denied ("Nobody was killed tonight", "he is not dead"). */
const DEATH = /\b(dies|is dead|killed|slain|murdered)\b/i;
const DEATH_DENIED = /\b(?:nobody|no one|no man|none|not|never|nor)\b[^.;!?]*\b(?:dies|dead|killed|slain|murdered)\b/i;

/**
 * Proposed changes from one exchange, each with its supporting turn ids (seed 004). The speaker's
 * regard for the principal moves with the exchange's tension (rivalry up, or trust up). A secret is
 * learned only when the answer tells it (disclosure.ts: stage F's reading of a forbidden fact told in
 * prose): said aloud, it is heard by everyone on stage, so the speaker, who holds it, makes the
 * principal and each other character present (`onStage`, the cast as it stands now) a holder — a
 * discovery, so it is critical and canonized mid-scene. What the user asks reveals nothing. A death the user speaks of (not
 * denies) is a claim: stage F judges it at canonization.
 */
export function extractProposals(world: World, packet: ScenePacket, setup: SceneSetup, userId: string, actorId: string, userText: string, answer: ActorAnswer, next: number, onStage: readonly string[] = setup.cast): Proposal[] {
  const turns = [userId, actorId];
  const out: Proposal[] = [];
  const id = () => `p${next + out.length}`;
  const shift = round(Math.min(0.2, Math.abs(answer.tension_shift)));
  if (shift >= 0.05) {
    const weight = answer.tension_shift > 0 ? 'rivalry' : 'trust';
    out.push({ id: id(), kind: 'delta', delta: { path: `relationships.${answer.speaker}.${setup.principal}.${weight}`, op: 'add', value: shift }, actor: answer.speaker, turns, reason: `${answer.speaker}'s ${weight} toward ${setup.principal} moved with the exchange`, critical: false, status: 'pending' });
  }
  const listeners = [setup.principal, ...onStage.filter((c) => c !== answer.speaker && c !== setup.principal)];
  for (const secret of disclosedSecrets(world, packet, listeners, answer, userText)) {
    for (const who of listeners.filter((l) => !secret.holders.includes(l))) {
      out.push({ id: id(), kind: 'delta', delta: { path: `secrets.${secret.id}.holders`, op: 'add', value: who }, actor: answer.speaker, turns, reason: `${who} learns ${secret.id} from ${answer.speaker}`, critical: true, status: 'pending' });
    }
  }
  if (DEATH.test(userText) && !DEATH_DENIED.test(userText)) {
    out.push({ id: id(), kind: 'claim', claim: { id: `c_${userId}`, kind: 'rumor', text: userText.slice(0, 200) }, turns: [userId], reason: 'a death spoken of in the scene (kept as rumor unless canon agrees)', critical: true, status: 'pending' });
  }
  return out;
}

/**
 * The ContextBrief the Director whispers to the Actor (seed 002): key facts and suggested topics,
 * cut from the end until the text sent fits the token budget. Written when the situation changes: who is
 * present, what just happened (a staged change, a reveal), which thread moved, the beat.
 */
export function writeBrief(packet: ScenePacket, setup: SceneSetup, cast: string[], d: DirectorState, staged: Proposal[], budget: number, moving: string[] = []): ContextBrief {
  const name = (id: string) => packet.retrieved_subgraph.characters.find((c) => c.id === id)?.name ?? id;
  const facts = [
    `${name(setup.principal)} is played by the user; on stage: ${cast.map(name).join(', ') || 'nobody'} at ${packet.setting.location_name}.`,
    `Beat: ${d.current_beat}; tension ${d.tension_curve.at(-1) ?? 0.3}.`,
    ...staged.filter((p) => p.status === 'pending').map((p) => `Just happened: ${p.reason}.`),
    ...packet.retrieved_subgraph.threads.filter((t) => moving.includes(t.id)).map((t) => `In play now: ${t.question}`),
    ...packet.retrieved_subgraph.secrets.filter((s) => s.status === 'hidden' && s.holders.some((h) => cast.includes(h))).map((s) => `${cast.filter((h) => s.holders.includes(h)).map(name).join(', ')} knows: ${s.text}`),
    ...packet.retrieved_subgraph.edges.filter((e) => cast.includes(e.from) && e.to === setup.principal).map((e) => `${name(e.from)} toward ${name(e.to)}: ${Object.entries(e.weights).map(([k, v]) => `${k} ${v}`).join(', ')}.`),
  ];
  const topics = packet.retrieved_subgraph.threads.filter((t) => t.status === 'open').map((t) => t.question).slice(0, 3);
  const brief: ContextBrief = { turn: d.turn_count, key_facts: facts.slice(0, 8), suggested_topics: topics, tokens: 0 };
  // Measured on the text the Actor is sent; at its smallest it keeps who is on stage (the caller warns when even that is over).
  while (briefTokens(brief) > budget && (brief.key_facts.length > 1 || brief.suggested_topics.length > 0)) {
    if (brief.suggested_topics.length > 0 && brief.key_facts.length <= 2) brief.suggested_topics.pop();
    else brief.key_facts.pop();
  }
  brief.tokens = briefTokens(brief);
  return brief;
}

/** The brief as it is whispered to the Actor, inside its newest user message (actor.ts sends exactly this). */
export function briefText(b: Pick<ContextBrief, 'key_facts' | 'suggested_topics'>): string {
  return `<director_brief>\n${stableStringify({ key_facts: b.key_facts, suggested_topics: b.suggested_topics }).trim()}\n</director_brief>\n\n`;
}

/** Its tokens, estimated as every prompt's are (4 characters a token). */
export function briefTokens(b: Pick<ContextBrief, 'key_facts' | 'suggested_topics'>): number {
  return Math.ceil(briefText(b).length / 4);
}

/** The speaker for this exchange: whoever the user names, else the cast in turn. */
export function chooseSpeaker(packet: ScenePacket, cast: string[], text: string, turn: number): string {
  const lower = text.toLowerCase();
  const named = cast.find((id) => {
    const c = packet.retrieved_subgraph.characters.find((x) => x.id === id);
    return lower.includes(id) || (c && lower.includes(c.name.split(' ').at(-1)!.toLowerCase()));
  });
  return named ?? cast[turn % cast.length]!;
}

/** "Which thread moved": the open threads whose long keywords the exchanges' words touch. */
export function threadsInPlay(packet: ScenePacket, exchanges: { user: string; answer: Pick<ActorAnswer, 'dialogue'> }[]): string[] {
  const said = exchanges.map((e) => `${e.user}\n${e.answer.dialogue}`).join('\n').toLowerCase();
  return packet.retrieved_subgraph.threads.filter((t) => t.status === 'open' && threadWords(t.question).some((w) => said.includes(w))).map((t) => t.id);
}

function threadWords(q: string): string[] {
  return (q.toLowerCase().match(/[a-z]{6,}/g) ?? []).slice(0, 4);
}
