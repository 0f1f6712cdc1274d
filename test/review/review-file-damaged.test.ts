import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli, cleanup, cli, copyRepo, git, spawnCli } from '../pipeline/world.js';
import { authorEdit, stagedEpisode } from './staged-episode.js';

/**
 * `.aureus/review.json` damaged — truncated, garbled, valid JSON of another shape, a folder — is
 * refused by every command that reads it (exit 3, AUR6199 naming the file, then each problem at its
 * line:column and pointer), with a hint that keeps the staged work. It was read as "nothing staged":
 * `episode review` sent its user to run the episode again, a new run overwrote the file, and JSON of
 * another shape was an internal error in `episode run` and `season run`.
 */
const REVIEW = '.aureus/review.json';
const SCRIPT = 'stage/seasons/season_01/episode_01/episode_script.md';
const LINE = 'A pause, long enough to be an insult, and the showrunner says so.';
let staged = '';
let runDir = '';

beforeAll(async () => {
  const s = await stagedEpisode('review-damaged', ['--seed', '7']);
  staged = s.root;
  runDir = path.relative(staged, s.run).split(path.sep).join('/');
  // An author's edit of SC02: the staged work a wrong hint would lose.
  const e = await cli(['scene', 'edit', 'SC02', '--from', authorEdit(s, 'SC02', 'SC03', LINE)], staged);
  if (e.code !== 0) throw new Error(e.stderr);
}, 240_000);
afterAll(cleanup);

/** A copy of the staged world with review.json replaced by `content` (a string, or null for a folder). */
function damagedCopy(label: string, content: string | Buffer | null): string {
  const w = copyRepo(staged, `review-damaged-${label}`);
  const file = path.join(w, REVIEW);
  fs.rmSync(file);
  if (content === null) fs.mkdirSync(file);
  else fs.writeFileSync(file, content);
  return w;
}

/** What must not change when a command refuses: the file, the run folder, git's HEAD and tags. */
function snapshot(w: string) {
  const file = path.join(w, REVIEW);
  return {
    review: fs.statSync(file).isDirectory() ? 'folder' : fs.readFileSync(file).toString('base64'),
    runs: fs.readdirSync(path.join(w, '.aureus/runs')).sort(),
    script: fs.readFileSync(path.join(w, runDir, SCRIPT), 'utf8'),
    head: git(w, 'rev-parse', 'HEAD').trim(),
    tags: git(w, 'tag', '--list').trim(),
  };
}

