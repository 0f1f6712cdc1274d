import type { Finding } from '../../../domain/scene.js';
import { forbiddenSecretFact } from '../../d-packets/forbidden.js';
import { finding, type VerifyContext } from '../context.js';
import type { Reading } from '../prose/reader.js';
import { hearersOf } from '../prose/hearing.js';
import { proseForbiddenRules } from './prose-facts.js';
import { factMatch, signature } from '../prose/facts.js';

/**
 * How many of a secret's predicate words a telling must say. The reading of a forbidden fact is sure of a sentence that
 * names two of its people or places and two of its words; of a secret the cast holds, such a sentence is talk around
 * it ("Tomorrow you will spend it at Ostia, opening your granaries for me" of Varo's hoard; "I charge Crassus with
 * lending his money … to Catiline's friends" of his backing: held-out corpora 100, cu02, and 26, i01), not the secret
 * told to someone new.
 */
const TOLD_ROOTS = 4;

/** The most predicate words of the secret said in the sentence at `k`, alone or with the one before or after it. */
function saidOf(r: Reading, k: number, text: string): number {
  const sig = signature(text, r.index);
  const ss = r.sentences;
  const windows = [ss[k]!.text, ...(k > 0 ? [`${ss[k - 1]!.text} ${ss[k]!.text}`] : []), ...(k + 1 < ss.length ? [`${ss[k]!.text} ${ss[k + 1]!.text}`] : [])];
  return Math.max(...windows.map((w) => factMatch(w, sig, r.index)?.roots ?? 0));
}

/**
 * A secret said aloud in the hearing of a cast member who does not hold it, where no planned delta makes them a holder
 * (AUR5048; prose audit 2, finding 7): Crassus tells Servilia of Varo's hoard (holders Crassus and Varo) at her table,
 * Servilia tells Tertulla what Caesar owes. A cast member who holds the secret may say it — stage F lets a sentence
 * that tells it pass as no leak (AUR5046) — but the listener learns it and the world's `holders` do not: the next
 * scene's packet still forbids them to know what the audience watched them hear.
 *
 * Read as play reads a secret told (play/disclosure.ts): each such secret is put to stage F's reading of a forbidden
 * fact, and only a sure telling counts (stated as fact, not hedged, asked or denied), in words said (a quotation or a
 * cue line: narration that states it is the narrator's, heard by nobody). Who hears it: prose/hearing.ts.
 *
 * Soft, as money paid that no transfer moves is (AUR5023): the prose is true to the world (a holder says what they
 * know); what is missing is the record of who learnt it, and who in a room hears a line is staging the reader sees only
 * in part (an aside not written as one, a listener the text forgets). A secret a beat of the scene binds is the beat's
 * (prose-beats.ts), and an inert one is spent.
 */
export function proseSecretHeardRules(r: Reading, ctx: VerifyContext): Finding[] {
  const pk = ctx.packet;
  const cast = pk.cast.map((c) => c.id);
  const bound = new Set(pk.director_instructions.sequence.map((q) => q.bindings.secret).filter(Boolean));
  const forbidden = new Set(pk.constraints.forbidden_facts);
  const learns = (id: string, who: string) => pk.constraints.required_deltas.some((d) => d.path === `secrets.${id}.holders` && d.op === 'add' && d.value === who);
  const unheld = (s: (typeof pk.retrieved_subgraph.secrets)[number]) => cast.filter((c) => !s.holders.includes(c) && !learns(s.id, c));
  const candidates = pk.retrieved_subgraph.secrets.filter(
    (s) => s.status !== 'inert' && !bound.has(s.id) && !forbidden.has(forbiddenSecretFact(s.text)) && s.holders.some((h) => cast.includes(h)) && unheld(s).length > 0,
  );
  if (!candidates.length) return [];
  const probe = { ...ctx, packet: { ...pk, constraints: { ...pk.constraints, forbidden_facts: candidates.map((s) => forbiddenSecretFact(s.text)) } } };
  const out: Finding[] = [];
  for (const f of proseForbiddenRules(r, probe)) {
    const secret = f.severity === 'hard' && f.span ? candidates.find((s) => f.message.endsWith(s.text)) : undefined;
    const k = secret ? r.sentences.findIndex((s) => s.line === f.span!.line && s.text === f.span!.text) : -1;
    const at = r.sentences[k];
    if (!secret || !at || !(at.kind === 'speech' || /["“”]/u.test(at.text)) || saidOf(r, k, secret.text) < TOLD_ROOTS) continue;
    const who = hearersOf(r, k, unheld(secret), ctx);
    if (!who.length) continue;
    const names = who.map((id) => pk.cast.find((c) => c.id === id)?.name ?? id).join(', ');
    out.push(finding('AUR5048', 'soft', pk.scene_id, 'prose.secret_heard', { secret: secret.id, who: names }, f.span));
  }
  return out;
}
