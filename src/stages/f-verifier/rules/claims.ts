import type { Claim, Finding } from '../../../domain/scene.js';
import { forbiddenSecretText } from '../../d-packets/index.js';
import { finding, type VerifyContext } from '../context.js';
import { BoundedMemo } from '../../../core/bounded-memo.js';
import { escapeRegExp } from '../../../core/regex.js';
import { deniedBy } from './claims-denied.js';
import { pronounSaidDead, saidDeadAt, type Span } from '../prose/death.js';
import { genderOf } from '../../../core/forms-of-address.js';
import type { Gender } from '../../../domain/world.js';

/** Kinds that never become canon: always allowed, always downgraded to the cast's beliefs (spec §8.3). */
export const NON_CANON_KINDS = new Set(['rumor', 'belief']);

export interface ClaimsVerdict {
  findings: Finding[];
  accepted: Claim[];
  downgraded: Claim[];
  rejected: Claim[];
}

const ALIVE = /\b(alive|living|lives|survived|survives|breathes|breathing|walks again|not dead|unharmed|recovered)\b/i;

/** A death stated outright of its subject (not a threat, a wish or a rumour, which a rumour claim would carry). */
const DIED = '(?:died|is dead|was dead|lies dead|lay dead|was killed|has been killed|was murdered|was executed|was slain|is slain|was buried|is buried)';
const DEATH_OF = '(?:death|execution|funeral|murder|corpse|body|widow)';
/**
 * A word every match of DIED or DEATH_OF holds, as a whole word, or of prose/death.ts (its idioms of dying, DIED_IDIOM,
 * and a pronoun that "did not live to see").
 */
const DEATH_WORD = /\b(?:died|dead|killed|murdered|executed|slain|buried|death|execution|funeral|murder|corpse|body|widow|tomb|sepulchre|urn|barrow|pyre|grave|ashes|ash|dust|late|burial|bier|cremated|entombed|breathed|breathes|ghost|no\s+more|this\s+(?:life|world)|passed\s+away|shades|styx|live[ds]?\s+to\s+see)\b/i;

type Named = { id: string; name: string; cue: string; gender?: Gender };

/**
 * A living character a canon claim says is dead: named (full name, cue or a distinctive part of the
 * name) as the subject of a death ("Cicero … died in the night", "the funeral of Crassus",
 * "Cicero's widow"), in one of the constructions prose/death.ts reads ("the tomb of Cato, raised after
 * his death", "Cato, who died"), or the claim's own subject through a pronoun ("His tomb stands …").
 * Rumours and beliefs never reach here; "Varo's father died" is not Varo's death.
 */
function livingSaidDead(c: Claim, living: Named[], everyone: Named[]): Named | undefined {
  // Each pattern below needs one of these words: a claim without one is not tested name by name.
  if (!DEATH_WORD.test(c.text)) return undefined;
  const spans = new Map(everyone.map((p) => [p.id, spansOf(p, c.text)]));
  const others = (id: string) => [...spans].filter(([o]) => o !== id).flatMap(([, s]) => s);
  return living.find(
    (p) =>
      nameForms(p).some((n) => deathOf(n).test(c.text)) ||
      spans.get(p.id)!.some((at) => saidDeadAt(c.text, at, others(p.id))) ||
      (c.subject === p.id && pronounSaidDead(c.text, others(p.id), genderOf(p))),
  );
}

/** Where a person's name forms stand in a text (the longest form at a place). */
function spansOf(p: Named, text: string): Span[] {
  const out: Span[] = [];
  for (const n of nameForms(p)) {
    for (const m of text.matchAll(everyWordOf(n))) {
      const at = { start: m.index!, end: m.index! + m[0].length, gender: genderOf(p) };
      if (!out.some((o) => o.start <= at.start && o.end >= at.end)) out.push(at);
    }
  }
  return out;
}

/**
 * The name patterns (deathOf, wordOf), made once per name form: every claim of every scene asks
 * them of every living cast member's names, and building the RegExp each time was most of stage F's
 * CPU in an offline episode (issue 18). Bounded (core/bounded-memo.ts): a long-lived process that
 * verifies many worlds, or one world of thousands of characters, would otherwise keep a pattern for
 * every name it ever saw; at the bound they are all forgotten and made again when next asked.
 */
export const NAME_PATTERNS_MAX = 2000;
const deathPatterns = new BoundedMemo<string, RegExp>(NAME_PATTERNS_MAX);
const wordPatterns = new BoundedMemo<string, RegExp>(NAME_PATTERNS_MAX);
const everyPatterns = new BoundedMemo<string, RegExp>(NAME_PATTERNS_MAX);

/** How many name patterns of each kind are kept now (for the test of the bound). */
export function namePatternsHeld(): { death: number; word: number } {
  return { death: deathPatterns.size, word: wordPatterns.size };
}

