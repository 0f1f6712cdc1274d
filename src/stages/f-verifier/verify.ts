import type { Claim, Finding, Normalisation } from '../../domain/scene.js';
import { formErrors, parseWriterOutput, type ParsedWriterOutput } from '../e-writer/parse.js';
import { normaliseParsed } from '../e-writer/normalise/index.js';
import type { VerifyContext } from './context.js';
import { formatRules, sectionsUsable } from './rules/format.js';
import { presenceRules, whoIndex } from './rules/presence.js';
import { deltaRules } from './rules/deltas.js';
import { claimRules } from './rules/claims.js';
import { anachronismRules, claimAnachronismRules, eventAnachronismRules, hookRule } from './rules/voice.js';
import { lengthRule } from './rules/length.js';
import { cueNotes } from './dialogue.js';
import { proseRules } from './prose/index.js';
import { compareText } from '../../core/text-order.js';

export interface SceneVerification {
  parsed: ParsedWriterOutput;
  /** Deterministic findings in a stable order: by code, then line. */
  findings: Finding[];
  accepted_claims: Claim[];
  downgraded_claims: Claim[];
  rejected_claims: Claim[];
  /** True when any hard finding fired. */
  hard: boolean;
  /** How the answer's form was read before it was judged (issue 13): what changed and why. */
  normalisations: Normalisation[];
  /**
   * Non-empty exactly when, after normalisation, a section still cannot be found or its JSON cannot
   * be read: the answer's form is broken, which a cheap format-fix call may repair.
   */
  form_errors: string[];
}

/**
 * Stage F, deterministic part: every rule over one writer output, after the normaliser has read its
 * form (e-writer/parse.ts) and its spelling (e-writer/normalise/). Pure: same input, same findings.
 * Semantic rules over claims/events only judge what matched its schema; a broken section is
 * already a hard format finding.
 */
export function verifySceneOutput(raw: string, ctx: VerifyContext): SceneVerification {
  const parsed = normaliseParsed(parseWriterOutput(raw), ctx);
  return verifyParsed(parsed, ctx);
}

export function verifyParsed(parsed: ParsedWriterOutput, ctx: VerifyContext): SceneVerification {
  const scene = ctx.packet.scene_id;
  const usable = sectionsUsable(parsed);
  const claims = usable.claims ? (parsed.claims as Claim[]) : [];
  const judged = { ...parsed, events: usable.judged_events };
  // A claim carrying an anachronism is rejected before the canon rules: it never becomes canon.
  const ca = claimAnachronismRules(parsed, claims, ctx);
  const cv = claimRules(claims.filter((c) => !ca.rejected.includes(c)), ctx, parsed.scene_text, parsed.text_first_line);
  // One index of who may be on stage, for the presence rules and the cue notes.
  const who = whoIndex(ctx);
  const extras = usable.claims ? claims.filter((c) => c.kind === 'minor_character').map((c) => c.text.toUpperCase()) : null;
  const findings: Finding[] = [
    ...formatRules(parsed, scene),
    ...lengthRule(parsed, ctx),
    ...presenceRules(judged, ctx, usable.events, extras, who),
    ...(usable.events ? deltaRules(judged.events, ctx) : []),
    ...cv.findings,
    ...anachronismRules(parsed, ctx),
    ...ca.findings,
    ...eventAnachronismRules(judged.events, ctx),
    ...hookRule(parsed, ctx),
    ...proseRules(parsed, ctx, [...claims.map((c) => c.text), ...(judged.events as { text?: string }[]).map((e) => e.text ?? '')], usable.events ? judged.events : [], extras),
  ];
  findings.sort((a, b) => compareText(a.code, b.code) || (a.span?.line ?? 0) - (b.span?.line ?? 0));
  return {
    parsed,
    findings,
    accepted_claims: cv.accepted,
    downgraded_claims: cv.downgraded,
    rejected_claims: [...ca.rejected, ...cv.rejected],
    hard: findings.some((f) => f.severity === 'hard'),
    normalisations: [...parsed.normalisations, ...cueNotes(parsed, ctx, who.byCue)],
    form_errors: formErrors(parsed),
  };
}
