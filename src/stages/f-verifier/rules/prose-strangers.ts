import type { Finding } from '../../../domain/scene.js';
import { finding, type VerifyContext } from '../context.js';
import type { Reading } from '../prose/reader.js';
import { spanOf } from '../prose/span.js';
import { clearlyPresent } from '../prose/tense.js';
import { praenomenOf } from '../../../core/forms-of-address.js';
import { escapeRegExp } from '../../../core/regex.js';

/** The words of a name that tell one person from another: a praenomen is shared by half the Senate. */
const nameWords = (name: string): string[] =>
  name
    .split(/\s+/)
    .filter((w) => !praenomenOf(w))
    .map((w) => w.toUpperCase().replace(/['’]$/, ''));

/**
 * A person nobody knows speaking in narration, through a said-tag ('"The ships are late," says Gnaeus Plautius'),
 * judged as a cue line's unknown speaker is (rules/presence.ts, AUR5012): fine when a `minor_character` claim
 * introduces them (its text names them), else not in the cast. `claimedExtras`: those claims' texts, upper case; null
 * when the CLAIMS section is unusable (then nobody is judged, as for cues). A name a cue of the scene also speaks under
 * is the cue rule's. One finding per person.
 *
 * Hard when the name is surely a person's (a praenomen and a name, two names, a gentile name's "-ius"), as a known
 * person's said-tag makes AUR5016 hard; soft for a lone word of no such shape ("Davus said"), which may be a nickname,
 * a god or a thing the word lists do not know.
 */
export function proseStrangerRules(r: Reading, ctx: VerifyContext, claimedExtras: readonly string[] | null): Finding[] {
  if (!claimedExtras) return [];
  const pk = ctx.packet;
  const cast = pk.cast.map((c) => c.name).join(', ');
  const cues = [...r.cues.values()];
  const claimed = (w: string) => claimedExtras.some((x) => new RegExp(`(?<!\\p{L})${escapeRegExp(w)}(?!\\p{L})`, 'u').test(x));
  const seen = new Set<string>();
  const out: Finding[] = [];
  // Told in the present beyond doubt (tense.ts clearlyPresent): a few sentences of no clear tense are not.
  let told: boolean | undefined;
  const present = () => (told ??= clearlyPresent(r.narration.filter((n) => n.line > 0)));
  for (const n of r.narration) {
    // A past tag in a scene told in the present beyond doubt is a line remembered ('he is thinking about what Ligus told him three
    // nights ago. ¶ "Ostia is not the Subura," Ligus said': held-out corpus 94, co05), as a past verb is no deed now.
    if (!n.stranger || n.line <= 0 || (n.stranger.past && present())) continue;
    const words = nameWords(n.stranger.name);
    if (words.some((w) => seen.has(w) || claimed(w) || cues.some((c) => c.split(/\s+/).includes(w)))) continue;
    for (const w of words) seen.add(w);
    const sev = n.stranger.sure ? 'hard' : 'soft';
    out.push(finding('AUR5012', sev, pk.scene_id, 'cast.speaker_not_in_cast', { name: n.stranger.name, cast }, spanOf(n, n.stranger.name)));
  }
  return out;
}