/** A name form's death pattern. Not global, so `test` keeps no state between claims. */
function deathOf(form: string): RegExp {
  return deathPatterns.get(form, () => {
    const name = escapeRegExp(form);
    return new RegExp(`\\b${name}\\b(?!['’]s)[^.;:]{0,60}?\\b${DIED}\\b|\\b${DEATH_OF} of ${name}\\b(?!['’]s)|\\b${name}['’]s ${DEATH_OF}\\b`, 'i');
  });
}

/** Full name, cue, and the parts of a name longer than a praenomen (Marcus, Gaius are shared by many). */
function nameForms(p: { name: string; cue: string }): string[] {
  const parts = p.name.split(/\s+/).filter((w) => w.length > 3 && !PRAENOMINA.has(w));
  return [p.name, p.cue, ...parts].filter((n) => n && n.length > 2);
}

const PRAENOMINA = new Set(['Marcus', 'Gaius', 'Lucius', 'Publius', 'Quintus', 'Gnaeus', 'Titus', 'Decimus', 'Servius', 'Aulus', 'Sextus', 'Tiberius', 'Manius', 'Appius', 'Spurius', 'Numerius']);

function words(s: string): string[] {
  return s.toLowerCase().match(/[a-z]{4,}/g) ?? [];
}

/**
 * Whether a claim states a secret: it repeats most of the secret's significant words, or nearly all
 * of its own words are the secret's (a shorter paraphrase of it).
 */
export function statesSecret(claim: string, secret: string): boolean {
  const sw = new Set(words(secret));
  const cw = new Set(words(claim));
  if (!sw.size || !cw.size) return false;
  let shared = 0;
  for (const w of cw) if (sw.has(w)) shared++;
  return shared / sw.size >= 0.6 || (shared >= 5 && shared / cw.size >= 0.75);
}

interface Secret {
  id: string;
  text: string;
  /** Living cast members who hold it. */
  castHolders: string[];
}

/** Hidden secrets this scene knows of: its subgraph's, and the forbidden facts nobody here holds. */
function hiddenSecrets(ctx: VerifyContext): Secret[] {
  const pk = ctx.packet;
  const living = new Set(pk.cast.filter((c) => c.status !== 'dead').map((c) => c.id));
  const out: Secret[] = pk.retrieved_subgraph.secrets
    .filter((s) => s.status === 'hidden')
    .map((s) => ({ id: s.id, text: s.text, castHolders: s.holders.filter((h) => living.has(h)) }));
  pk.constraints.forbidden_facts.forEach((f, i) => {
    const text = forbiddenSecretText(f);
    if (text && !out.some((s) => s.text === text)) out.push({ id: `forbidden_facts[${i}]`, text, castHolders: [] });
  });
  return out;
}

/** How well the scene supports a claim: an extra who speaks is needed; otherwise the share of its words on screen. */
function strength(c: Claim, sceneText: string): number {
  const text = sceneText.toLowerCase();
  const cw = [...new Set(words(c.text))];
  const seen = cw.length ? cw.filter((w) => text.includes(w)).length / cw.length : 0;
  const name = c.kind === 'minor_character' ? /^([A-Z][a-z]+)/.exec(c.text)?.[1] : undefined;
  const speaks = name ? new RegExp(`^[\\s>*]*${name.toUpperCase()}\\b[^a-z\\n]*(?::|$)`, 'm').test(sceneText) : false;
  return (speaks ? 1 : 0) + seen;
}

/**
 * Sorts claims into accepted (canon at commit), downgraded (a rumour or belief with its holders)
 * and rejected (a hard finding that forces regeneration), spec §8.3:
 * - a claim stating a hidden secret: a belief of the cast members who hold it; when nobody here
 *   holds it, a `fact` is rejected (AUR5043);
 * - a kind the scene may not invent is rejected (AUR5041), a canon claim that the dead live too (AUR5042);
 * - a canon claim the scene's narration denies in the same place is rejected with a soft AUR5045;
 * - rumours and beliefs are downgraded to the living cast's beliefs;
 * - over the invention limit, the weakest canon claims (least supported by the scene) are
 *   downgraded to rumours, with a soft AUR5040: the scene does not fail for an honest extra detail.
 */
