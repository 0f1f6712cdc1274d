import type { Finding } from '../../../domain/scene.js';
import { finding, type VerifyContext } from '../context.js';
import { factMatch, signature, type FactSignature } from '../prose/facts.js';
import type { Reading } from '../prose/reader.js';
import { spanOf } from '../prose/span.js';

/**
 * Words that present what is said as news or as a secret: "Have you heard?", "nobody knows",
 * "I have just learned", "between us". Said of a secret the world has already revealed, they
 * contradict canon: the whole city knows it.
 */
const AS_NEWS = /\b(?:have you heard|did you hear|you will not believe|you won't believe|(?:nobody|no one|not a soul)(?: else)? (?:knows|suspects|has guessed)|i have (?:just )?(?:learned|learnt|found out|discovered)|i've (?:just )?(?:learned|learnt|found out|discovered)|(?:only )?just (?:learned|learnt|found out|discovered)|(?:the|some|fresh) news|a secret|in confidence|between us|tell no one|do not tell|don't tell|keep (?:this|it) (?:quiet|to yourself)|i alone know)\b/i;

/**
 * A revealed secret told as news (AUR5047, canon): a sentence that says the secret (matched on its
 * people, places and content words, as a forbidden fact is) where it, or the line before it, frames
 * it as news or a confidence. Sure when the frame is in the same sentence and the match is strong;
 * a frame only in the line before is doubtful (soft). One finding per secret.
 */
export function proseNewsRules(r: Reading, ctx: VerifyContext): Finding[] {
  const pk = ctx.packet;
  const out: Finding[] = [];
  for (const sec of pk.retrieved_subgraph.secrets) {
    if (sec.status !== 'revealed') continue;
    // Tagged only once a sentence frames something as news.
    let sig: FactSignature | undefined;
    for (let i = 0; i < r.sentences.length; i++) {
      const s = r.sentences[i];
      if (s.line <= 0) continue;
      const here = AS_NEWS.test(s.text);
      const before = i > 0 && AS_NEWS.test(r.sentences[i - 1].text);
      if (!here && !before) continue;
      const m = factMatch(s.text, (sig ??= signature(sec.text, r.index)), r.index);
      if (!m) continue;
      const sure = here && 1.5 * m.entities + m.roots >= 5;
      out.push(finding('AUR5047', sure ? 'hard' : 'soft', pk.scene_id, 'prose.canon', { detail: `${sec.id} was revealed already; it is told as news` }, spanOf(s)));
      break;
    }
  }
  return out;
}
