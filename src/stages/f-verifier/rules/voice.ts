import type { Claim, Finding, FindingSpan, SceneEvent } from '../../../domain/scene.js';
import { spanOf } from '../prose/span.js';
import type { ParsedWriterOutput } from '../../e-writer/parse.js';
import { eraHits, findAnachronismsIn } from '../../../style/anachronisms.js';
import type { AnachronismHit } from '../../../style/lexicon.js';
import { BRACKET_NOTE, BRACKETED, finding, textLines, type VerifyContext } from '../context.js';
import { HOOK_MAX_WORDS, HOOK_SENTENCE_MAX_WORDS } from '../../../domain/hook.js';
import { endsSpeaking } from '../prose/unquoted.js';
import { personIndex } from '../prose/names.js';
import { cuePrefixLength } from '../dialogue.js';

/** Lines that are not in-world speech or narration: a heading, the cast line, a title card. */
const OUT_OF_WORLD = /^\s*(?:#|\*\*Cast\b|Cast:|(?:\*\*)?(?:SUPER|TITLE|CAPTION|CARD|INTERTITLE)\b)/i;

/** Anachronisms in in-world text: the shipped vocabulary merged with the world's lexicon, and era dating. */
export function anachronismsIn(text: string, ctx: VerifyContext): AnachronismHit[] {
  return [...findAnachronismsIn(text, ctx.lexicon), ...eraHits(text)].sort((a, b) => a.index - b.index);
}

/** One finding per word: a word said n times (on one line, in one claim, in one event) is one finding ending "(×n)". */
const anachronism = (h: AnachronismHit & { times?: number }, ctx: VerifyContext, span?: FindingSpan): Finding => {
  const f = finding('AUR5050', 'hard', ctx.packet.scene_id, 'voice.anachronism', { word: h.word, replacement: quoteAlternatives(h.replacement) }, span);
  return h.times && h.times > 1 ? { ...f, message: `${f.message} (×${h.times})` } : f;
};

/**
 * The hits of one line, claim or event with each word (as written) once, at its first place, with how
 * many times it is there: "OK" twenty times on a line was twenty identical findings, one fix.
 */
function onceEach(hits: AnachronismHit[]): (AnachronismHit & { times: number })[] {
  const byWord = new Map<string, AnachronismHit & { times: number }>();
  for (const h of hits) {
    const seen = byWord.get(h.word);
    if (seen) seen.times++;
    else byWord.set(h.word, { ...h, times: 1 });
  }
  return [...byWord.values()];
}

/**
 * Anachronisms in the scene text (issue 14: src/style/anachronisms.ts, stemmed, with compounds and
 * the Roman-correct allowlist), quoted with the replacement. Era dating is judged only on in-world
 * lines: a title card may say "63 BC", a speaker may not.
 */
export function anachronismRules(p: ParsedWriterOutput, ctx: VerifyContext): Finding[] {
  const out: Finding[] = [];
  for (const l of textLines(p)) {
    const words = findAnachronismsIn(l.text, ctx.lexicon);
    const era = OUT_OF_WORLD.test(l.text) ? [] : eraHits(l.text);
    // Pointed at the word itself (its first place on the line), not at the line's start.
    for (const h of onceEach([...words, ...era].sort((a, b) => a.index - b.index))) out.push(anachronism(h, ctx, { ...l, at: h.index }));
  }
  return out;
}

/**
 * Anachronisms in the claims: a claim may become canon, so its words are held to the same
 * vocabulary, and a claim carrying one is rejected (never canon). The span quotes the line of the
 * CLAIMS section that holds the word. Returns the findings and the claims to reject.
 */
export function claimAnachronismRules(p: ParsedWriterOutput, claims: Claim[], ctx: VerifyContext): { findings: Finding[]; rejected: Claim[] } {
  const lines = p.claims_section.text.split('\n');
  const out: Finding[] = [];
  const rejected: Claim[] = [];
  for (const c of claims) {
    const hits = anachronismsIn(c.text, ctx);
    if (hits.length) rejected.push(c);
    for (const h of onceEach(hits)) {
      const i = p.claims_section.first ? lines.findIndex((l) => l.toLowerCase().includes(h.word.toLowerCase())) : -1;
      const f = anachronism(h, ctx, i >= 0 ? spanOf({ line: p.claims_section.first + i, text: lines[i]! }, h.word) : undefined);
      // The claim is named: it is the claim, not a line of the scene, that must change.
      out.push({ ...f, message: `${f.message} in claim ${c.id}` });
    }
  }
  return { findings: out, rejected };
}

/** Anachronisms in the events' text: it is the record of what happened, read back into later packets. */
export function eventAnachronismRules(events: SceneEvent[], ctx: VerifyContext): Finding[] {
  return events.flatMap((e) =>
    typeof e.text === 'string'
      ? onceEach(anachronismsIn(e.text, ctx)).map((h) => {
          const f = anachronism(h, ctx);
          return { ...f, message: `${f.message} in event ${e.id}` };
        })
      : [],
  );
}

/** "very well; so be it" -> "very well" or "so be it" */
export function quoteAlternatives(replacement: string): string {
  return replacement
    .split(';')
    .map((x) => x.trim())
    .filter(Boolean)
    .map((x) => `"${x}"`)
    .join(' or ');
}

/** A screenplay transition on a line of its own. */
const TRANSITION = /^\s*(?:(?:[A-Z]+ )*(?:CUT|DISSOLVE|FADE|SMASH CUT|MATCH CUT|JUMP CUT) TO(?: BLACK)?[:.]?|FADE OUT[:.]?|FADE TO BLACK[:.]?|THE END\.?|END(?: OF SCENE)?\.?)\s*$/;
/** A markdown thematic break on a line of its own: three or more of -, * or _. */
const THEMATIC_BREAK = /^\s*(?:[-*_]\s*){3,}$/;
/** Where a sentence ends inside a paragraph: terminal punctuation (a closing quote kept), then a capital, quote or bracket. */
const SENTENCE_END = /(?<=[.!?…]["'’”)*]*)\s+(?=["'‘“(*_]*\p{Lu})/u;

/**
 * Soft: the scene must end on a hook or button line, i.e. a last line that is dialogue or a short
 * action line ending in terminal punctuation, or a paragraph ending on such a short sentence; not a
 * heading, a cast line, a summary paragraph or a paragraph ending on a long sentence.
 */
export function hookRule(p: ParsedWriterOutput, ctx: VerifyContext): Finding[] {
  // A screenplay's closing transition ("CUT TO:", "FADE OUT.") is furniture: the hook is the line before it (held-out corpus 19, f05).
  // So is a Writer's note in square brackets after the scene; a closing stage direction in brackets is its last line of action (held-out corpus 53).
  // And a markdown rule closing the scene section before the next heading ("---": held-out corpus 97, cr11).
  const lines = textLines(p).filter((l) => l.text.trim() && !TRANSITION.test(l.text) && !BRACKET_NOTE.test(l.text) && !THEMATIC_BREAK.test(l.text));
  if (!lines.length) return [];
  const last = lines[lines.length - 1];
  const t = last.text.trim().replace(/^>\s*/, '').replace(BRACKETED, '$1').trim();
  const words = (s: string) => s.split(/\s+/).length;
  const isHeading = /^#/.test(t) || /^\*\*Cast/i.test(t);
  const terminal = /[.!?…—–"'’”»)*]$/.test(t);
  // A last line of dialogue is a button whatever its length, as the docstring says: a spoken parting
  // shot ('"Tell the consul," he calls back over his shoulder, …': held-out corpus 31, ad04), also in guillemets or
  // after a dialogue dash ("«Well,» he says to nobody at all.", "— You have charged me, Consul, he says.": 86, cg05, cg01).
  // So is a paragraph closing on a quotation ('… like a brand on a beast's flank. "Good," he says. "There are speeches
  // for the defence in the Forum tomorrow, and …"': held-out corpus 110, de03).
  const closing = t.split(SENTENCE_END).pop()!;
  // And one whose last words are said, a tag before them ('… as he passes the praetor's chair he says, to nobody in
  // particular, "Find me the man who sold it."': held-out corpus 111, df01).
  // And a speaker's line after its cue, in any form ('TERENTIA (turning from the wall). You will both know tomorrow. …':
  // held-out corpus 114, di11).
  const spoken = /^(?:["“‘«»„]|[—–]\s)/.test(t) || /^["“«„]/.test(closing) || /[,:]\s*["“][^"“”]+[.!?…]["”]$/.test(t) || cuePrefixLength(t) > 0;
  const short = spoken || words(t) <= HOOK_MAX_WORDS || words(closing) <= HOOK_SENTENCE_MAX_WORDS;
  if (!isHeading && terminal && lines.length > 2 && (short || endsUnquotedSpeech(lines, ctx))) return [];
  return [finding('AUR5060', 'soft', ctx.packet.scene_id, 'quality.no_hook', { hook: ctx.packet.constraints.hook_requirement }, last)];
}

/** Whether the scene sets its dialogue with no quotation marks and its last line ends on words said (prose/unquoted.ts). */
function endsUnquotedSpeech(lines: readonly { text: string }[], ctx: VerifyContext): boolean {
  const forms = personIndex(ctx).forms;
  return endsSpeaking(lines, (w) => forms.has(w.toLowerCase()));
}
