import type { CanonFact, Gender } from '../../domain/world.js';
import type { ScenePacket } from '../../domain/packet.js';
import { QUOTE_CUT, QUOTE_MAX, type Finding, type FindingSpan } from '../../domain/scene.js';
import type { LexiconEntry } from '../e-writer/types.js';
import type { ParsedWriterOutput } from '../e-writer/parse.js';
import { catalogEntry } from '../../diagnostics/catalog.js';
import '../../diagnostics/codes/verify.js';

/** A character the verifier may meet in a scene: from the world, the packet cast, the dead or the subgraph. */
export interface KnownCharacter {
  id: string;
  name: string;
  cue: string;
  status: string;
  /** Where the world puts them before this scene, if known. */
  location?: string;
  /** The office held in the world's year ("consul"), if the world says. */
  office?: string;
  /** As the world declares it (a subject pronoun is resolved by it, prose/pronoun-doer.ts); absent when it does not. */
  gender?: Gender;
}

/**
 * What one scene is checked against. Only the packet is required: `scene verify` can run on a
 * packet alone. The pipeline adds the world's characters, travel matrix and canon.
 */
export interface VerifyContext {
  packet: ScenePacket;
  lexicon: LexiconEntry[];
  /** Travel days between two location ids; undefined when unknown (then no teleport finding). */
  travelDays?: (from: string, to: string) => number | undefined;
  characters?: KnownCharacter[];
  canon?: CanonFact[];
  /** Every id a canon fact's subject may name (world-context.ts canonSubjects); absent: not judged. */
  subjects?: ReadonlySet<string>;
  /**
   * The plan's prerequisite checks per application id, evaluated by the Director on the projected
   * state before the application (EpisodePlan beats[].applications[].prereqs). Absent: not judged.
   */
  prereqs?: Record<string, { expr: string; holds: boolean }[]>;
  /** The world's locations by name, so a place the prose names resolves (prose/arrivals.ts); absent: not judged. */
  locations?: { id: string; name: string }[];
  /**
   * The world's operators (names and writer guidance), so an operator named by its description resolves; `success` and
   * `fail` are its directives apart and `roles` its role names, from which a failing beat's success words are read
   * (prose/success-words.ts); `enriches`: its effects pay the actor (a ledger transfer to the actor), so the actor told
   * rich now is its success (prose/turned-failure.ts).
   */
  operators?: { id: string; name: string; descriptions?: string[]; success?: string; fail?: string; roles?: string[]; enriches?: boolean }[];
  /** Each character's relatives by kin word (world-context.ts relativesOf): "Cicero's wife", "the consul's wife" name Terentia. */
  relatives?: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** Fewest words a scene may have (config verifier.min_scene_words); absent: the default, 0: no minimum. */
  min_scene_words?: number;
}

/** The parsed output plus where its scene text sits in the raw file (for quoting spans). */
export interface SceneUnderTest {
  parsed: ParsedWriterOutput;
}

export type Args = Record<string, string | number>;

/** Builds a Finding from the catalog: its message and fix are the catalog message and hint. */
export function finding(
  code: string,
  severity: 'hard' | 'soft',
  scene: string,
  rule: string,
  args: Args,
  span?: FindingSpan,
): Finding {
  const e = catalogEntry(code);
  const fill = (t: string) => t.replace(/\{(\w+)\}/g, (m, k: string) => (k in args ? String(args[k]) : m));
  const f: Finding = { code, severity, scene, rule, message: fill(e.message), fix: fill(e.hint) };
  if (span) f.span = quoteOf(span);
  return f;
}

/** Room kept after a finding's word in a cut quote, and context shown before it when the quote is windowed. */
const WORD_ROOM = 40;
const LEAD = 80;

/**
 * A finding's quote, cut to QUOTE_MAX so a report stays readable and a finding small, whatever line
 * the Writer wrote (finding-place.ts finds a cut quote in the file by what it keeps). A quote that
 * knows its word (`at`) is windowed around it, "..." marking each cut: `at` is then an offset into
 * the window, so it is always inside `text` (README) and the quoted line shows the word. Before, the
 * quote was the line's head and `at` an offset into the whole line, past the quote's end.
 */
function quoteOf(span: FindingSpan): FindingSpan {
  const { line, text, at } = span;
  if (text.length <= QUOTE_MAX) return at !== undefined ? { line, text, at } : { line, text };
  const headRoom = QUOTE_MAX - QUOTE_CUT.length;
  if (at === undefined || at + WORD_ROOM <= headRoom) return { line, text: text.slice(0, headRoom) + QUOTE_CUT, ...(at !== undefined ? { at } : {}) };
  const start = Math.max(0, Math.min(at - LEAD, text.length - headRoom));
  const toEnd = start + headRoom >= text.length;
  const body = text.slice(start, start + QUOTE_MAX - QUOTE_CUT.length * (toEnd ? 1 : 2));
  return { line, text: QUOTE_CUT + body + (toEnd ? '' : QUOTE_CUT), at: at - start + QUOTE_CUT.length };
}

/**
 * A line in square brackets that is the Writer's note or a marker, not the scene: "[Note: …]", "[Scene 2]",
 * "[End of scene]"; or an HTML comment ("<!-- CLAIMS and SCENE_EVENTS below, in one block -->": held-out
 * corpus 62, bi05, read as the scene's last line).
 */
export const BRACKET_NOTE = /^\s*(?:\[\s*(?:notes?|word count|end|scene|sc\d|author|ooc|continued|cont['’]?d)\b|<!--.*-->\s*$)/i;
/**
 * A stage direction in square brackets ("[Catiline leans in from the dark of the peristyle, lifts a
 * cup…]": held-out corpus 53, az14) is action: the prose reader reads it as narration without its
 * brackets, and the hook rule as the scene's last line of action.
 */
export const BRACKETED = /^\s*\[([^\]]*)\]\s*$/;
/**
 * A stage direction in square brackets inside a line of speech ('"I won't sit." [Murena drops a heavy leather bag
 * onto the bench beside Varo. It clinks.] "There's seventy thousand denarii in that bag…"': held-out corpus 82,
 * cc19) is action too: read without its brackets ("[Murena" named nobody). Not a footnote's "[^1]" nor a note.
 */
export const INLINE_DIRECTION = /\[(?!\s*(?:\^|notes?\b|ooc\b|author\b))([^[\]]*\p{L}[^[\]]*)\]/giu;

/** Scene text lines with their raw-file line numbers. */
export function textLines(p: ParsedWriterOutput): { line: number; text: string }[] {
  if (!p.scene_text) return [];
  return p.scene_text.split('\n').map((text, i) => ({ line: p.text_first_line + i, text }));
}
