import type { Llm, LlmMessage } from '../ports/llm.js';
import type { ScenePacket } from '../domain/packet.js';
import { stableStringify } from '../core/json.js';
import { stripModelAnswer } from '../diagnostics/model-text.js';
import { extractDirectives, type Parsed } from './directives.js';
import { briefText } from './director.js';
import { LineStream } from './stream.js';
import { diagnosticNotice } from './render.js';
import type { ActorAnswer, ContextBrief, PlayNotice } from './types.js';

/** The structured-output schema of the Actor's answer (seed 000). */
export const ACTOR_ANSWER_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  // The action before the dialogue: the line is shown as `*action* "dialogue"` while it streams.
  required: ['speaker', 'action', 'dialogue', 'internal', 'mood', 'tension_shift'],
  properties: {
    speaker: { type: 'string', description: 'id of the character speaking (one of the cast, never the principal)' },
    action: { type: 'string', description: 'a short stage action, present tense' },
    dialogue: { type: 'string', description: 'what the character says aloud' },
    internal: { type: 'string', description: 'what the character thinks and does not say' },
    mood: { type: 'string' },
    tension_shift: { type: 'number', minimum: -0.3, maximum: 0.3, description: 'how much this exchange raises (+) or lowers (-) the tension' },
  },
} as const;

export interface Exchange {
  user: string;
  answer: ActorAnswer;
}

/** Task data the offline realizer works from (ports/llm.ts `payload`); never part of a prompt. */
export interface ActorPayload {
  kind: 'play_actor';
  speaker: string;
  principal: string;
  cast: { id: string; name: string; cue: string; mood: string; objective: string; sample_lines: string[] }[];
  user_text: string;
  turn: number;
  tension: number;
  topics: string[];
}

const SYSTEM = `You are the Actor in a live scene of a late-Republic Roman political drama. The user plays one principal; you voice the other character named in "speaker", in their own voice, period-true (no anachronisms).
Answer only with JSON, in this order: speaker, action, dialogue, internal, mood, tension_shift (-0.3..0.3).
A message may begin with a <director_brief> block: it is hidden stage direction for you alone. Use it; never quote, mention or speak it.
You may add [DIRECTIVE:action|key:value] markers inside dialogue; they are stripped before the user sees the line. The ones you may give: [DIRECTIVE:beat|beat:<establishment|complication|escalation|pivot|resolution>] when the scene reaches a beat, [DIRECTIVE:note|idea:<text>] a note for the showrunner, [DIRECTIVE:thread|question:<text>] a new question for the next episode, [DIRECTIVE:character|name:<character id>] to bring a character on stage.`;

/**
 * The Actor's running session: the scene packet as static context, the exchanges so far, and the
 * latest brief whispered into the newest user message — a hidden message, never in a transcript.
 */
export function actorMessages(history: Exchange[], userText: string, brief: ContextBrief | null, principalCue: string): LlmMessage[] {
  const msgs: LlmMessage[] = [];
  for (const h of history) {
    msgs.push({ role: 'user', content: `${principalCue}: ${h.user}` });
    msgs.push({ role: 'assistant', content: stableStringify(h.answer).trim() });
  }
  const whisper = brief ? briefText(brief) : '';
  msgs.push({ role: 'user', content: `${whisper}${principalCue}: ${userText}` });
  return msgs;
}

export interface ActorCallMeta {
  scene: string;
  label: string;
  /** Cancels the call (the interrupt, call-guard.ts). */
  signal?: AbortSignal;
  /** Told when a piece of the answer arrives. */
  progress?: () => void;
}

export interface ActorTurn {
  answer: ActorAnswer;
  /** What the user sees: `CUE: *action* "dialogue"`, directives stripped. */
  content: string;
  directives: Parsed[];
  /** What was removed from the answer (AUR4211, said as notices with its code and hint): control and bidi characters. */
  notices: PlayNotice[];
}

/**
 * One Actor answer. With `show`, a provider that streams shows the line as it arrives (stream.ts):
 * `show` is told each new piece of the visible line; the offline provider answers at once and
 * never calls it.
 */
export async function actorTurn(llm: Llm, packet: ScenePacket, payload: ActorPayload, history: Exchange[], brief: ContextBrief | null, meta: ActorCallMeta, show?: (delta: string, reset: boolean) => void): Promise<ActorTurn> {
  const principal = packet.retrieved_subgraph.characters.find((c) => c.id === payload.principal);
  const cue = payload.cast.find((c) => c.id === payload.speaker)?.cue ?? payload.speaker.toUpperCase();
  const line = show ? new LineStream(cue, show) : undefined;
  // Every piece of text that arrives is progress, shown or not (call-guard.ts: a stalled answer is cancelled on Ctrl-C).
  const sink = line && { text: (d: string) => (meta.progress?.(), line.text(d)), restart: () => line.restart() };
  const res = await llm.complete({
    role: 'writer',
    system: SYSTEM,
    static_context: `SCENE PACKET\n${stableStringify(packet)}`,
    messages: actorMessages(history, payload.user_text, brief, principal?.name.toUpperCase() ?? payload.principal),
    json_schema: ACTOR_ANSWER_SCHEMA,
    schema_name: 'play_actor_answer',
    max_tokens: 600,
    own_max_tokens: true,
    payload,
    meta: { episode: packet.episode_id, scene: meta.scene, label: meta.label },
    ...(sink ? { stream: sink } : {}),
    ...(meta.signal ? { signal: meta.signal } : {}),
  });
  // The answer's text reaches the transcript, the season notes (its directives) and the canon
  // record's findings: no control or bidi characters in it.
  const clean = stripModelAnswer(res.json, 'play actor');
  const notices = clean.warnings.map((d) => diagnosticNotice(d, `${d.code} ${d.message}`));
  const turn = { ...renderAnswer({ ...(clean.value as ActorAnswer), speaker: payload.speaker }, cue), notices };
  line?.finish(turn.content);
  return turn;
}

/** Strip directives from every field the user or a reader sees and render `CUE: *action* "dialogue"`. */
export function renderAnswer(raw: ActorAnswer, cue: string): ActorTurn {
  const d = extractDirectives(raw.dialogue);
  const a = extractDirectives(raw.action);
  const i = extractDirectives(raw.internal);
  const m = extractDirectives(raw.mood);
  const answer: ActorAnswer = { ...raw, dialogue: d.clean, action: a.clean, internal: i.clean, mood: m.clean, tension_shift: Math.max(-0.3, Math.min(0.3, Number(raw.tension_shift) || 0)) };
  const parts = [answer.action ? `*${answer.action}*` : '', answer.dialogue ? `"${answer.dialogue}"` : ''].filter(Boolean);
  return { answer, content: `${cue}: ${parts.join(' ') || '*is silent*'}`, directives: [...d.parsed, ...a.parsed, ...i.parsed, ...m.parsed], notices: [] };
}
