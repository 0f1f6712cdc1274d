import type { Finding } from '../../../domain/scene.js';
import { finding, type VerifyContext } from '../context.js';
import type { Reading } from '../prose/reader.js';
import { closes, depictsSuccess, endsOnCliffhanger, failBeats } from '../prose/outcome.js';
import { spanOf } from '../prose/span.js';
import { failOwner } from '../prose/beats.js';

/** How many closing sentences a cliffhanger's resolution is looked for in. */
const LAST = 4;

/**
 * A beat planned to fail shown coming off in the prose (AUR5035): one finding per scene. A success
 * that belongs to another application of the scene, planned to succeed, is no finding; one that
 * could belong to either is doubtful (soft).
 */
export function proseOutcomeRules(r: Reading, ctx: VerifyContext): Finding[] {
  if (!failBeats(ctx.packet).length) return [];
  let doubtful: Finding | undefined;
  for (const s of r.sentences) {
    if (s.line <= 0 || !depictsSuccess(s.text)) continue;
    const o = failOwner(s, ctx.packet);
    if (!o) continue;
    const f = finding('AUR5035', o.sure ? 'hard' : 'soft', ctx.packet.scene_id, 'prose.outcome', { beat: o.app.beat_id, operator: o.app.operator_name }, spanOf(s));
    if (o.sure) return [f];
    doubtful ??= f;
  }
  return doubtful ? [doubtful] : [];
}

/** A cliffhanger answered in the scene's last sentences (AUR5036); irony nearby makes it doubtful. */
export function proseCliffhangerRules(r: Reading, ctx: VerifyContext): Finding[] {
  if (!endsOnCliffhanger(ctx.packet)) return [];
  const tail = r.sentences.filter((x) => x.line > 0).slice(-LAST);
  for (let i = 0; i < tail.length; i++) {
    const c = closes(tail[i].text, tail[i + 1]?.text ?? '');
    if (c) return [finding('AUR5036', c === 'sure' ? 'hard' : 'soft', ctx.packet.scene_id, 'prose.cliffhanger_resolved', { hook: ctx.packet.constraints.hook_requirement }, spanOf(tail[i]))];
  }
  return [];
}
