import type { Finding } from '../../../domain/scene.js';
import { finding, type VerifyContext } from '../context.js';
import type { Reading } from '../prose/reader.js';
import { closes, endsOnCliffhanger } from '../prose/outcome.js';
import { failedBeatShownSucceeding } from '../prose/beats.js';
import { spanOf } from '../prose/span.js';

/** How many closing sentences a cliffhanger's resolution is looked for in. */
const LAST = 4;

/**
 * A beat planned to fail shown coming off in the prose (AUR5035): one finding per scene. A success
 * that belongs to another application of the scene, planned to succeed, is no finding; a doubtful
 * reading (a tie between applications, a weakly matched secret) is soft.
 */
export function proseOutcomeRules(r: Reading, ctx: VerifyContext): Finding[] {
  const won = failedBeatShownSucceeding(r, ctx);
  if (!won) return [];
  const { app } = won;
  return [finding('AUR5035', won.sure ? 'hard' : 'soft', ctx.packet.scene_id, 'prose.outcome', { beat: app.beat_id, operator: app.operator_name }, spanOf(won.sentence))];
}

/** A cliffhanger answered in the scene's last sentences (AUR5036); irony nearby makes it doubtful. */
export function proseCliffhangerRules(r: Reading, ctx: VerifyContext): Finding[] {
  if (!endsOnCliffhanger(ctx.packet)) return [];
  const tail = r.sentences.filter((x) => x.line > 0).slice(-LAST);
  // Told in the past, the closures are read in the past too (outcome.ts): a narration sentence of it is a past one.
  const past = r.narration.some((n) => n.past);
  for (let i = 0; i < tail.length; i++) {
    const c = closes(tail[i].text, tail.slice(i + 1).map((x) => x.text), past && tail[i].kind === 'narration');
    if (c) return [finding('AUR5036', c === 'sure' ? 'hard' : 'soft', ctx.packet.scene_id, 'prose.cliffhanger_resolved', { hook: ctx.packet.constraints.hook_requirement }, spanOf(tail[i]))];
  }
  return [];
}
