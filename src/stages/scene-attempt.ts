import path from 'node:path';
import type { ScenePacket } from '../domain/packet.js';
import type { Finding, FormatFixRecord, SceneAttempt } from '../domain/scene.js';
import type { Llm } from '../ports/llm.js';
import { buildWriterRequest, type WriterReferences } from './e-writer/prompt.js';
import { SECTION, type WriterStyle } from './e-writer/types.js';
import type { VerifyContext } from './f-verifier/context.js';
import { finding } from './f-verifier/context.js';
import type { SceneVerification } from './f-verifier/verify.js';
import { verifyInThread, type SceneVerifier } from './verify-pool.js';
import { buildFormatFixRequest, proseUnchanged } from './g-repair/format-fix.js';
import { enforceKept, firstChangedLine, keepOpening, simplifyPacket, type RepairPlan } from './g-repair/policy.js';
import { writeVisible } from '../store/durable.js';

/**
 * One attempt at one scene, in the steps a round runs for every scene at once: the writer's draft,
 * then — only when its form alone is broken — the one format-fix call, then a punch-up's kept
 * opening, then the critic (scenes.ts). Files: drafts/SC04.2.txt is the model's answer;
 * drafts/SC04.2.fix.txt the fixer's, drafts/SC04.2.kept.txt a punch-up with its opening put back.
 */
export interface AttemptEnv {
  llm: Llm;
  style: WriterStyle;
  seed: string;
  references: WriterReferences;
  /** Scenes in the episode, for the writer's length target. */
  sceneCount: number;
  base: Omit<VerifyContext, 'packet'>;
  /** Verification off the main thread (stages/verify-pool.ts), against `base`; absent: in this thread. */
  verify?: SceneVerifier;
  draftDir?: string;
  signal?: AbortSignal;
}

/** A draft between its steps: verified, not yet judged by the critic. */
export interface Draft {
  attempt: SceneAttempt;
  packet: ScenePacket;
  raw: string;
  v: SceneVerification;
  /** A punch-up that rewrote its kept opening: refused, the scene keeps its previous draft. */
  refused: boolean;
  /** A punch-up: the opening it must keep, and the previous claims and events it keeps too. */
  keep?: { text: string; claims: unknown; events: unknown };
}

/** The finding codes of a broken form: what a format fix may repair (spec §9.4 schema/format). */
const FORM_CODES = new Set(['AUR5001', 'AUR5002', 'AUR5004', 'AUR5005']);

/** What could not be read in a draft (the verifier's form_errors, issue 13). */
function formErrorsOf(v: SceneVerification): string[] {
  return v.form_errors;
}

/** Only the form is broken: something cannot be read, and nothing readable breaks a story rule. */
export function onlyFormBroken(v: SceneVerification): boolean {
  return formErrorsOf(v).length > 0 && v.findings.every((f) => f.severity !== 'hard' || FORM_CODES.has(f.code));
}

/**
 * The verifier's reading of one answer. In this thread the verifier (and compromise, which it
 * loads) is imported only now: with a worker pool the main thread never needs it (issue 18).
 */
async function verify(env: AttemptEnv, raw: string, packet: ScenePacket): Promise<SceneVerification> {
  return env.verify ? env.verify(raw, packet) : verifyInThread(raw, { ...env.base, packet });
}

function save(env: AttemptEnv, file: string, text: string): void {
  if (env.draftDir) writeVisible(path.join(env.draftDir, file), text);
}

/** The three sections in their canonical form, for a text put back together by Aureus. */
function canonicalAnswer(text: string, claims: unknown, events: unknown): string {
  return `${SECTION.text}\n${text}\n\n${SECTION.claims}\n${JSON.stringify(claims ?? [])}\n\n${SECTION.events}\n${JSON.stringify(events ?? [])}\n`;
}

export interface WriteStep {
  scene: ScenePacket;
  attempt: number;
  plan: RepairPlan | null;
  /** The previous draft (its raw answer and verification), for a regeneration or a punch-up. */
  previous: { raw: string; v: SceneVerification } | null;
  /**
   * `aureus scene rewrite` (issue 16): the showrunner's note, and the nonce that makes each rewrite
   * a new call; without a repair plan the attempt's mode is then `rewrite` rather than `write`.
   */
  rewrite?: { nonce: string; note?: string };
}

