import { canonicalCompact } from '../../core/json.js';
import type { ScenePacket } from '../../domain/packet.js';
import type { Claim, Finding, SceneEvent } from '../../domain/scene.js';
import { isBadModelAnswer, type Llm, type LlmRequest } from '../../ports/llm.js';
import type { CriticPayload, CriticVerdict } from '../e-writer/types.js';
import { finding } from './context.js';
import { stripModelAnswer } from '../../diagnostics/model-text.js';

/**
 * The critic prompt of spec §6.4, sent on the `critic` role once the deterministic checks pass.
 * The critic advises (issue 13): the facts were checked by code; it judges craft against the style
 * guide and lexicon of its static context, and grades each violation, so a minor one is a note.
 */
export const CRITIC_SYSTEM = `Output JSON only.

TASK:
The facts were already checked by code. Evaluate the scene's craft for:
1. Plan compliance - did it accomplish the required beats of director_instructions?
2. Delta coverage - are all required_deltas depicted?
3. Hook presence - does it end with a button line?
4. Voice consistency - no LEXICON anachronisms; the STYLE_GUIDE's register (court/villa/senate/temple:
   a rhetorical device; street/port/camp: short sentences); dialogue lines as > CUE: words.
Grade each violation: "major" (the scene fails its beat, its hook or its voice) or "minor" (a note).
Say FAIL only for a major violation.

OUTPUT:
{"verdict": "PASS|FAIL", "violations": [{"type": "...", "rule": "...", "severity": "major|minor", "message": "..."}], "warnings": ["..."], "fix_instructions": ["..."]}`;

export const CRITIC_SCHEMA = {
  type: 'object',
  required: ['verdict', 'violations', 'warnings', 'fix_instructions'],
  properties: {
    verdict: { enum: ['PASS', 'FAIL'] },
    violations: {
      type: 'array',
      items: {
        type: 'object',
        required: ['type', 'rule', 'message'],
        properties: { type: { type: 'string' }, rule: { type: 'string' }, severity: { enum: ['major', 'minor'] }, message: { type: 'string' } },
      },
    },
    warnings: { type: 'array', items: { type: 'string' } },
    fix_instructions: { type: 'array', items: { type: 'string' } },
  },
} as const;

/**
 * What the critic needs of the packet to judge the four points: the plan (directives), the deltas,
 * the hook, the setting's register and who is on stage. Not the retrieved subgraph: the verifier's
 * deterministic rules already checked the facts against it.
 */
export function criticView(packet: ScenePacket): unknown {
  return {
    scene_id: packet.scene_id,
    setting: { kind: packet.setting.kind, location: packet.setting.location_name, time_of_day: packet.setting.time_of_day },
    cast: packet.cast.map((c) => ({ id: c.id, name: c.name })),
    director_instructions: packet.director_instructions,
    required_deltas: packet.constraints.required_deltas,
    hook_requirement: packet.constraints.hook_requirement,
  };
}

/** The critic's static context: the style guide and lexicon it checks voice against (same for every scene, so it caches). */
export function criticStaticContext(lexiconMd: string | undefined, guide?: string): string | undefined {
  const parts = [guide ? `STYLE_GUIDE:\n${guide.trim()}\n` : '', lexiconMd ? `LEXICON (forbidden anachronisms and their Roman replacements):\n${lexiconMd.trim()}\n` : ''];
  return parts.join(parts[0] && parts[1] ? '\n' : '') || undefined;
}

