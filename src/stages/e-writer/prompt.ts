import { canonicalCompact } from '../../core/json.js';
import { packetForModel } from '../d-packets/wire.js';
import { readableDeltas } from './deltas.js';
import { episodeReference, referencedPacket, referenceIsEmpty, referenceJson, type EpisodeReference } from '../d-packets/reference.js';
import type { ResolvedDelta } from '../../domain/delta.js';
import type { ScenePacket } from '../../domain/packet.js';
import { HOOK_SENTENCE_MAX_WORDS } from '../../domain/hook.js';
import type { LlmRequest } from '../../ports/llm.js';
import { SECTION, type AttemptMode, type LexiconEntry, type WriterPayload, type WriterStyle } from './types.js';

/** The writer's role instructions (spec §6.3), identical for every scene so they cache. */
export const WRITER_SYSTEM = `You are the Writer of Aureus, a late-Roman-Republic political thriller.
Truth lives outside you: the SCENE_PACKET says what happens; you render it as a screenplay-style scene.

INSTRUCTIONS:
1. Review director_instructions.sequence.
2. For each beat, follow narrative_directive strictly.
   - If outcome is "fail", write the failure.
   - Use the visual_cues from the operator data.
3. constraints.required_deltas reads "<application_id>: <path> <op> <value> (meaning)". Show each change
   on screen, and list it in SCENE_EVENTS in an event with that application_id as a delta object
   {"path","op","value"} (a transfer: {"path","op":"transfer","from","to","amount"}). Aureus derives
   its own bookkeeping: list only these.
4. Voice control:
   - Check every line against the LEXICON's forbidden anachronisms.
   - Court/Villa/Senate/Temple: use at least one rhetorical device (anaphora, tricolon, sententia).
   - Street/Port/Camp: use Thriller Mode (short sentences).
5. retrieved_subgraph is the world around the scene: relationship weights not listed are 0.
   Only the cast speaks or acts. The dead (packet "dead") may be mentioned, never speak or act.
6. End with a hook or button line per constraints.hook_requirement: the scene's last line, or the last
   sentence of its last paragraph, is one short line of dialogue or action (at most ${HOOK_SENTENCE_MAX_WORDS} words) that
   turns the scene. Aim for the LENGTH given.
7. EPISODE_REFERENCE, when the system prompt has one, holds items several scenes share. In the packet,
   retrieved_subgraph.<list>_ref and constraints.forbidden_facts_ref name its entries by key: read each
   entry as if it were written out in that list of the packet.
8. CLAIMS: at most constraints.allowed_inventions.max new facts, only of allowed_inventions.kinds;
   Aureus keeps extra ones only as rumour or belief. Never state a constraints.forbidden_facts entry.

SCENE TEXT FORMAT:
## <SCENE_ID> — INT. <LOCATION> - <TIME>      (EXT. for street, port and camp)
**Cast:** <names>
Action lines as plain paragraphs.
Dialogue as one line per speech: > CUE: words   (CUE is the character's cue in capitals; no other cue form)

OUTPUT FORMAT (exactly these three markers, nothing else):
${SECTION.text}
[screenplay-style prose]

${SECTION.claims}
[JSON array of new facts introduced: {"id":"c1","kind":"minor_character|object|place_detail|rumor|fact|belief","text":"...","subject":"<id, optional>"}]

${SECTION.events}
[JSON array of events: {"id":"e1","type":"operator|action|dialogue|transfer|movement|reveal","application_id":"a01","operator_id":"...","actor":"<character id>","target":"<id>","deltas":[<its required deltas as objects>],"text":"..."}]`;

/** The writer's view of the loaded style files (style/index.ts loadStyle). */
export function writerStyleFrom(s: { guide: string; lexicon: LexiconEntry[]; lexiconMarkdown?: string }): WriterStyle {
  return { guide: s.guide, lexicon: s.lexicon.map((e) => ({ forbidden: e.forbidden, replacement: e.replacement })), ...(s.lexiconMarkdown !== undefined ? { lexicon_md: s.lexiconMarkdown } : {}) };
}

