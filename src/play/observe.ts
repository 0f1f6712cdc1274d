import type { Llm } from '../ports/llm.js';
import { canFallBackFrom, LlmAbortedError, LlmRefusalError } from '../providers/errors.js';
import { beatByPosition, objectiveHeuristic } from './director.js';
import { BEATS, type Beat, type SceneSetup } from './types.js';

/**
 * The hidden Director's model call after an exchange (seed 000: it observes after the exchange, so
 * the Actor answers first and stays fast). One cheap structured call classifies the beat of the
 * exchange just completed and, in `--mode objective`, judges whether the user's words meet the
 * objective (met with confidence > 0.7, seed 000's rule). A bad answer from it (invalid JSON after
 * the re-asks, cut at max_tokens, refused) costs the scene nothing: the position heuristic and the
 * symbolic objective check stand in, with a one-line notice; so do they, silently, when the
 * interrupt cancels the call (the Actor's answer is in: the exchange is kept).
 */

const BEAT = { type: 'string', enum: [...BEATS] };
const VERDICT = { type: 'object', required: ['met', 'confidence'], additionalProperties: false, properties: { met: { type: 'boolean' }, confidence: { type: 'number', minimum: 0, maximum: 1 } } };
/** The classifier's answer (its validator is precompiled at build: scripts/precompile-schemas.mjs). */
export const BEAT_SCHEMA = { type: 'object', required: ['beat'], additionalProperties: false, properties: { beat: BEAT } };
/** In `--mode objective`, with the Director's verdict on the objective. */
export const BEAT_OBJECTIVE_SCHEMA = { type: 'object', required: ['beat', 'objective'], additionalProperties: false, properties: { beat: BEAT, objective: VERDICT } };

export function observeSchema(objective: boolean): object {
  return objective ? BEAT_OBJECTIVE_SCHEMA : BEAT_SCHEMA;
}

/** Seed 000: an objective counts as met only when the Director is this sure. */
export const OBJECTIVE_CONFIDENCE = 0.7;

/** The classifier's own answer limit: a beat and a verdict are a few dozen tokens. */
export const OBSERVE_MAX_TOKENS = 80;

export interface Observed {
  beat: Beat;
  /** In `--mode objective` only: whether this exchange met the objective. */
  objective_met?: boolean;
  /** Set when the model's answer was not usable and the heuristics stood in. */
  fallback?: string;
}

export interface ObserveInput {
  setup: SceneSetup;
  session: string;
  /** The turn number of the exchange just completed (1 for the first). */
  turn: number;
  /** The exchanges to classify, oldest first, the one just completed last. */
  exchanges: { user: string; content: string }[];
  signal?: AbortSignal;
}

const SYSTEM = 'Classify the narrative beat of the latest exchange (the last one below). Answer JSON {"beat": one of establishment, complication, escalation, pivot, resolution}.';

function objectiveAsk(key: string): string {
  return ` Also judge whether the user's own words in the latest exchange (not the other character's) indicate the objective "${key}"; a denial, a question or a hypothetical does not. Add "objective": {"met": true or false, "confidence": 0.0-1.0}.`;
}

export async function observe(llm: Llm, o: ObserveInput): Promise<Observed> {
  const { setup } = o;
  const heuristic = beatByPosition(o.turn, Math.max(1, setup.turn_budget));
  const user = o.exchanges.at(-1)?.user ?? '';
  const objective = setup.mode === 'objective' && setup.objective ? { key: setup.objective, heuristic: objectiveHeuristic(setup.objective, user) } : null;
  const fallback = (why?: string): Observed => ({ beat: heuristic, ...(objective ? { objective_met: objective.heuristic } : {}), ...(why ? { fallback: why } : {}) });
  let json: { beat?: string; objective?: { met?: boolean; confidence?: number } } | undefined;
  try {
    const res = await llm.complete({
      role: 'director',
      system: SYSTEM + (objective ? objectiveAsk(objective.key) : ''),
      messages: [{ role: 'user', content: o.exchanges.map((e) => `${e.user}\n${e.content}`).join('\n\n') }],
      json_schema: observeSchema(objective !== null),
      schema_name: 'play_beat',
      max_tokens: OBSERVE_MAX_TOKENS,
      own_max_tokens: true,
      payload: { kind: 'play_beat', heuristic, ...(objective ? { objective } : {}) },
      meta: { scene: setup.scene, label: `play/${o.session}/beat/${o.turn}` },
      ...(o.signal ? { signal: o.signal } : {}),
    });
    json = res.json as typeof json;
  } catch (e) {
    // Interrupted (Ctrl-C) once the Actor had answered: the exchange is kept, observed by the heuristics.
    if (e instanceof LlmAbortedError) return fallback();
    if (!canFallBackFrom(e) && !(e instanceof LlmRefusalError)) throw e;
    const code = (e as { diagnostics?: { code: string }[] }).diagnostics?.[0]?.code;
    return fallback(`the Director's beat classifier gave no usable answer (${code ?? 'error'}); the beat by turn position stands in${objective ? ' and the objective is judged from your words' : ''}`);
  }
  const beat = (BEATS as readonly string[]).includes(json?.beat ?? '') ? (json!.beat as Beat) : heuristic;
  if (!objective) return { beat };
  const v = json?.objective;
  return { beat, objective_met: v?.met === true && (v.confidence ?? 0) > OBJECTIVE_CONFIDENCE };
}