export function buildCriticRequest(packet: ScenePacket, text: string, claims: Claim[], events: SceneEvent[], attempt: number, signal?: AbortSignal, lexiconMd?: string, guide?: string): LlmRequest {
  const payload: CriticPayload = { task: 'critique_scene', packet, scene_text: text, claims, events };
  const staticContext = criticStaticContext(lexiconMd, guide);
  const req: LlmRequest = {
    role: 'critic',
    system: CRITIC_SYSTEM,
    ...(staticContext ? { static_context: staticContext } : {}),
    messages: [
      {
        role: 'user',
        content: `SCENE_TEXT:\n${text}\n\nSCENE:\n${canonicalCompact(criticView(packet))}\n\nCLAIMS:\n${JSON.stringify(claims)}\n\nSCENE_EVENTS:\n${JSON.stringify(events)}`,
      },
    ],
    json_schema: CRITIC_SCHEMA,
    schema_name: 'critic_verdict',
    payload,
    meta: { episode: packet.episode_id, scene: packet.scene_id, attempt },
  };
  if (signal) req.signal = signal;
  return req;
}

export interface CriticResult {
  verdict: CriticVerdict;
  model: string;
  findings: Finding[];
}

/**
 * Runs the critic; its major violations become soft AUR5061 findings (quality, fixed by a
 * punch-up, never an episode failure: scenes.ts accepts a scene the critic still fails once its
 * budget is spent, for manual review). Minor violations are notes: a FAIL with only minor ones
 * is a PASS. A critic whose answer stays invalid is asked once more on its escalation model
 * (`escalations.critic`, spec §6.4: Sonnet); an outage or an abort ends the run as usual.
 */
export async function runCritic(llm: Llm, req: LlmRequest): Promise<CriticResult> {
  let res;
  try {
    res = await llm.complete(req);
  } catch (e) {
    if (!isBadModelAnswer(e) || req.escalate) throw e;
    res = await llm.complete({ ...req, escalate: true });
  }
  const scene = (req.payload as CriticPayload).packet.scene_id;
  // Its messages and fixes are committed (verifier_report.json): no control or bidi characters.
  const clean = stripModelAnswer(res.json ?? safeJson(res.text), 'critic');
  const cleaned = clean.removed.map((r) => finding('AUR4211', 'soft', scene, 'critic.control_chars', { role: 'critic', field: r.field, removed: r.chars }));
  const v = normalizeVerdict(clean.value);
  const major = v.violations.filter((x) => x.severity !== 'minor');
  if (v.verdict === 'FAIL' && v.violations.length && !major.length) v.verdict = 'PASS';
  const findings = v.verdict === 'FAIL'
    ? (major.length ? major : [{ type: 'quality', rule: 'critic', message: 'the critic failed the scene' }]).map((x) =>
        finding('AUR5061', 'soft', scene, `critic.${x.rule || x.type}`, { detail: x.message, fix: v.fix_instructions[v.violations.indexOf(x as CriticVerdict['violations'][number])] ?? v.fix_instructions[0] ?? 'Rework the ending.' }),
      )
    : [];
  return { verdict: v, model: res.model, findings: [...findings, ...cleaned] };
}

/** What the report keeps of a critic's answer: its verdict and every note, minor ones marked. */
export function criticNotes(v: CriticVerdict): { verdict: 'PASS' | 'FAIL'; notes: string[] } {
  return { verdict: v.verdict, notes: [...v.violations.map((x) => (x.severity === 'minor' ? `(minor) ${x.message}` : x.message)), ...v.warnings] };
}

function safeJson(t: string): unknown {
  try {
    return JSON.parse(t);
  } catch {
    return null;
  }
}

function normalizeVerdict(x: unknown): CriticVerdict {
  const o = (x ?? {}) as Partial<CriticVerdict>;
  return {
    verdict: o.verdict === 'FAIL' ? 'FAIL' : o.verdict === 'PASS' ? 'PASS' : 'FAIL',
    violations: Array.isArray(o.violations) ? o.violations.filter((x) => x && typeof x === 'object').map((x) => ({ ...x, message: String(x.message ?? '') })) : [],
    warnings: Array.isArray(o.warnings) ? o.warnings.map(String) : [],
    fix_instructions: Array.isArray(o.fix_instructions) ? o.fix_instructions.map(String) : [],
  };
}
