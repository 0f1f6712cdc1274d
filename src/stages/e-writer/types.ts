import type { ScenePacket } from '../../domain/packet.js';

import type { LexiconEntry as StyleLexiconEntry } from '../../style/lexicon.js';

/**
 * One forbidden word or phrase of the lexicon with its Roman replacement(s) (style/lexicon.md,
 * parsed by src/style/lexicon.ts). Replacements may list alternatives separated by ';'.
 */
export type LexiconEntry = Pick<StyleLexiconEntry, 'forbidden' | 'replacement'>;

/** The static style material every writer prompt starts with (spec §6.3: STYLE_GUIDE, LEXICON). */
export interface WriterStyle {
  guide: string;
  lexicon: LexiconEntry[];
  /** The lexicon as authored (markdown); rendered from `lexicon` when absent. */
  lexicon_md?: string;
}

/** `rewrite`: a scene regenerated on the showrunner's request (`aureus scene rewrite`, issue 16). */
export type AttemptMode = 'write' | 'regenerate' | 'punch_up' | 'simplified' | 'rewrite';

/**
 * The structured task behind a writer prompt. Real models read the rendered prompt; the offline
 * writer reads this (ports/llm.ts `payload`), so both see the same instructions.
 */
export interface WriterPayload {
  task: 'write_scene';
  seed: string;
  packet: ScenePacket;
  attempt: number;
  mode: AttemptMode;
  /** Explicit prohibitions put at the top of a regeneration prompt (spec §9.4). */
  prohibitions: string[];
  /** Finding codes the prohibitions came from (lets the offline writer avoid exactly those defects). */
  prohibited_codes: string[];
  /** Required deltas restated after a plan-compliance failure. */
  restate_deltas: boolean;
  /** Stricter JSON-only instructions after a schema/format failure. */
  strict_json: boolean;
  /** Regeneration: the previous answer, shown with its findings' quoted spans (spec §9.4). */
  previous_draft?: string;
  /** Punch-up: the opening 60-70% of the last attempt's scene text, kept verbatim. */
  keep_text?: string;
  /** Punch-up: the previous attempt's claims and events, kept. */
  keep_claims_json?: string;
  keep_events_json?: string;
  /** A rewrite: the showrunner's note for this scene, and the attempt nonce that makes it a new call. */
  note?: string;
  nonce?: string;
  lexicon: LexiconEntry[];
}

/** The critic's task (spec §6.4). */
export interface CriticPayload {
  task: 'critique_scene';
  packet: ScenePacket;
  scene_text: string;
  claims: unknown[];
  events: unknown[];
}

export interface CriticVerdict {
  verdict: 'PASS' | 'FAIL';
  /** severity: "minor" is a note (issue 13: the critic advises); absent or "major" fails the scene. */
  violations: { type: string; rule: string; severity?: 'major' | 'minor'; message: string }[];
  warnings: string[];
  fix_instructions: string[];
}

/** Markers of the three output sections (spec §6.3). */
export const SECTION = { text: '---SCENE_TEXT---', claims: '---CLAIMS---', events: '---SCENE_EVENTS---' } as const;
