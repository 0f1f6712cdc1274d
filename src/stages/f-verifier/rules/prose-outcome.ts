import type { Finding } from '../../../domain/scene.js';
import { finding, type VerifyContext } from '../context.js';
import type { Reading } from '../prose/reader.js';
import { closes, endsOnCliffhanger, failBeats } from '../prose/outcome.js';
import { failedBeatShownSucceeding } from '../prose/beats.js';
import { spanOf } from '../prose/span.js';

/** How many closing sentences a cliffhanger's resolution is looked for in. */
const LAST = 4;

/** A beat planned to fail shown coming off in the prose (AUR5035): one finding per scene; a doubtful reading is soft. */
export function proseOutcomeRules(r: Reading, ctx: VerifyContext): Finding[] {
  const fails = failBeats(ctx.packet);
  const won = fails.length ? failedBeatShownSucceeding(r, ctx) : null;
  if (!won) return [];
  const b = fails[0];
  return [finding('AUR5035', won.sure ? 'hard' : 'soft', ctx.packet.scene_id, 'prose.outcome', { beat: b.beat, operator: b.operator }, spanOf(won.sentence))];
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
