import { describe, expect, it } from 'vitest';
import { builtCli, copyRepo, git } from '../pipeline/world.js';
import { useWorld } from '../support/use-world.js';
import { canonizedCommits, expectSameCanon, input, tagCommits } from './killed-canon.js';
import { playScript, records } from './support.js';

/**
 * The canonizations no /commit asks for, killed (SIGKILL: no handler runs) at each point of their
 * commit, then --resume: the same canon as the session never interrupted. The points are the
 * test-only AUREUS_TEST_KILL_AT hooks (src/pipeline/checkpoint.ts): play-canonize (nothing written
 * yet), the commit transaction's commit-staged (journal written), commit-applied (world files
 * written, not committed) and commit-committed (not tagged), and play-committed (committed and
 * tagged, the `canonized` record not yet written). A /commit's are in play-kill-canonize.test.ts.
 *
 * Each comes back by its own path in PlaySession.recover(): a critical one by its critical proposal
 * still pending, /end's by the log's last record being the /end, the director's scene end by the
 * completion trigger the last exchange set.
 */
const POINTS = ['play-canonize', 'commit-staged', 'commit-applied', 'commit-committed', 'play-committed'];
const OPEN = ['--as', 'cicero', '--at', 'forum', '--with', 'catiline,crassus', '--mode', 'open'];
// A death spoken of is a critical proposal: canonized mid-scene, inside the exchange, with no command of its own.
const CRITICAL = ['Catiline, where were you last night?', 'Manlius is dead, slain at Faesulae, and you knew it!', 'Crassus, will you stand with him or with Rome?', '/end'];
// Three exchanges of a three-turn scene: the third ends it (the note makes its canonization commit).
const TURNS = ['Catiline, where were you last night?', '/note Catiline lies about Faesulae', 'You must answer me! The Senate will hear of this!', 'Crassus, will you stand with him or with Rome?'];

interface Case {
  what: string;
  session: string;
  args: string[];
  lines: string[];
  /** Lines played first by a process left alone (its input ends: the session pauses), then resumed under the kill. */
  pre: number;
  /** The line whose canonization the kill stops; the final --resume is given the lines after it. */
  killed: number;
  /** Which canonization of the session it is (its tag play/<session>/<n>), and its Aureus-Trigger. */
  n: number;
  trigger: string;
}

const CASES: Case[] = [
  { what: 'a critical canonization', session: 'c1', args: OPEN, lines: CRITICAL, pre: 0, killed: 1, n: 1, trigger: 'critical' },
  // The first process canonizes the critical proposal; /end's, the second, is killed in a resumed one.
  { what: "/end's canonization", session: 'e1', args: OPEN, lines: CRITICAL, pre: 3, killed: 3, n: 2, trigger: 'scene_end' },
  { what: "the turn limit's scene end", session: 't1', args: [...OPEN.slice(0, -1), 'turn_limited', '--turns', '3'], lines: TURNS, pre: 0, killed: 3, n: 1, trigger: 'turn_limit' },
];

const start = (c: Case) => ['play', ...c.args, '--session', c.session, '--json'];
const resume = (c: Case) => ['play', '--resume', c.session, '--json'];

describe.skipIf(!builtCli())('aureus play killed during a critical or scene-end canonization, then --resume', () => {
  const base = useWorld('play-kill-scene-end');
  const refs = new Map<string, string>();

  /** The case's session played without interruption, once: what every resumed one must equal. */
  async function uninterrupted(c: Case): Promise<string> {
    const known = refs.get(c.session);
    if (known) return known;
    const w = copyRepo(base(), `play-kill-whole-${c.session}`);
    const r = await playScript(start(c), w, input(c.lines));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('"type":"episode_complete"');
    expect(git(w, 'log', '-1', '--format=%B', `play/${c.session}/${c.n}`)).toContain(`Aureus-Trigger: ${c.trigger}`);
    expect(canonizedCommits(w, c.session)).toEqual(tagCommits(w, c.session));
    refs.set(c.session, w);
    return w;
  }

  /** The session killed at `at` during the case's canonization: its world, its log as the kill left it. */
  async function killedAt(c: Case, at: string): Promise<string> {
    const w = copyRepo(base(), `play-kill-${c.session}-${at}`);
    const kill = { AUREUS_TEST_KILL_AT: at };
    if (c.pre) {
      const first = await playScript(start(c), w, input(c.lines.slice(0, c.pre)));
      expect(first.code, first.stderr).toBe(0);
      expect(canonizedCommits(w, c.session)).toHaveLength(c.n - 1);
    }
    const r = c.pre ? await playScript(resume(c), w, input(c.lines.slice(c.pre)), kill) : await playScript(start(c), w, input(c.lines), kill);
    expect(r.code, `${at}: the process killed itself\n${r.stderr}`).toBe(null);
    // Killed inside that canonization: no `canonized` record for it, its tag made only by its last point.
    expect(records(w, c.session).filter((x) => x.type === 'canonized'), at).toHaveLength(c.n - 1);
    expect(git(w, 'tag', '--list', `play/${c.session}/${c.n}`) !== '', at).toBe(at === 'play-committed');
    return w;
  }

  for (const c of CASES) {
    for (const at of POINTS) {
      it(`${c.what} killed at ${at}: --resume exits 0 with the uninterrupted session's commits, tags, world files and log`, async () => {
        const ref = await uninterrupted(c);
        const w = await killedAt(c, at);
        const resumed = await playScript(resume(c), w, input(c.lines.slice(c.killed + 1)));
        expect(resumed.code, resumed.stderr).toBe(0);
        expect(resumed.stderr).not.toMatch(/AUR6009|AUR6205/);
        expect(resumed.stdout).toContain('"type":"episode_complete"');
        // Past play-canonize the transaction's roll-forward (or the kill) left the tag: read back, not judged again.
        const readBack = `canonization ${c.n} was committed (`;
        if (at === 'play-canonize') expect(resumed.stdout).not.toContain(readBack);
        else expect(resumed.stdout).toContain(readBack);
        expectSameCanon(w, ref, c.session);
        expect(git(w, 'log', '-1', '--format=%B', `play/${c.session}/${c.n}`)).toContain(`Aureus-Trigger: ${c.trigger}`);
      });
    }
  }
});
