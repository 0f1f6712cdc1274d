/**
 * What a scene's closing "button line" is (spec §6.3 rule 5, §6.4 "hook presence"), in one place: the
 * Writer's prompt states it (stages/e-writer/prompt.ts) and the verifier checks it (f-verifier/rules/
 * voice.ts hookRule, the offline critic), so a model is told the same limit it is held to.
 */

/** Longest final line that still reads as a button: one beat, not a summary paragraph. */
export const HOOK_MAX_WORDS = 30;
/**
 * Longest closing sentence of a longer last paragraph that still reads as one: a model writes prose
 * in paragraphs, one text line each, and ends a paragraph on its button ("… He laughs."), so the
 * spec's "button line" is then the paragraph's last sentence (held-out corpora 3–5: closing
 * paragraphs of 31–60 words ending on a short line of speech or action read as no hook). A model not
 * told this limit ends on a long cadenced sentence: 55 of the held-out corpora's 434 clean answers do,
 * and each such ending costs a punch-up call (stage G).
 */
export const HOOK_SENTENCE_MAX_WORDS = 20;
