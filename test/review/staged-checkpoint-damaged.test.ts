import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, cli, copyRepo, git } from '../pipeline/world.js';
import { STACK_TRACE } from '../cli/helpers.js';
import { authorEdit, stagedEpisode, type Staged } from './staged-episode.js';

/**
 * A checkpoint of the episode staged for review damaged (cut short by a disk error, edited by hand).
 * The review commands read them with no warning sink: a damaged planning or scenes checkpoint was
 * "no episode is staged for review" (AUR6101), and a damaged stage H checkpoint hid the staged script
 * from `episode review`, while `scene edit` went on to stage the episode again over the author's hand
 * edit of the staged script, without a word. Now the first is refused as what it is (AUR6115, exit 3,
 * the file and what is wrong, nothing changed); the second is said (AUR6098, the file, and a hint of
 * what it means under review), as `episode run --resume` says it.
 */
let staged: Staged;
beforeAll(async () => {
  staged = await stagedEpisode('staged-cp-damaged');
}, 240_000);
afterAll(cleanup);

function copy(label: string): Staged & { cp: (name: string) => string; rel: (name: string) => string } {
  const root = copyRepo(staged.root, label);
  const run = path.join(root, path.relative(staged.root, staged.run));
  const rel = (name: string) => path.relative(root, path.join(run, 'checkpoints', name)).split(path.sep).join('/');
  return { root, run, script: path.join(run, path.relative(staged.run, staged.script)), cp: (name) => path.join(run, 'checkpoints', name), rel };
}

/** The file cut to its first 100 bytes, as a write that never reached the disk whole. */
const cut = (file: string) => fs.writeFileSync(file, fs.readFileSync(file).subarray(0, 100));

describe('a damaged checkpoint of the staged episode', () => {
  for (const name of ['scenes.json', 'planning.json']) {
    it(`${name}: episode review, scene pin and episode commit refuse it by name (exit 3, AUR6115), nothing changed`, async () => {
      const s = copy(`staged-cp-${name}`);
      cut(s.cp(name));
      const review = fs.readFileSync(path.join(s.root, '.aureus/review.json'), 'utf8');
      const head = git(s.root, 'rev-parse', 'HEAD');
      for (const args of [['episode', 'review'], ['scene', 'pin', 'SC02'], ['episode', 'commit']]) {
        const r = await cli(args, s.root);
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(3);
        expect(r.stderr).toMatch(new RegExp(`error AUR6115 the episode s01e01 staged for review cannot be read: its checkpoint ${s.rel(name).replace(/[.]/g, '\\.')} is damaged \\(\\d+:\\d+: invalid JSON: [^)]+\\); nothing was changed`));
        expect(r.stderr).toContain('hint: it holds the staged plan and scenes');
        expect(r.stderr).not.toContain('AUR6101');
        expect(r.stderr).not.toMatch(STACK_TRACE);
      }
      expect(fs.readFileSync(path.join(s.root, '.aureus/review.json'), 'utf8')).toBe(review);
      expect(git(s.root, 'rev-parse', 'HEAD')).toBe(head);
      // The hint's way on: staging it again does that step again.
      const again = await cli(['episode', 'run', '--review'], s.root);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toContain(`warning AUR6098 ignored the damaged checkpoint ${s.rel(name)}`);
      expect((await cli(['episode', 'review'], s.root)).code).toBe(0);
    }, 240_000);
  }

  it('stage-h.json: episode review says it (AUR6098, the file, the hint) and shows no script', async () => {
    const s = copy('staged-cp-stage-h');
    cut(s.cp('stage-h.json'));
    for (const json of [false, true]) {
      const r = await cli(['episode', 'review', ...(json ? ['--json'] : [])], s.root);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr.match(/warning AUR6098/g)).toHaveLength(1);
      expect(r.stderr).toContain(`warning AUR6098 ignored the damaged checkpoint ${s.rel('stage-h.json')} (`);
      expect(r.stderr).toContain("hint: it records what the run folder's stage/ was staged as");
      if (json) {
        const v = JSON.parse(r.stdout) as { script: string | null; warnings: { code: string; file: string }[] };
        expect(v.script).toBeNull();
        expect(v.warnings).toEqual([expect.objectContaining({ code: 'AUR6098', file: s.rel('stage-h.json') })]);
      } else expect(r.stdout).not.toMatch(/^script: /m);
    }
  }, 120_000);

  it('stage-h.json: scene edit says, once, that a hand edit of the staged script is not adopted', async () => {
    const s = copy('staged-cp-edit');
    // A hand edit of SC03 in the staged script, then the checkpoint that says what was staged damaged.
    const script = fs.readFileSync(s.script, 'utf8');
    fs.writeFileSync(s.script, script.replace(/(## SC03[^\n]*\n[\s\S]*?)(\n## SC04)/, '$1\nMy own line for SC03.\n$2'));
    cut(s.cp('stage-h.json'));
    const r = await cli(['scene', 'edit', 'SC02', '--from', authorEdit(s, 'SC02', 'SC03', 'Cato says nothing more.')], s.root);
    expect([0, 4], r.stderr).toContain(r.code);
    expect(r.stderr.match(/warning AUR6098/g)).toHaveLength(1);
    expect(r.stderr).toContain(`warning AUR6098 ignored the damaged checkpoint ${s.rel('stage-h.json')} (`);
    expect(r.stderr).toContain('hand edits of the staged script are neither shown nor adopted, and that staging writes over them');
    expect(r.stderr).not.toMatch(STACK_TRACE);
  }, 120_000);

  it('whole checkpoints: no AUR6098, no AUR6115', async () => {
    const s = copy('staged-cp-whole');
    const r = await cli(['episode', 'review'], s.root);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/AUR6098|AUR6115/);
    expect(r.stdout).toMatch(/^script: /m);
  }, 120_000);
});
