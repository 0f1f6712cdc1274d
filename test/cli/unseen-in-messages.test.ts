import { describe, expect, it } from 'vitest';
import { builtCli, copyRepo, git, spawnCli } from '../pipeline/world.js';
import { useWorld } from '../support/use-world.js';

/**
 * A message that prints what the user typed or the world holds showed a zero-width space as nothing:
 * "unknown character "cato"" while the hint listed cato, and the user could not see why. It is shown
 * escaped now (diagnostics/sanitize.ts escapeControl), as a control character is.
 */
describe.skipIf(!builtCli())('invisible characters in messages', () => {
  const base = useWorld('unseen-messages');

  it('an id with a zero-width space, a BOM or a soft hyphen is shown with it escaped, never as the id it looks like', async () => {
    const w = copyRepo(base(), 'unseen-messages');
    const head = git(w, 'rev-parse', 'HEAD');
    const cases: [string[], string][] = [
      [['query', 'character', 'cato\u200b'], 'error AUR7101 query character cato\\u200b: no such character'],
      [['note', 'Cato sulks', '--character', '\ufeffcato'], 'unknown character "\\ufeffcato" in --character'],
      [['query', 'character', 'cic\u00adero'], 'query character cic\\xadero: no such character'],
    ];
    for (const [argv, said] of cases) {
      const r = await spawnCli(argv, w);
      expect(r.code, r.stderr).not.toBe(0);
      expect(r.stderr).toContain(said);
      expect(r.stderr).not.toMatch(/[\u200b\ufeff\u00ad]/);
    }
    expect(git(w, 'rev-parse', 'HEAD')).toBe(head);
  }, 60_000);
});