describe.skipIf(!builtCli())('a damaged .aureus/review.json', () => {
  it('truncated: every review command, episode run and season run refuse it (exit 3, AUR6199, AUR1005 at line:column); nothing changes', async () => {
    const good = fs.readFileSync(path.join(staged, REVIEW), 'utf8');
    const w = damagedCopy('truncated', good.slice(0, Math.floor(good.length / 2)));
    const before = snapshot(w);
    for (const args of [['episode', 'review'], ['episode', 'commit'], ['episode', 'discard'], ['scene', 'pin', 'SC03'], ['episode', 'run', '--review', '--seed', '7'], ['episode', 'run', '--seed', '8'], ['season', 'run', '--count', '1']]) {
      const r = await spawnCli(args, w);
      const what = `${args.join(' ')}: ${r.stderr.slice(-600)}`;
      expect(r.code, what).toBe(3);
      expect(r.stderr, what).toContain(`AUR6199 ${REVIEW} cannot be read as the record of the episode under review: it is not valid JSON`);
      expect(r.stderr, what).toMatch(/\d+:\d+: error AUR1005 invalid JSON/);
      // The hint keeps the work: where the staged episode is, and the command that stages it again.
      expect(r.stderr, what).toContain(`the staged episode is kept in ${runDir} (seed 7)`);
      expect(r.stderr, what).toContain('`aureus episode run --review --seed 7`');
      expect(r.stderr, what).not.toContain('AUR6101');
      expect(r.stderr, what).not.toContain('internal error');
      expect(snapshot(w), args.join(' ')).toEqual(before);
    }
  }, 240_000);

  it('valid JSON of another shape: refused at its pointer and line:column (exit 3), not an internal error', async () => {
    const good = JSON.parse(fs.readFileSync(path.join(staged, REVIEW), 'utf8')) as Record<string, unknown>;
    const shapes: [string, string, RegExp][] = [
      ['array', '[1]\n', /1:1 \/: error AUR1011 wrong type: expected an object, got array/],
      ['scenes', JSON.stringify({ ...good, scenes: { SC02: { author: 'robot', pinned: false, rewrites: 0, notes: [] } } }, null, 2), /\d+:\d+ \/scenes\/SC02\/author: error AUR1014/],
      ['no-run-dir', JSON.stringify({ ...good, run_dir: undefined }, null, 2), /\/: error AUR1012 missing required key "run_dir"/],
      ['steering', JSON.stringify({ ...good, steering: { focus: 'thr_x' } }, null, 2), /\d+:\d+ \/steering\/focus: error AUR1011 wrong type: expected an array/],
    ];
    for (const [label, text, problem] of shapes) {
      const w = damagedCopy(label, text);
      const before = snapshot(w);
      for (const args of [['episode', 'review', '--json'], ['episode', 'run', '--seed', '8'], ['season', 'run', '--count', '1']]) {
        const r = await spawnCli(args, w);
        const what = `${label}, ${args.join(' ')}: ${r.stderr.slice(-600)}`;
        expect(r.code, what).toBe(3);
        expect(r.stderr, what).toContain("it is not of the record's shape; nothing was changed and the file is kept as it is");
        expect(r.stderr, what).toMatch(problem);
        expect(r.stderr, what).not.toContain('internal error');
        expect(snapshot(w), what).toEqual(before);
      }
    }
  }, 240_000);

  it('a folder, or bytes that are not UTF-8: a clear error (exit 3), not "nothing staged" or an internal error', async () => {
    for (const [label, content, detail] of [['folder', null, 'it is a folder, not a file'], ['latin1', Buffer.from([0x7b, 0xe9, 0x7d]), 'it is not UTF-8 text']] as const) {
      const w = damagedCopy(label, content);
      const before = snapshot(w);
      for (const args of [['episode', 'review'], ['episode', 'run', '--review', '--seed', '7']]) {
        const r = await spawnCli(args, w);
        const what = `${label}, ${args.join(' ')}: ${r.stderr.slice(-600)}`;
        expect(r.code, what).toBe(3);
        expect(r.stderr, what).toContain(`AUR6199 ${REVIEW} cannot be read as the record of the episode under review: ${detail}`);
        expect(r.stderr, what).not.toContain('AUR1053');
        expect(snapshot(w), what).toEqual(before);
      }
    }
  }, 240_000);

  it("the hint's way out keeps the author's edit: moved aside and staged again, the commit holds it with Aureus-Edited", async () => {
    const w = damagedCopy('hint', '{"format": 1, "episode": "s01e01",');
    const refused = await spawnCli(['episode', 'review'], w);
    expect(refused.code).toBe(3);
    const cmd = /`(mv [^`]+)`/.exec(refused.stderr)![1]!.split(' ');
    fs.renameSync(path.join(w, cmd[1]!), path.join(w, cmd[2]!));
    const again = /`aureus (episode run --review[^`]*)`/.exec(refused.stderr)![1]!.split(' ');
    const restaged = await spawnCli(again, w);
    expect(restaged.code, restaged.stderr).toBe(0);
    const review = await spawnCli(['episode', 'review', '--json'], w);
    expect((JSON.parse(review.stdout) as { scenes: { id: string; author: string }[] }).scenes.find((s) => s.id === 'SC02')!.author).toBe('human');
    const commit = await spawnCli(['episode', 'commit'], w);
    expect(commit.code, commit.stderr).toBe(0);
    expect(git(w, 'show', 'HEAD:seasons/season_01/episode_01/episode_script.md')).toContain(LINE);
    expect(git(w, 'log', '-1', '--format=%B')).toContain('Aureus-Edited: SC02 (author: human)');
  }, 240_000);
});
