import path from 'node:path';
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import type { Generated, GeneratedSummary, GenerateRequest } from '../../import/generate.js';
import type { DprrImportOptions } from '../../import/dprr/index.js';
import type { RegisterCommand } from './index.js';
import { printJson } from '../io.js';

function int(v: string): number {
  return /^-?\d+$/.test(v.trim()) ? Number(v) : Number.NaN;
}

interface DprrFlags {
  from: string;
  to: string;
  limit?: string;
  principals?: string;
  seed?: string;
  data?: string;
  json?: boolean;
}

/** The flags as import options; text that is no integer is named as typed ("abc", ""), not as the NaN it parses to. */
async function dprrOptions(c: CommandContext, o: DprrFlags): Promise<DprrImportOptions> {
  const { badDprrOption, importSeed } = await import('../../import/dprr/index.js');
  const num = (v: string, option: string) => {
    const n = int(v);
    if (Number.isNaN(n)) throw badDprrOption(option, JSON.stringify(v), 'not a whole number');
    return n;
  };
  return {
    from: num(o.from, '--from'),
    to: num(o.to, '--to'),
    limit: o.limit === undefined ? undefined : num(o.limit, '--limit'),
    principals: o.principals === undefined ? undefined : num(o.principals, '--principals'),
    seed: importSeed(o.seed),
    data: o.data === undefined ? undefined : path.resolve(c.io.cwd, o.data),
  };
}

/**
 * Generate a world, then write its repository, with Ctrl-C (or SIGTERM) handled all along: exit 130
 * (AUR7909), nothing on disk (the write stops its git process and removes its partial repository). The generation runs in a
 * worker thread that the signal terminates at once, wherever it is (import/generate.ts says why a
 * worker), so an import stops promptly at any size, before writing a byte. Without the handler the
 * process died at once but silently, by the signal, with no message and no exit 130.
 */
async function importInterruptibly(c: CommandContext, target: string, request: GenerateRequest, message: (s: GeneratedSummary) => string): Promise<Generated> {
  const { writeWorldRepo, interrupted } = await import('../../import/write.js');
  const { generateWorld } = await import('../../import/generate.js');
  const { interruptSignal } = await import('./run-shared.js');
  const intr = interruptSignal(c.io.stderr, { first: 'The partial repository is removed.', again: 'Nothing of the import is kept.' });
  try {
    const built = await generateWorld(request, { signal: intr.signal }).catch((e: unknown) => {
      throw intr.signal.aborted ? interrupted(target) : e;
    });
    // Generated in this thread (no worker built or startable): a signal during it is handled once the event loop turns.
    await new Promise((resolve) => setImmediate(resolve));
    if (intr.signal.aborted) throw interrupted(target);
    await writeWorldRepo(target, built.files, message(built.summary), { signal: intr.signal });
    return built;
  } finally {
    intr.dispose();
  }
}

/**
 * `aureus import dprr <dir>` and `aureus import synthetic <dir>`: build a complete world repository
 * (files + first git commit) from the DPRR tables or from a seeded generator. Thin: the work is in
 * src/import/.
 */
