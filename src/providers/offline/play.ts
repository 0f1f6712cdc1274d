import type { OfflineRealizer } from './index.js';
import type { ActorPayload } from '../../play/actor.js';
import { round } from '../../core/json.js';

/**
 * Offline realizers for play mode: the Actor (role writer, payload kind `play_actor`) and the play
 * Director's beat classifier (role director, payload kind `play_beat`). Deterministic from the
 * forked Rng, no I/O, microseconds a turn. The answer is the same JSON a model returns through
 * structured output; on a beat change the Actor embeds a `[DIRECTIVE:beat|…]` marker, as seed 001's
 * model does, which the session executes and strips.
 */
const OPENERS = ['You come to me with that?', 'Speak plainly, then.', 'Careful.', 'I have heard such words before.', 'Rome listens at every door.', 'So it comes to this.'];
const TURNS = ['What do you want of me?', 'Name your price.', 'I will not be hurried.', 'Say it again, and slowly.', 'And who else knows?', 'We shall see who stands in the Forum tomorrow.'];
const ACTIONS = ['folds his hands', 'turns to the brazier', 'glances at the door', 'sets down the cup', 'steps closer', 'studies the principal in silence'];
const MOODS_UP = ['wary', 'angry', 'cold'];
const MOODS_DOWN = ['warmer', 'amused', 'relieved'];

function toneOf(text: string): number {
  let t = 0;
  if (/\?/.test(text)) t += 0.05;
  if (/\b(threat\w*|expose|ruin|destroy|traitor|demand|must|accus\w*|reveal\w*|know your secret)\b|!/i.test(text)) t += 0.15;
  if (/\b(friend|please|together|trust|ally|alliance|forgive)\b/i.test(text)) t -= 0.1;
  return round(Math.max(-0.3, Math.min(0.3, t)));
}

/** Words after a determiner that are not the noun ("her own jealousy"). */
const NOT_NOUNS = new Set(['own', 'other', 'same', 'next', 'first', 'last', 'whole', 'chief', 'very']);

/**
 * The word "And the … will not wait." names: the last lower-case word after the/his/her/their in a
 * thread's question ("…or drown in his debts?" → debts), never a name or a preposition, which the
 * question's first long word often was ("And the caesar…", "And the before…"). Undefined: no line.
 */
function topicNoun(question: string): string | undefined {
  return [...question.matchAll(/\b(?:the|his|her|their)\s+([a-z]{3,})\b/g)].map((m) => m[1]!).filter((w) => !NOT_NOUNS.has(w)).at(-1);
}

export const realizeActor: OfflineRealizer = (req, ctx) => {
  const p = req.payload as ActorPayload;
  const me = p.cast.find((c) => c.id === p.speaker);
  const rng = ctx.rng;
  const shift = toneOf(p.user_text);
  const echo = (p.user_text.match(/[A-Za-z]{6,}/g) ?? []).at(-1);
  const topicWord = topicNoun(p.topics[p.turn % Math.max(1, p.topics.length)] ?? '');
  const lines = [rng.pick(OPENERS)];
  if (echo) lines.push(`You say '${echo.toLowerCase()}' as if the word were yours.`);
  lines.push(me?.sample_lines.length ? rng.pick(me.sample_lines) : rng.pick(TURNS));
  if (topicWord && rng.next() < 0.5) lines.push(`And the ${topicWord} will not wait.`);
  const beat = p.tension + shift >= 0.5 ? ' [DIRECTIVE:beat|beat:escalation]' : '';
  const answer = {
    speaker: p.speaker,
    dialogue: lines.join(' ') + beat,
    action: rng.pick(ACTIONS),
    internal: `${me?.objective ?? 'hold position'}; give nothing away`,
    mood: shift > 0 ? rng.pick(MOODS_UP) : shift < 0 ? rng.pick(MOODS_DOWN) : (me?.mood ?? 'guarded'),
    tension_shift: shift,
  };
  return { text: JSON.stringify(answer), json: answer };
};

/**
 * The beat classifier's offline answer: the position heuristic the session passes in, and in
 * `--mode objective` the symbolic check of the user's words as a sure verdict.
 */
export const realizeBeat: OfflineRealizer = (req) => {
  const p = req.payload as { heuristic: string; objective?: { heuristic: boolean } };
  const json = { beat: p.heuristic, ...(p.objective ? { objective: { met: p.objective.heuristic, confidence: 1 } } : {}) };
  return { text: JSON.stringify(json), json };
};

export function playKind(payload: unknown): string | undefined {
  return typeof payload === 'object' && payload !== null ? ((payload as { kind?: unknown }).kind as string | undefined) : undefined;
}
