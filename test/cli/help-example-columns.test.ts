import { describe, expect, it } from 'vitest';
import { builtCli, spawnCli, tempDir } from '../pipeline/world.js';

/**
 * The examples of a --help line their descriptions up at one column (the block's first), except
 * an example whose command reaches past it (then two spaces after it are fine).
 */
const COMMANDS = ['init', 'validate', 'scene verify', 'episode plan', 'episode run', 'cost', 'season', 'season run', 'status', 'recap', 'diff', 'branch', 'rollback', 'export', 'note', 'play', 'session list', 'session show', 'query history'];

describe.skipIf(!builtCli())('--help examples', () => {
  it('descriptions start at the block\'s column', async () => {
    const cwd = tempDir('help-columns');
    const off: string[] = [];
    for (const cmd of COMMANDS) {
      const r = await spawnCli([...cmd.split(' '), '--help'], cwd);
      let col: number | undefined;
      for (const line of r.stdout.split('\n')) {
        if (line === 'Examples:') col = undefined;
        const m = /^( {2}\$ .*?\S)( {2,})(\S.*)$/.exec(line);
        if (!m) continue;
        const at = m[1]!.length + m[2]!.length;
        col ??= at;
        if (m[1]!.length + 2 <= col && at !== col) off.push(`${cmd}: "${line}" at ${at}, not ${col}`);
      }
    }
    expect(off).toEqual([]);
  }, 60_000);
});