export const registerImport: RegisterCommand = (program: Command, ctx: () => CommandContext) => {
  const group = program.command('import').description('build a world repository from external data (DPRR) or a synthetic generator');
  group.addHelpText('after', `
Examples:
  $ aureus import dprr rome-63 --from -100 --to -63 --limit 200
  $ aureus import synthetic big --principals 4000 --seed bench`);

  group
    .command('dprr <dir>')
    .description('import the Digital Prosopography of the Roman Republic (CC BY-NC 4.0) as a new world repository in <dir>')
    .requiredOption('--from <year>', 'first year of the window, negative for BC (e.g. -100)')
    .requiredOption('--to <year>', 'last year of the window and the world\'s year (e.g. -44 → Kal. Ian. 44 BC, 1 Ianuarius)')
    .option('--limit <n>', 'keep only the N highest-ranked persons (the living first)')
    .option('--principals <n>', 'how many of the living become principals (default 10; at most the living in the window, else exit 2)')
    .option('--seed <seed>', 'seed for the invented parts (ledgers, secrets, temperaments)')
    .option('--data <dir>', 'folder with the DPRR CSV tables (default: the DPRR tables shipped in the aureus package, data/dprr)')
    .option('--json', 'print a JSON summary')
    .addHelpText('after', `
Persons active in the window become characters (the dead by the --to year are kept, status dead);
offices held give dignitas, auctoritas and standing; family, marriage and colleague ties become
weighted relationships; large gentes become factions beside optimates, populares and equites.
Ledgers, secrets and temperaments are invented (seeded) and say so in NOTICE.md.

Example:
  $ aureus import dprr rome --from -100 --to -44 --limit 1000 --principals 100`)
    .action(async (dir: string, o: DprrFlags) => {
      const c = ctx();
      const target = path.resolve(c.io.cwd, dir);
      const opts = await dprrOptions(c, o);
      const { files, summary: assembled } = await importInterruptibly(c, target, { kind: 'dprr', options: opts }, (a) => `Import DPRR world ${Math.abs(opts.from)}–${Math.abs(opts.to)} BC\n\n${a.stats.characters} characters from the Digital Prosopography of the Roman Republic (King's College London, CC BY-NC 4.0).\nLedgers, secrets and temperaments are invented; see NOTICE.md.`);
      const summary = { dir: target, active_in_window: assembled.active, ...assembled.stats, files: files.size };
      if (o.json) printJson(c.io, summary);
      else
        c.io.stdout(
          `${c.chalk.green('imported')} ${assembled.stats.characters} characters (${assembled.stats.principals} principals, ${assembled.stats.dead} dead), ` +
            `${assembled.stats.factions} factions, ${assembled.stats.relationships} relationships, ${assembled.stats.secrets} secrets into ${dir}\n` +
            `${c.chalk.dim('DPRR data CC BY-NC 4.0 (King\'s College London); invented parts are listed in NOTICE.md')}\n`,
        );
    });

  group
    .command('synthetic <dir>')
    .description('generate a synthetic world of N principals (deterministic from --seed) for benchmarks')
    .requiredOption('--principals <n>', 'number of principals (10 … 100000), plus half as many supporting characters')
    .option('--seed <seed>', 'generator seed', 'bench')
    .option('--json', 'print a JSON summary')
    .addHelpText('after', `
From about 4,700 principals on, characters.json and relationships.json pass the 10 MB file cap
(AUR1002): prefix the command, and every later one on that world, with AUREUS_MAX_FILE_BYTES=67108864.

Example:
  $ aureus import synthetic big --principals 4000 --seed bench`)
    .action(async (dir: string, o: { principals: string; seed: string; json?: boolean }) => {
      const c = ctx();
      const { AureusError, ExitCode } = await import('../../errors.js');
      const { diag } = await import('../../diagnostics/index.js');
      const n = int(o.principals);
      (await import('../../import/dprr/index.js')).importSeed(o.seed);
      // Below 10 principals the starter kit's constraints name characters the world does not have
      // (an audit's --principals 5 imported, then failed validate).
      if (!Number.isInteger(n) || n < 10 || n > 100_000) {
        const hint = '--principals takes 10 to 100000 and adds half as many supporting characters: --principals 6667 is a 10,000-character world (over about 4,700 principals, set AUREUS_MAX_FILE_BYTES=67108864: README).';
        throw new AureusError('invalid --principals', { exitCode: ExitCode.USAGE, diagnostics: [diag('AUR7903', { option: '--principals', value: o.principals, reason: 'an integer from 10 to 100000' }, { hint })] });
      }
      const target = path.resolve(c.io.cwd, dir);
      const { files, summary: assembled } = await importInterruptibly(c, target, { kind: 'synthetic', options: { principals: n, seed: o.seed } }, () => `Synthetic world: ${n} principals (seed ${o.seed})`);
      if (o.json) printJson(c.io, { dir: target, ...assembled.stats, files: files.size });
      else c.io.stdout(`${c.chalk.green('generated')} ${assembled.stats.characters} characters (${assembled.stats.principals} principals) into ${dir}\n`);
    });
};
