import type { Command } from 'commander';
import type { CommandContext } from '../context.js';

/**
 * Each command lives in its own thin module: parse options, call the domain, print.
 * Heavy modules (SDKs, the pipeline) are imported lazily inside the action, so `aureus --help`
 * stays fast.
 */
export type RegisterCommand = (program: Command, ctx: () => CommandContext) => void;

export const commands: RegisterCommand[] = [
];
