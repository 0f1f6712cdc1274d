import type { World } from '../../domain/world.js';
import { diag } from '../../diagnostics/index.js';
import { AureusError, ExitCode } from '../../errors.js';
import { breaksHardConstraint } from '../c-director/hard-constraints.js';
import { violatedConstraints } from '../../core/invariants.js';

/**
 * The last gate before the commit (issue 12): the episode's whole delta set, applied, must keep
 * every hard constraint of world/constraints.json that held before it. Otherwise nothing is
 * committed: AUR2070 names the constraint (exit 6, the plan cannot be committed as it stands).
 */
export function requireHardConstraints(before: World, after: World, episode: number, episodeId: string): void {
  const id = breaksHardConstraint(before, after, episode);
  if (id === null) return;
  const detail = violatedConstraints(after, 'hard', { episode }).find((v) => v.id === id)!.diagnostic;
  throw new AureusError(`the changes of ${episodeId} break the hard constraint ${id}`, {
    exitCode: ExitCode.PLAN_INFEASIBLE,
    diagnostics: [diag('AUR2070', { episode: episodeId, id }, { file: detail.file, pointer: detail.pointer }), detail],
  });
}
