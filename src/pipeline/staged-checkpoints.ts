import { AureusError, ExitCode } from '../errors.js';
import { diag, type Diagnostic } from '../diagnostics/index.js';
import { Checkpoints } from './checkpoint.js';
import { steeringFlags } from '../stages/c-director/steering.js';
import type { ReviewState } from './review-state.js';

/**
 * The checkpoints of an episode staged for review, as the review commands (`episode review`,
 * `scene rewrite|edit|pin|unpin`, the hand edits `episode commit` adopts) read them. They built their
 * Checkpoints without a warning sink, so a damaged one was ignored without a word: a damaged stage H
 * checkpoint hid the staged script from `episode review` and let the next staging write stage/ over
 * the author's hand edits; a damaged planning or scenes checkpoint was "no episode is staged". A
 * damaged checkpoint is now said as a run says it (AUR6098), with what it means under review, and
 * the staged episode itself refused when its planning or scenes cannot be read (damagedStaged).
 */
export interface StagedCheckpoints {
  cp: Checkpoints;
  /** The damaged stage H records met so far: AUR6098 each (a file once), with the review's hint. */
  warnings: Diagnostic[];
  /** Every damaged checkpoint met, with the file and what is wrong, for the refusal. */
  damaged: { file: string; detail: string }[];
}

/** What stage/ holds was staged as this checkpoint says: without it, no hand edit can be told from the staged text. */
const STAGED_HINT =
  'it records what the run folder\'s stage/ was staged as: until the episode is staged again (`aureus scene rewrite|edit` or `aureus episode commit` do stage H again and write stage/ anew), hand edits of the staged script are neither shown nor adopted, and that staging writes over them; keep a copy of yours and apply it with `aureus scene edit <SCxx> --from FILE`';

/** The checkpoints saying what stage/ was staged as; any other (planning, scenes) is the staged episode itself. */
const STAGED_RECORD = /\/checkpoints\/(stage-h|staged-baseline)\.json$/;

/**
 * `warnings`: the list the command says; a damage already in it is not said twice (each reader has its
 * own Checkpoints). A damaged planning or scenes checkpoint is only listed in `damaged`: loadStaged
 * refuses the episode with it (AUR6115), and a warning that it is "done again" would contradict that.
 */
export function stagedCheckpoints(runDir: string, warnings: Diagnostic[] = []): StagedCheckpoints {
  const damaged: StagedCheckpoints['damaged'] = [];
  const cp = new Checkpoints(runDir, (d, damage) => {
    damaged.push(damage);
    // Once for both names: a scene changed moves the damaged stage H checkpoint to the baseline (retireStageH).
    if (!STAGED_RECORD.test(damage.file) || warnings.some((w) => w.code === d.code && STAGED_RECORD.test(w.file ?? ''))) return;
    warnings.push({ ...d, hint: STAGED_HINT });
  });
  return { cp, warnings, damaged };
}

/**
 * The staged episode cannot be read (AUR6115, exit 3): its planning or scenes checkpoint is damaged.
 * It holds what the review did (the scenes edited and rewritten), so it is not done again behind the
 * author's back: the refusal names the file, and the hint the two ways on. The command that stages it
 * again carries the seed and steering the review record holds: without them `episode run --review`
 * plans another run folder and meets this refusal again.
 */
export function damagedStaged(review: Pick<ReviewState, 'episode' | 'seed' | 'steering'>, damaged: readonly { file: string; detail: string }[]): AureusError {
  const first = damaged[0]!;
  const seed = /^[A-Za-z0-9_.-]+$/.test(review.seed) ? review.seed : JSON.stringify(review.seed);
  const again = `aureus episode run --review --seed ${seed}${review.steering ? steeringFlags(review.steering) : ''}`;
  return new AureusError(`the episode staged for review cannot be read: ${first.file} is damaged`, {
    exitCode: ExitCode.INVALID_WORLD,
    diagnostics: damaged.map((d) => diag('AUR6115', { episode: review.episode, file: d.file, detail: d.detail, again }, { file: d.file })),
  });
}
