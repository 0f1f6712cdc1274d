import type { Command } from 'commander';
import type { Steering } from '../../stages/c-director/steering.js';

/** The showrunner's steering flags of `episode plan` and `episode run` (issue 16). */
export interface SteerFlags {
  focus?: string[];
  require?: string[];
  avoid?: string[];
  cast?: string[];
}

const many = (v: string, prev: string[] = []) => [...prev, v];

export function addSteerFlags(cmd: Command): Command {
  return cmd
    .option('--focus <thread_id>', 'advance this thread first (repeatable)', many)
    .option('--require <OP_ID[@actor]>', 'apply this operator (by this actor) in the episode (repeatable)', many)
    .option('--avoid <OP_ID>', 'never apply this operator (repeatable)', many)
    .option('--cast <ids>', 'feature these characters, comma-separated (each appears in at least one scene)', many);
}

export async function steeringFrom(f: SteerFlags): Promise<Steering | null> {
  const { parseSteeringFlags, hasFlags } = await import('../../stages/c-director/steering.js');
  const s = parseSteeringFlags(f);
  return hasFlags(s) ? s : null;
}
