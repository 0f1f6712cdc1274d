import type { Finding } from '../../../domain/scene.js';
import { finding, type VerifyContext } from '../context.js';
import type { ProseSentence, Reading } from '../prose/reader.js';
import { canonStatements } from '../prose/canon.js';
import { factMatch, quotedFact, signature } from '../prose/facts.js';
import { spanOf } from '../prose/span.js';

const HEARSAY = /\b(?:rumou?rs?|they say|men say|people say|I hear|some say|is said|are saying|were saying|perhaps|maybe|if)\b|\?/i;

/** A packet's forbidden facts said in the prose, paraphrased or not, in one sentence or two adjacent ones (AUR5046). */
export function proseForbiddenRules(r: Reading, ctx: VerifyContext): Finding[] {
  const pk = ctx.packet;
  const out: Finding[] = [];
  const sigs = pk.constraints.forbidden_facts.map(quotedFact).filter((f): f is string => !!f).map((f) => signature(f, r.index));
  const done = new Set<string>();
  const ss = r.sentences;
  for (let i = 0; i < ss.length; i++) {
    const pair = i + 1 < ss.length && ss[i + 1].line - ss[i].line <= 2 ? `${ss[i].text} ${ss[i + 1].text}` : ss[i].text;
    for (const sig of sigs) {
      if (done.has(sig.text)) continue;
      const m = factMatch(ss[i].text, sig, r.index) ?? factMatch(pair, sig, r.index);
      if (!m) continue;
      done.add(sig.text);
      const sure = !HEARSAY.test(pair) && m.entities + m.roots >= 5;
      out.push(finding('AUR5046', sure ? 'hard' : 'soft', pk.scene_id, 'prose.forbidden_fact', { fact: sig.text }, spanOf(ss[i])));
    }
  }
  return out;
}

function planned(ctx: VerifyContext, id: string): boolean {
  return ctx.packet.constraints.required_deltas.some((d) => d.path === `characters.${id}.status`);
}

/** Life, death and party as the prose states them, against the packet (AUR5047). */
export function proseCanonRules(r: Reading, ctx: VerifyContext): Finding[] {
  const pk = ctx.packet;
  const out: Finding[] = [];
  const seen = new Set<string>();
  for (const s of r.sentences as ProseSentence[]) {
    for (const st of canonStatements(s.text, s.mentions, r.index)) {
      const p = r.index.byId.get(st.id);
      if (!p || planned(ctx, st.id)) continue;
      let detail = '';
      if (st.says === 'dead' && !p.dead) detail = `${p.name} is alive, not dead`;
      else if (st.says === 'alive' && p.dead) detail = `${p.name} is dead`;
      else if (st.says === 'faction' && p.faction && st.faction !== p.faction.toLowerCase()) detail = `${p.name} is of the ${p.faction}, not the ${st.faction}`;
      if (!detail || seen.has(detail)) continue;
      seen.add(detail);
      out.push(finding('AUR5047', st.hedged ? 'soft' : 'hard', pk.scene_id, 'prose.canon', { detail }, spanOf(s)));
    }
  }
  return out;
}
