import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { registerImport } from './import.js';
import { registerCost } from './cost.js';
import { registerInit } from './init.js';
import { registerValidate } from './validate.js';
import { registerSceneVerify } from './scene-verify.js';
import { registerEpisodePlan } from './episode-plan.js';

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
];