export function claimRules(claims: Claim[], ctx: VerifyContext, sceneText = '', firstLine = 1): ClaimsVerdict {
  const pk = ctx.packet;
  const scene = pk.scene_id;
  const v: ClaimsVerdict = { findings: [], accepted: [], downgraded: [], rejected: [] };
  const allowed = pk.constraints.allowed_inventions;
  const allowedKinds = [...new Set([...allowed.kinds, ...NON_CANON_KINDS])];
  const living = pk.cast.filter((c) => c.status !== 'dead').map((c) => c.id);
  const dead = [...pk.dead, ...(ctx.characters ?? []).filter((c) => c.status === 'dead')];
  const secrets = hiddenSecrets(ctx);
  const deadIds = new Set(dead.map((d) => d.id));
  const aliveNow = [...pk.cast, ...(ctx.characters ?? [])].filter((p) => p.status !== 'dead' && !deadIds.has(p.id));
  const canon: Claim[] = [];
  for (const c of claims) {
    const reject = (f: Finding) => {
      v.findings.push(f);
      v.rejected.push(c);
    };
    const secret = NON_CANON_KINDS.has(c.kind) ? undefined : secrets.find((s) => c.subject === s.id || statesSecret(c.text, s.text));
    if (secret?.castHolders.length) {
      // Someone here knows it: useful, but only as their belief, never as public canon.
      v.downgraded.push({ ...c, kind: 'belief', holders: secret.castHolders });
      continue;
    }
    if (secret && c.kind === 'fact') {
      reject(finding('AUR5043', 'hard', scene, 'claims.hidden_secret', { claim: c.id, secret: secret.id }));
      continue;
    }
    if (!allowedKinds.includes(c.kind)) {
      reject(finding('AUR5041', 'hard', scene, 'claims.kind_not_allowed', { claim: c.id, kind: c.kind, allowed: allowedKinds.join(', ') }));
      continue;
    }
    // Looked for only in a canon claim that says someone lives.
    const deadHit = ALIVE.test(c.text) && !NON_CANON_KINDS.has(c.kind) ? dead.find((d) => c.subject === d.id || [d.name, d.cue].some((n) => n && wordOf(n).test(c.text))) : undefined;
    if (deadHit) {
      reject(finding('AUR5042', 'hard', scene, 'claims.contradicts_canon', { claim: c.id, detail: `it says ${deadHit.name} is alive`, canon: `${deadHit.name} is dead` }));
      continue;
    }
    const diedHit = NON_CANON_KINDS.has(c.kind) ? undefined : livingSaidDead(c, aliveNow, [...aliveNow, ...dead]);
    if (diedHit) {
      reject(finding('AUR5042', 'hard', scene, 'claims.contradicts_canon', { claim: c.id, detail: `it says ${diedHit.name} is dead`, canon: `${diedHit.name} is alive` }));
      continue;
    }
    if (NON_CANON_KINDS.has(c.kind)) {
      v.downgraded.push({ ...c, holders: living });
      continue;
    }
    // The scene's narration says the opposite in the same place (claims-denied.ts): the claim never becomes
    // canon, but the scene stands (soft): the scene is what is committed, the claim only its bookkeeping.
    const denial = deniedBy(c, sceneText, firstLine);
    if (denial) {
      v.findings.push(finding('AUR5045', 'soft', scene, 'claims.denied_by_scene', { claim: c.id, sentence: denial.sentence }, { line: denial.line, text: denial.text }));
      v.rejected.push(c);
      continue;
    }
    canon.push(c);
  }
  overLimit(canon, allowed.max, sceneText, living, v, scene);
  withoutUnknownSubjects(v, ctx.subjects, scene);
  return v;
}

/**
 * An accepted claim whose subject names nothing in the world ("subject": "davus" for the porter it
 * invents) becomes canon without it: canon.json may name only ids the world has (store/references.ts,
 * AUR1022), so committing it would leave a world every later command refuses. The text is kept and
 * the scene does not fail for an honest extra (soft AUR5044).
 */
function withoutUnknownSubjects(v: ClaimsVerdict, subjects: ReadonlySet<string> | undefined, scene: string): void {
  if (!subjects) return;
  v.accepted = v.accepted.map((c) => {
    if (c.subject === undefined || subjects.has(c.subject)) return c;
    v.findings.push(finding('AUR5044', 'soft', scene, 'claims.unknown_subject', { claim: c.id, subject: c.subject }));
    const { subject: _unknown, ...kept } = c;
    return kept;
  });
}

/** Keeps the `max` strongest canon claims (ties: the earlier); the rest become rumours of the living cast. */
function overLimit(canon: Claim[], max: number, sceneText: string, living: string[], v: ClaimsVerdict, scene: string): void {
  const ranked = canon.map((c, i) => ({ c, i, s: strength(c, sceneText) })).sort((a, b) => b.s - a.s || a.i - b.i);
  const keep = new Set(ranked.slice(0, Math.max(0, max)).map((r) => r.c));
  const over = canon.filter((c) => !keep.has(c));
  v.accepted.push(...canon.filter((c) => keep.has(c)));
  for (const c of over) v.downgraded.push({ ...c, kind: 'rumor', holders: living });
  if (over.length) {
    v.findings.push(finding('AUR5040', 'soft', scene, 'claims.too_many', { count: canon.length, max, claim: over.map((c) => c.id).join(', ') }));
  }
}

/** A name as a whole word, every place it stands (matchAll copies a global pattern, so none keeps state). */
function everyWordOf(name: string): RegExp {
  return everyPatterns.get(name, () => new RegExp(`\\b${escapeRegExp(name)}\\b`, 'gi'));
}

/** A name as a whole word, case-insensitive (kept with deathOf's patterns). Not global: `test` keeps no state. */
function wordOf(name: string): RegExp {
  return wordPatterns.get(name, () => new RegExp(`\\b${escapeRegExp(name)}\\b`, 'i'));
}

