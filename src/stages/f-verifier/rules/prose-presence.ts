import type { Finding } from '../../../domain/scene.js';
import { finding, type VerifyContext } from '../context.js';
import type { Reading } from '../prose/reader.js';
import { deedOf, mayBeDoneBy, type Deed, type Narration } from '../prose/deeds.js';
import { spanOf } from '../prose/span.js';
import { arrivalsElsewhere, placedFar } from '../prose/arrivals.js';
import { spokenWhereabouts } from '../prose/spoken-whereabouts.js';
import { clauseDoers } from '../prose/clause-doers.js';
import { bodyPartDoers } from '../prose/body-parts.js';
import { pronounDoer } from '../prose/pronoun-doer.js';
import { deedEarlierToday } from '../prose/recent-past.js';

/** Whether a deed by `id` (placed `elsewhere`, told on `line`) makes a finding below, offstage words aside. */
function matters(r: Reading, id: string, elsewhere: string | undefined, line: number): boolean {
  const who = r.index.byId.get(id);
  if (!who) return false;
  if (elsewhere) return who.inCast && !who.dead;
  return who.dead || (!who.inCast && line > 0);
}

/**
 * Who speaks or acts in the prose, judged like cue lines and event actors: the dead do not
 * (AUR5015), nobody outside the cast does (AUR5016), and a cast member is not put somewhere else
 * mid-scene (AUR5017), nor said to have just come from a place too far for the days they had. One
 * finding per person and rule; a doubtful reading is soft.
 */
export function prosePresenceRules(r: Reading, ctx: VerifyContext): Finding[] {
  const out: Finding[] = [];
  const pk = ctx.packet;
  const cast = pk.cast.map((c) => c.name).join(', ');
  const seen = new Set<string>();
  const once = (key: string, f: () => Finding) => {
    if (seen.has(key)) return;
    seen.add(key);
    out.push(f());
  };
  const sev = (d: Deed) => (d.sure ? 'hard' : 'soft');
  /** A deed on this stage: the dead do not act (AUR5015), nobody outside the cast does (AUR5016). `n`: its sentence, whose name for the doer the span points at. */
  const judge = (d: Deed, n: Narration) => {
    const who = r.index.byId.get(d.id)!;
    const span = spanOf(d, nameOf(n, d.id));
    if (who.dead) once(`d:${d.id}`, () => finding('AUR5015', sev(d), pk.scene_id, 'prose.dead_on_stage', { name: who.name, how: d.how }, span));
    else if (!who.inCast && d.line > 0) once(`c:${d.id}`, () => finding('AUR5016', sev(d), pk.scene_id, 'prose.not_in_cast', { name: who.name, how: d.how, cast }, span));
  };
  for (const n of r.narration) {
    // Only a deed that can make a finding below is looked for (finding it tags the sentence).
    // Where a scene told in the past puts someone ("Clodius was back in the Subura": places.ts placedThen).
    const placedAt = (id: string) => (n.past ? n.placed?.find((p) => p.id === id) : undefined);
    if (!mayBeDoneBy(n, (id) => matters(r, id, n.elsewhere, n.line) || !!placedAt(id))) continue;
    const d = deedOf(n);
    if (!d) continue;
    const who = r.index.byId.get(d.id);
    if (!who) continue;
    // A teleport's span points at the far place (the person may be on stage; being there is what cannot be).
    if (d.elsewhere) {
      if (who.inCast && !who.dead) once(`t:${d.id}`, () => finding('AUR5017', sev(d), pk.scene_id, 'prose.teleport', { name: who.name, location: pk.setting.location_name, place: d.elsewhere! }, spanOf(d, d.elsewhere)));
      continue;
    }
    // A cast member placed at a far world location mid-scene, told in the past ("was back in the Subura").
    const placed = who.inCast && !who.dead ? placedAt(d.id) : undefined;
    if (placed && placed.place === d.offstage && placedFar(placed.place, d.id, r, ctx)) {
      once(`t:${d.id}`, () => finding('AUR5017', sev(d), pk.scene_id, 'prose.teleport', { name: who.name, location: pk.setting.location_name, place: placed.place }, spanOf(d, placed.place)));
      continue;
    }
    // Someone doing something "somewhere across the city" is not on this stage, and where exactly is not said;
    // a dead man's body lying somewhere is no deed of his.
    if (!d.offstage && !(who.dead && d.body)) judge(d, n);
  }
  // Then the doers a sentence's first doer hides: in its other clauses, or behind a subject pronoun.
  // Only people not judged yet are looked for, so the findings above stay as they were.
  const unjudged = (line: number) => (id: string) => !seen.has(`d:${id}`) && !seen.has(`c:${id}`) && matters(r, id, undefined, line);
  for (const n of r.narration) {
    const ask = unjudged(n.line);
    if (n.elsewhere || n.imagined || !(n.mentions.some((m) => ask(m.id)) || /^\s*(?:he|she)\b/i.test(n.narr))) continue;
    const first = deedOf(n)?.id;
    // Further clauses: any for the dead; for the living outside the cast only a clause of time ("When Terentia looks
    // away, Curius slips in"), which tells what happens here as its main clause does. A "because" or "although" clause
    // is as often a report or a reason from elsewhere (the offline writer's own drafts against later packets).
    const alive = (id: string) => !r.index.byId.get(id)!.dead;
    // A hand, a voice, a shadow doing the verb is its owner doing it (body-parts.ts), for the uncast as for the dead.
    const more = [...clauseDoers(n, first, ask, alive), ...bodyPartDoers(n, ask), ...(first ? [] : [pronounDoer(n, r.index, ctx, ask)])];
    for (const s of more) if (s) judge({ id: s.id, how: 'acts', line: n.line, text: n.text, sure: s.sure }, n);
  }
  // A dead person's deed earlier this very day, in the past perfect (recent-past.ts): sure when the world had them
  // dead before the episode began; one who died during it may have acted that morning.
  for (const n of r.narration) {
    for (const id of new Set(n.mentions.map((m) => m.id))) {
      if (seen.has(`d:${id}`) || !r.index.byId.get(id)?.dead || !deedEarlierToday(n, id)) continue;
      const sure = ctx.characters?.find((c) => c.id === id)?.status === 'dead';
      judge({ id, how: 'acts', line: n.line, text: n.text, sure }, n);
    }
  }
  // A cast member just come from, or a night spent at, a place too far for the days they had: told
  // by the narration (arrivals.ts) or in their own words (spoken-whereabouts.ts).
  for (const a of [...arrivalsElsewhere(r, ctx), ...spokenWhereabouts(r, ctx)]) {
    const name = pk.cast.find((c) => c.id === a.id)?.name ?? a.id;
    once(`t:${a.id}`, () => finding('AUR5017', 'hard', pk.scene_id, 'prose.teleport', { name, location: pk.setting.location_name, place: a.place }, spanOf(a, a.place)));
  }
  return out;
}

/** How the sentence names the person (its first mention of them, as written), or undefined (a pronoun). */
function nameOf(n: Narration, id: string): string | undefined {
  return n.mentions.find((m) => m.id === id)?.text;
}
