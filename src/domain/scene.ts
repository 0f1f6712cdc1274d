import type { ResolvedDelta } from './delta.js';

/** A new fact the writer introduced (spec §8.3). */
export interface Claim {
  id: string;
  kind: 'minor_character' | 'object' | 'place_detail' | 'rumor' | 'fact' | 'belief';
  text: string;
  subject?: string;
  /** A downgraded claim's holders: the cast members who believe it (spec §8.3); absent: the living cast. */
  holders?: string[];
}

/** What happened on screen, aligned to the plan's operator applications. */
export interface SceneEvent {
  id: string; // "e1"
  type: 'operator' | 'action' | 'dialogue' | 'transfer' | 'movement' | 'reveal';
  application_id?: string;
  operator_id?: string;
  actor?: string;
  target?: string;
  /** The deltas this event depicts; must cover the packet's required_deltas. */
  deltas: ResolvedDelta[];
  text: string;
}

/** The writer's raw output split into its three sections (spec §6.3). */
export interface ParsedSceneOutput {
  scene_text: string;
  claims: Claim[];
  events: SceneEvent[];
  /** Problems met while parsing: missing sections, repaired JSON. Never thrown. */
  /** `args`: the finding's own values, when the message alone would have to be parsed back for them. */
  /** `span`: where in the raw answer, for a slip found at one place (its line, a stretch of it quoted, the slip's offset `at` in it). */
  parse_findings: { code: string; message: string; args?: Record<string, string>; span?: FindingSpan }[];
}

export type Severity = 'hard' | 'soft';

/**
 * One change the normaliser made to a writer answer before the rules judged it (issue 13): the
 * answer's form is read tolerantly, but never silently. `code` is a stable key of the kind of
 * change (docs/verifier.md lists them); `what` says what was changed, `why` why it is safe.
 */
export interface Normalisation {
  code: string;
  what: string;
  why: string;
}

/**
 * A finding's quoted scene text: its line of the draft and the text. `at`: where in `text` the
 * offending word starts (0-based, in UTF-16 code units, as a JavaScript string counts), when the
 * finding knows it: the anachronism, the sum overspent, the name of who should not be there. A
 * finding's place in the file the author edits is the quote's plus `at` (pipeline/finding-place.ts); a long line's quote
 * is windowed around the word (f-verifier/context.ts quoteOf).
 */
/** The longest quote a finding keeps; a longer one is cut to end in QUOTE_CUT at this length (f-verifier/context.ts finding). */
export const QUOTE_MAX = 240;
export const QUOTE_CUT = '...';

export interface FindingSpan {
  line: number;
  text: string;
  at?: number;
}

export interface Finding {
  code: string; // "AUR5003"
  severity: Severity;
  scene: string;
  rule: string;
  message: string;
  /** The quoted span of scene text the finding is about, if any. */
  span?: FindingSpan;
  fix: string;
  /**
   * How sure a reading of the prose is (issue 14): `sure` findings are hard, `doubtful` ones (a
   * carried-over pronoun, hearsay, a guessed currency rate, irony nearby) soft. Absent on findings
   * about the structured sections, which are read exactly.
   */
  confidence?: 'sure' | 'doubtful';
}

export interface SceneAttempt {
  attempt: number;
  model: string;
  /** `rewrite` and `edit` are the showrunner's (issue 16): a rewrite asked for, an author's text. */
  mode: 'write' | 'regenerate' | 'punch_up' | 'simplified' | 'rewrite' | 'edit';
  /** Present on an author's edit: the text is the showrunner's, not a model's. */
  author?: 'human';
  /** A rewrite's note. */
  note?: string;
  raw_file: string; // "drafts/SC04.1.txt"
  findings: Finding[];
  critic: { verdict: 'PASS' | 'FAIL'; notes: string[] } | null;
  verdict: 'PASS' | 'FAIL';
  /** How the answer's form was read before it was judged (issue 13); absent when nothing changed. */
  normalisations?: Normalisation[];
  /** The model's own answer, when raw_file holds a repaired form of it (a format fix, a spliced opening). */
  model_file?: string;
  /** The one format-fix call made on this attempt's draft, when only its form was broken (issue 13). */
  format_fix?: FormatFixRecord;
  /** A punch-up's kept opening: came back verbatim, was spliced back, or was rewritten (the attempt is rejected). */
  kept_opening?: 'verbatim' | 'spliced' | 'rewritten';
}

export interface FormatFixRecord {
  /** The fixer's answer (drafts/SC04.1.fix.txt). */
  raw_file: string;
  model: string;
  /** What could not be read in the draft. */
  form_errors: string[];
  /** accepted: the fixed form is what was judged; prose_changed / still_broken: discarded. */
  outcome: 'accepted' | 'prose_changed' | 'still_broken';
}

/** The repairs of §9.3 by kind: each counts, and each appears in the verifier report. */
export interface RepairCounts {
  regenerate: number;
  punch_up: number;
  simplified: number;
  format_fix: number;
}

export interface SceneReport {
  scene: string;
  attempts: SceneAttempt[];
  final_verdict: 'PASS' | 'FAIL';
  manual_review: boolean;
  /** Why the scene needs a human: the critic still fails it, or its last repairs were refused. */
  review_reason?: string;
}

export interface VerifierReport {
  format: 1;
  episode_id: string;
  scenes: SceneReport[];
  episode_findings: Finding[];
  /**
   * used: scene repairs (regenerations, punch-ups, simplified rewrites) against per_episode;
   * format_fixes: the format-fix limit; by_kind: every repair counted by its kind.
   */
  budget: { per_scene: number; per_episode: number; used: number; format_fixes?: number; by_kind?: RepairCounts };
  /** Scenes accepted for manual review (the episode commits; `episode run` warns with their ids). */
  manual_review?: string[];
  verdict: 'PASS' | 'FAIL';
}

/** A scene that passed verification: what stage H commits. */
export interface ApprovedScene {
  scene: string;
  /** Final screenplay-style text (the ---SCENE_TEXT--- section). */
  text: string;
  events: SceneEvent[];
  accepted_claims: Claim[];
  /** Useful but not canon: become rumors/beliefs of the cast (spec §8.3). */
  downgraded_claims: Claim[];
  attempts: number;
  model: string;
  /** True if the scene was rewritten with a simplified operator set (needs manual review). */
  simplified: boolean;
  /** Present when the text is an author's edit (`aureus scene edit`): marked in the deltas' provenance. */
  author?: 'human';
}
