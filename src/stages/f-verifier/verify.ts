import type { Claim, Finding, SceneEvent } from '../../domain/scene.js';
import { parseWriterOutput, type ParsedWriterOutput } from '../e-writer/parse.js';
import type { VerifyContext } from './context.js';
import { formatRules, sectionsUsable } from './rules/format.js';
import { presenceRules } from './rules/presence.js';
import { deltaRules } from './rules/deltas.js';
import { claimRules } from './rules/claims.js';
import { anachronismRules, hookRule } from './rules/voice.js';

export interface SceneVerification {
  parsed: ParsedWriterOutput;
  /** Deterministic findings in a stable order: by code, then line. */
  findings: Finding[];
  accepted_claims: Claim[];
  downgraded_claims: Claim[];
  rejected_claims: Claim[];
  /** True when any hard finding fired. */
  hard: boolean;
}

/**
 * Stage F, deterministic part: every rule over one writer output. Pure: same input, same findings.
 * Semantic rules over claims/events only run when that section matched its schema; a broken
 * section is already a hard format finding.
 */
export function verifySceneOutput(raw: string, ctx: VerifyContext): SceneVerification {
  const parsed = parseWriterOutput(raw);
  return verifyParsed(parsed, ctx);
}

export function verifyParsed(parsed: ParsedWriterOutput, ctx: VerifyContext): SceneVerification {
  const scene = ctx.packet.scene_id;
  const usable = sectionsUsable(parsed);
  const claims = usable.claims ? (parsed.claims as Claim[]) : [];
  const events = usable.events ? (parsed.events as SceneEvent[]) : [];
  const cv = claimRules(claims, ctx);
  const extras = usable.claims ? claims.filter((c) => c.kind === 'minor_character').map((c) => c.text.toUpperCase()) : null;
  const findings: Finding[] = [
    ...formatRules(parsed, scene),
    ...presenceRules(parsed, ctx, usable.events, extras),
    ...(usable.events ? deltaRules(events, ctx) : []),
    ...cv.findings,
    ...anachronismRules(parsed, ctx),
    ...hookRule(parsed, ctx),
  ];
  findings.sort((a, b) => a.code.localeCompare(b.code) || (a.span?.line ?? 0) - (b.span?.line ?? 0));
  return {
    parsed,
    findings,
    accepted_claims: cv.accepted,
    downgraded_claims: cv.downgraded,
    rejected_claims: cv.rejected,
    hard: findings.some((f) => f.severity === 'hard'),
  };
}