export function renderLexiconMd(entries: LexiconEntry[]): string {
  const rows = entries.map((e) => `| ${e.forbidden} | ${e.replacement} | |`).join('\n');
  return `## Forbidden anachronisms\n\n| forbidden | replacement | note |\n| --- | --- | --- |\n${rows}\n`;
}

/**
 * The static context after the role instructions: style guide then lexicon (spec §6.3 STYLE_GUIDE,
 * LEXICON). With WRITER_SYSTEM before it, it is the whole cached prefix of every writer call: the
 * one cache breakpoint closes it, and everything per scene follows in the user turn.
 */
export function writerStaticContext(style: WriterStyle): string {
  return `STYLE_GUIDE:\n${style.guide.trim()}\n\nLEXICON:\n${(style.lexicon_md ?? renderLexiconMd(style.lexicon)).trim()}\n`;
}

/** The episode references (d-packets/reference.ts) of the scenes on the writer model and of the marquee scenes on the escalation model. */
export interface WriterReferences {
  writer: EpisodeReference;
  escalation: EpisodeReference;
}

/** One pair per episode, from all its packets, so every call of a group shares one cached prefix. */
export function writerReferences(packets: ScenePacket[]): WriterReferences {
  return { writer: episodeReference(packets.filter((p) => !p.marquee)), escalation: episodeReference(packets.filter((p) => p.marquee)) };
}

export function describeDelta(d: ResolvedDelta): string {
  if (d.op === 'transfer') return `${d.path} transfer ${d.amount} from ${d.from} to ${d.to}`;
  return `${d.path} ${d.op} ${JSON.stringify(d.value)}`;
}

export interface WriterRequestOptions {
  seed: string;
  attempt: number;
  mode: AttemptMode;
  prohibitions?: string[];
  prohibited_codes?: string[];
  restate_deltas?: boolean;
  strict_json?: boolean;
  escalate?: boolean;
  /** A regeneration (spec §9.4): the previous answer, and each finding's quoted span with its fix. */
  previous_draft?: string;
  spans?: { line: number; text: string; fix: string }[];
  keep_text?: string;
  keep_claims_json?: string;
  keep_events_json?: string;
  signal?: AbortSignal;
  max_tokens?: number;
  /** `aureus scene rewrite --note`: the showrunner's note, and the nonce that makes each rewrite a new call. */
  note?: string;
  nonce?: string;
  /** The episode's shared references (writerReferences): into the cached prefix, and the packet names their entries. */
  references?: WriterReferences;
  /** Scenes in the episode: the length target is the episode's runtime shared among them. */
  scene_count?: number;
}

/** Spec §0: ~30-minute episodes; a screenplay page is about a minute and about 200 words. */
export const EPISODE_MINUTES = 30;
export const WORDS_PER_PAGE = 200;

/** The length target of one scene: the episode's pages divided among its scenes. */
export function lengthTarget(sceneCount: number): string {
  const pages = EPISODE_MINUTES / Math.max(1, sceneCount);
  return `about ${Math.round(pages * 10) / 10} pages (${Math.round((pages * WORDS_PER_PAGE) / 10) * 10} words)`;
}

