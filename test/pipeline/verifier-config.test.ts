import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, cli, copyRepo, git, makeWorld } from './world.js';

/**
 * verifier.min_scene_words reaches every place a scene is judged: the episode run's verifier and
 * an author's edit (scene-ops verifyContext), not only `scene verify`.
 */
let pristine = '';
beforeAll(async () => {
  pristine = await makeWorld('verifier-config');
}, 120_000);
afterAll(() => cleanup());

function setMinWords(w: string, n: number): void {
  const file = path.join(w, 'aureus.config.yaml');
  const text = fs.readFileSync(file, 'utf8').replace(/min_scene_words: *\d+/, `min_scene_words: ${n}`);
  expect(text).toContain(`min_scene_words: ${n}`);
  fs.writeFileSync(file, text);
  git(w, 'commit', '-qam', `min_scene_words ${n}`);
}

describe('verifier.min_scene_words from the config', () => {
  it('an episode whose scenes are all shorter than the configured floor fails with AUR5006, nothing committed', async () => {
    const w = copyRepo(pristine, 'min-words-high');
    setMinWords(w, 20000);
    const head = git(w, 'rev-parse', 'HEAD');
    const r = await cli(['episode', 'run', '--json'], w);
    expect(r.code, r.stderr.slice(-800)).toBe(5);
    const runs = path.join(w, '.aureus', 'runs');
    const report = JSON.parse(fs.readFileSync(path.join(runs, fs.readdirSync(runs)[0]!, 'verifier_report.json'), 'utf8')) as { scenes: Array<{ attempts: Array<{ findings: Array<{ code: string }> }> }> };
    expect(report.scenes[0]!.attempts[0]!.findings.map((f) => f.code)).toContain('AUR5006');
    expect(git(w, 'rev-parse', 'HEAD')).toBe(head);
  }, 300_000);

  it('0 turns the floor off: an author may stage a two-line scene', async () => {
    const w = copyRepo(pristine, 'min-words-off');
    expect((await cli(['episode', 'run', '--review'], w)).code).toBe(0);
    const file = path.join(path.dirname(w), 'short.txt');
    fs.writeFileSync(file, 'The Forum is empty.\n\n> CATO: Nobody came.\n');
    const codes = async () => {
      const r = await cli(['scene', 'edit', 'SC02', '--from', file, '--json'], w);
      return (JSON.parse(r.stdout) as { findings?: Array<{ code: string }> }).findings?.map((f) => f.code) ?? [];
    };
    expect(await codes()).toContain('AUR5006'); // the default floor (40 words)
    setMinWords(w, 0);
    expect(await codes()).not.toContain('AUR5006');
  }, 300_000);
});