/** Step 1: the writer's draft, verified. */
export async function writeDraft(env: AttemptEnv, s: WriteStep): Promise<Draft> {
  // An offline draft is all microtasks and synchronous writes: without a turn of the event loop a
  // Ctrl-C (a macrotask) would not be seen until every scene of the episode was written.
  await new Promise((r) => setImmediate(r));
  env.signal?.throwIfAborted();
  const mode = s.plan?.mode ?? (s.rewrite ? 'rewrite' : 'write');
  const packet = mode === 'simplified' ? simplifyPacket(s.scene) : s.scene;
  const prev = s.previous;
  const keep = mode === 'punch_up' && prev ? keepOpening(prev.v.parsed.scene_text, s.plan?.keep_fraction) : undefined;
  const req = buildWriterRequest(packet, env.style, {
    seed: env.seed,
    attempt: s.attempt,
    mode,
    prohibitions: s.plan?.prohibitions,
    prohibited_codes: s.plan?.prohibited_codes,
    restate_deltas: s.plan?.restate_deltas,
    strict_json: s.plan?.strict_json,
    // Marquee scenes (cold open, reversal, finale) get the escalation model from the start (spec §6.3).
    escalate: s.plan?.escalate || packet.marquee || undefined,
    references: env.references,
    scene_count: env.sceneCount,
    signal: env.signal,
    ...(s.rewrite ? { nonce: s.rewrite.nonce, ...(s.rewrite.note !== undefined ? { note: s.rewrite.note } : {}) } : {}),
    ...(mode === 'regenerate' && prev ? { previous_draft: prev.raw, spans: s.plan?.spans } : {}),
    ...(keep !== undefined && prev ? { keep_text: keep, keep_claims_json: JSON.stringify(prev.v.parsed.claims), keep_events_json: JSON.stringify(prev.v.parsed.events) } : {}),
  });
  const res = await env.llm.complete(req);
  const modelFile = `drafts/${packet.scene_id}.${s.attempt}.txt`;
  save(env, modelFile, res.text);
  const attempt: SceneAttempt = { attempt: s.attempt, model: res.model, mode, raw_file: modelFile, findings: [], critic: null, verdict: 'FAIL' };
  const v = await verify(env, res.text, packet);
  const kept = keep !== undefined && prev ? { keep: { text: keep, claims: prev.v.parsed.claims, events: prev.v.parsed.events } } : {};
  return { attempt, packet, raw: res.text, v, refused: false, ...kept };
}

/**
 * Step 3, a punch-up's (after a format fix, if one was needed): the kept opening byte for byte.
 * Retouched but placeable, it is spliced back (drafts/SC04.2.kept.txt, judged instead); rewritten,
 * the attempt is refused (AUR5096) and the scene keeps its previous draft. An answer whose form
 * still cannot be read is judged as it is: its form findings say what is wrong.
 */
export async function holdOpening(env: AttemptEnv, d: Draft): Promise<Draft> {
  if (!d.keep || formErrorsOf(d.v).length) return d;
  const { packet } = d;
  const kept = enforceKept(d.keep.text, d.v.parsed.scene_text);
  const attempt: SceneAttempt = { ...d.attempt, kept_opening: kept?.how ?? 'rewritten' };
  if (!kept) {
    const line = firstChangedLine(d.keep.text, d.v.parsed.scene_text);
    attempt.findings = [...attempt.findings, finding('AUR5096', 'soft', packet.scene_id, 'repair.kept_opening', { line })];
    return { ...d, attempt, refused: true };
  }
  if (kept.how === 'verbatim') return { ...d, attempt };
  const raw = canonicalAnswer(kept.text, d.v.parsed.claims_raw ?? d.keep.claims, d.v.parsed.events_raw ?? d.keep.events);
  attempt.model_file = d.attempt.model_file ?? d.attempt.raw_file;
  attempt.raw_file = `drafts/${packet.scene_id}.${attempt.attempt}.kept.txt`;
  save(env, attempt.raw_file, raw);
  return { ...d, attempt, raw, v: await verify(env, raw, packet) };
}

/**
 * Step 2 (only when the form alone is broken): one format-fix call on the small model. Its answer
 * is taken only if the prose came back unchanged and the form now reads; otherwise it is
 * discarded and the draft goes to regeneration as it was.
 */
export async function formatFix(env: AttemptEnv, d: Draft): Promise<Draft> {
  env.signal?.throwIfAborted();
  const errors = formErrorsOf(d.v);
  const res = await env.llm.complete(buildFormatFixRequest(d.packet, d.raw, errors, d.attempt.attempt, env.signal));
  const file = `drafts/${d.packet.scene_id}.${d.attempt.attempt}.fix.txt`;
  save(env, file, res.text);
  const fixed = await verify(env, res.text, d.packet);
  const record: FormatFixRecord = { raw_file: file, model: res.model, form_errors: errors, outcome: 'accepted' };
  if (!proseUnchanged(d.raw, d.v.parsed.scene_text, fixed.parsed.scene_text)) record.outcome = 'prose_changed';
  else if (formErrorsOf(fixed).length) record.outcome = 'still_broken';
  const attempt: SceneAttempt = { ...d.attempt, format_fix: record };
  if (record.outcome !== 'accepted') return { ...d, attempt };
  attempt.model_file = d.attempt.model_file ?? d.attempt.raw_file;
  attempt.raw_file = file;
  return { ...d, attempt, raw: res.text, v: fixed };
}

/** The findings an attempt is judged by: the verifier's, the critic's, and the repair's own notes. */
export function attemptFindings(d: Draft, critic: Finding[]): Finding[] {
  const out = [...d.attempt.findings, ...(d.refused ? [] : d.v.findings), ...critic];
  // The simplified fallback is logged for manual review (spec §7.2), as a soft finding on its attempt.
  if (d.attempt.mode === 'simplified') out.push(finding('AUR5091', 'soft', d.packet.scene_id, 'repair.simplified', { scene: d.packet.scene_id }));
  return out;
}
