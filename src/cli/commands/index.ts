import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { registerImport } from './import.js';
import { registerCost } from './cost.js';
import { registerInit } from './init.js';
import { registerValidate } from './validate.js';
import { registerSceneVerify } from './scene-verify.js';
import { registerEpisodePlan } from './episode-plan.js';
import { registerEpisodeRun } from './episode-run.js';
import { registerSeason } from './season.js';
import { registerStatus } from './status.js';
import { registerRecap } from './recap.js';
import { registerDiff } from './diff.js';
import { registerBranch } from './branch.js';
import { registerRollback } from './rollback.js';
import { registerExport } from './export.js';
import { registerPlay } from './play.js';
import { registerSession } from './session.js';
import { registerQuery } from './query.js';
import { registerSceneReview } from './scene-review.js';
import { registerEpisodeReview } from './episode-review.js';
import { registerNote } from './note.js';

/**
 * Each command lives in its own thin module: parse options, call the domain, print.
 * Heavy modules (SDKs, the pipeline) are imported lazily inside the action, so `aureus --help`
 * stays fast.
 */
export type RegisterCommand = (program: Command, ctx: () => CommandContext) => void;

export const commands: RegisterCommand[] = [
  registerInit,
  registerValidate,
  registerImport,
  registerCost,
  registerSceneVerify,
  registerEpisodePlan,
  registerEpisodeRun,
  registerSeason,
  registerStatus,
  registerRecap,
  registerDiff,
  registerBranch,
  registerRollback,
  registerExport,
  registerPlay,
  registerSession,
  registerQuery,
  registerSceneReview,
  registerEpisodeReview,
  registerNote,
];
