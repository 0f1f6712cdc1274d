import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtCli, copyRepo, git } from '../pipeline/world.js';
import { useWorld } from '../support/use-world.js';
import { playingWithCatiline, playScript, records, until } from './support.js';

/**
 * A what-if branch a kill left half made (`branch <name> --set …` killed after its switch, before its
 * commit: .git/aureus-branch.json names it). Every committing command refuses to commit on it
 * (AUR6035, exit 10); play's canonization did not: its commit moved the branch off its --from commit,
 * so the branch read as made, without its what-if change. Now play refuses before a turn is played,
 * and a branch made half while a session runs postpones the canonization (proposals stay staged),
 * which `--resume` makes once the branch is finished or left.
 */
const ARGS = ['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--mode', 'open'];

/** HEAD on a new branch `wi` at the current commit, with the journal a killed `branch wi --set …` leaves. */
function halfMade(w: string): void {
  const from = git(w, 'rev-parse', 'HEAD');
  const back = git(w, 'branch', '--show-current');
  git(w, 'switch', '-q', '-c', 'wi');
  const journal = { version: 1, branch: 'wi', from, label: 'HEAD', back: { branch: back }, sets: ['world.global.unrest=9'] };
  fs.writeFileSync(path.join(w, '.git/aureus-branch.json'), JSON.stringify(journal, null, 2) + '\n');
}

describe.skipIf(!builtCli())('aureus play on a half-made what-if branch', () => {
  const base = useWorld('play-half-made');

  it('refuses before the session starts: exit 10, AUR6035 with the command that finishes it; nothing played or committed', async () => {
    const w = copyRepo(base(), 'play-half-start');
    halfMade(w);
    const head = git(w, 'rev-parse', 'HEAD');
    const r = await playScript([...ARGS, '--session', 'h1'], w, 'Catiline, where were you last night?\n/end\n');
    expect(r.code, r.stderr).toBe(10);
    expect(r.stderr).toContain('error AUR6035 branch wi is half made');
    expect(r.stderr).toContain("a play session's scene cannot be canonized on it");
    expect(r.stderr).toMatch(/aureus branch wi --from [0-9a-f]{12} --set world\.global\.unrest=9/);
    expect(r.stdout).not.toMatch(/^CATILINE: /m);
    expect(fs.existsSync(path.join(w, '.aureus/sessions/h1'))).toBe(false);
    expect(git(w, 'rev-parse', 'HEAD')).toBe(head);
  });

  it('made half while the session runs: the canonization is postponed (proposals staged), exit 10; back on the branch it left, --resume canonizes', async () => {
    const w = copyRepo(base(), 'play-half-mid');
    const p = await playingWithCatiline([...ARGS, '--session', 'h2'], w, 'Catiline, where were you last night?\n');
    halfMade(w);
    const head = git(w, 'rev-parse', 'HEAD');
    p.child.stdin.write('/commit\n');
    await until(() => /AUR6035|half made/.test(p.err() + p.out()));
    p.child.stdin.end('/end\n');
    const code = await p.closed;
    expect(code, p.err()).toBe(10);
    expect(p.err()).toContain('branch wi is half made');
    expect(p.err()).toMatch(/staged proposals stay staged/);
    expect(p.err()).toMatch(/aureus play --resume h2/);
    expect(git(w, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(w, 'rev-parse', 'wi')).toBe(head); // still half made: nothing hid it
    expect(records(w, 'h2').filter((x) => x.type === 'proposal').length).toBeGreaterThan(0);
    expect(records(w, 'h2').filter((x) => x.type === 'canonized')).toEqual([]);

    // Dropped as AUR6035's hint says (`git switch <back> && git branch -D wi`): --resume canonizes.
    const back = JSON.parse(fs.readFileSync(path.join(w, '.git/aureus-branch.json'), 'utf8')).back.branch as string;
    git(w, 'switch', '-q', back);
    git(w, 'branch', '-q', '-D', 'wi');
    const r = await playScript(['play', '--resume', 'h2'], w, '/end\n');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\[canon\] commit [0-9a-f]{10}: accepted p1/);
  });
});
