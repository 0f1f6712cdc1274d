import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, cli, makeWorld } from '../pipeline/world.js';

afterAll(cleanup);

/**
 * `.aureus/review.json` names the staged run folder, which `episode discard` removes and the scene
 * commands write into. A hand-edited or damaged file naming anything else ("", "../x", the world
 * itself) must be refused before anything is read or removed: it once deleted the whole world.
 */
describe('the review file names only a folder under .aureus/runs/', () => {
  it('episode discard and scene pin refuse "", ".." paths and the world root (exit 3, AUR6112); nothing is removed', async () => {
    const w = await makeWorld('review-guard');
    const staged = await cli(['episode', 'run', '--review', '--json'], w);
    expect(staged.code, staged.stderr).toBe(0);
    const victim = path.join(path.dirname(w), 'review-guard-victim');
    fs.mkdirSync(victim, { recursive: true });
    fs.writeFileSync(path.join(victim, 'keep.txt'), 'keep');
    const file = path.join(w, '.aureus', 'review.json');
    const review = JSON.parse(fs.readFileSync(file, 'utf8'));
    for (const bad of ['', '.', path.relative(w, victim), '.aureus/runs']) {
      fs.writeFileSync(file, JSON.stringify({ ...review, run_dir: bad }));
      for (const args of [['episode', 'discard'], ['scene', 'pin', 'SC03']]) {
        const r = await cli(args, w);
        expect(r.code, `${args.join(' ')} ${bad}: ${r.stderr}`).toBe(3);
        expect(r.stderr).toContain('AUR6112');
      }
      expect(fs.existsSync(path.join(w, '.git')), bad).toBe(true);
      expect(fs.readFileSync(path.join(victim, 'keep.txt'), 'utf8'), bad).toBe('keep');
    }
    // The file as the run wrote it still works.
    fs.writeFileSync(file, JSON.stringify(review));
    const ok = await cli(['episode', 'discard'], w);
    expect(ok.code, ok.stderr).toBe(0);
  }, 240_000);
});