/** Builds the §6.3 writer request for one attempt; regenerations put prohibitions at the very top. */
export function buildWriterRequest(packet: ScenePacket, style: WriterStyle, o: WriterRequestOptions): LlmRequest {
  const parts: string[] = [];
  const prohibitions = o.prohibitions ?? [];
  if (prohibitions.length) {
    parts.push(`PROHIBITIONS (your previous draft broke these rules; obey every one):\n${prohibitions.map((p) => `- ${p}`).join('\n')}`);
  }
  if (o.previous_draft !== undefined) {
    const spans = (o.spans ?? []).map((x) => `- line ${x.line}: "${x.text}" -> ${x.fix}`).join('\n');
    parts.push(`PREVIOUS_DRAFT (keep what works; fix what the prohibitions name${spans ? ', starting with these lines' : ''}):\n${spans ? `${spans}\n` : ''}<<<\n${o.previous_draft.trim()}\n>>>`);
  }
  if (o.nonce !== undefined) {
    // In the prompt itself, so neither the call journal nor the record cache can answer with an old draft.
    parts.push(`REWRITE (${o.nonce}): write this scene anew; do not repeat the earlier draft.${o.note ? `\nSHOWRUNNER'S NOTE (follow it within the packet's rules):\n${o.note}` : ''}`);
  }
  if (o.strict_json) {
    parts.push('FORMAT: the CLAIMS and SCENE_EVENTS sections must each be one strict JSON array: no code fences, no comments, no trailing commas, no prose.');
  }
  if (o.restate_deltas) {
    const list = readableDeltas(packet).map((d) => `- ${d}`).join('\n');
    parts.push(`REQUIRED_DELTAS (each must happen on screen and appear in SCENE_EVENTS under its application_id):\n${list}`);
  }
  if (o.mode === 'simplified') {
    parts.push('SIMPLIFIED: write a plain, direct scene that depicts only the required deltas. No new claims, no extra events.');
  }
  if (o.mode === 'punch_up' && o.keep_text !== undefined) {
    parts.push(
      `PUNCH-UP: keep the opening below verbatim and rewrite only the last 30-40% of the scene so it lands on a hook: one short closing line of dialogue or action, at most ${HOOK_SENTENCE_MAX_WORDS} words (${packet.constraints.hook_requirement}). Keep the CLAIMS and SCENE_EVENTS unchanged.\n\nOPENING (keep):\n${o.keep_text}\n\nCLAIMS (keep):\n${o.keep_claims_json ?? '[]'}\n\nSCENE_EVENTS (keep):\n${o.keep_events_json ?? '[]'}`,
    );
  }
  // Compact JSON, without the pruned list and the packet's bookkeeping (d-packets/wire.ts); on the
  // writer model, what the episode's scenes share is read from the reference in the cached prefix.
  const chosen = o.escalate ? o.references?.escalation : o.references?.writer;
  const ref = chosen && !referenceIsEmpty(chosen) ? chosen : undefined;
  const model = (ref ? referencedPacket(packet, ref) : packetForModel(packet)) as { constraints: { required_deltas: unknown[] } };
  model.constraints = { ...model.constraints, required_deltas: readableDeltas(packet) };
  if (o.scene_count) parts.push(`LENGTH: ${lengthTarget(o.scene_count)}.`);
  parts.push(`SCENE_PACKET:\n${canonicalCompact(model)}`);
  const payload: WriterPayload = {
    task: 'write_scene',
    seed: o.seed,
    packet,
    attempt: o.attempt,
    mode: o.mode,
    prohibitions,
    prohibited_codes: o.prohibited_codes ?? [],
    restate_deltas: o.restate_deltas ?? false,
    strict_json: o.strict_json ?? false,
    lexicon: style.lexicon,
  };
  if (o.previous_draft !== undefined) payload.previous_draft = o.previous_draft;
  if (o.keep_text !== undefined) payload.keep_text = o.keep_text;
  if (o.keep_claims_json !== undefined) payload.keep_claims_json = o.keep_claims_json;
  if (o.keep_events_json !== undefined) payload.keep_events_json = o.keep_events_json;
  if (o.note !== undefined) payload.note = o.note;
  if (o.nonce !== undefined) payload.nonce = o.nonce;
  const req: LlmRequest = {
    role: 'writer',
    system: WRITER_SYSTEM,
    static_context: writerStaticContext(style) + (ref ? `\nEPISODE_REFERENCE:\n${referenceJson(ref)}\n` : ''),
    messages: [{ role: 'user', content: parts.join('\n\n') }],
    ...(o.max_tokens !== undefined ? { max_tokens: o.max_tokens } : {}),
    payload,
    meta: { episode: packet.episode_id, scene: packet.scene_id, attempt: o.attempt },
  };
  if (o.escalate) req.escalate = true;
  if (o.signal) req.signal = o.signal;
  return req;
}
