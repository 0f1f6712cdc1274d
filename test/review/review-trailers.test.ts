import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, cli, git, makeWorld } from '../pipeline/world.js';

afterAll(cleanup);

const read = (f: string) => fs.readFileSync(f, 'utf8');
/** One scene's section of a script (`## SC04 — …` up to the next scene heading). */
function section(script: string, id: string): string {
  const m = new RegExp(`^## ${id}\\b[\\s\\S]*?(?=^## SC\\d|(?![\\s\\S]))`, 'm').exec(script);
  if (!m) throw new Error(`no section ${id}`);
  return m[0].trim();
}
const dialogueLine = (sec: string) => sec.split('\n').find((l) => /^> [A-Z]+: /.test(l))!;

/**
 * The commit's Aureus-Edited trailer names every scene a human wrote: those replaced with
 * `scene edit` and those edited by hand in the staged script, which `episode commit` adopts. An
 * audit found the trailer built before the adoption, so it left the hand-edited scene out.
 */
describe('episode commit trailers', () => {
  it('Aureus-Edited names a scene edited with scene edit and one edited by hand in the staged script', async () => {
    const w = await makeWorld('review-trailers');
    const staged = await cli(['episode', 'run', '--review', '--json'], w);
    expect(staged.code, staged.stderr).toBe(0);
    const review = JSON.parse(read(path.join(w, '.aureus/review.json'))) as { run_dir: string };
    const script = path.join(w, review.run_dir, 'stage/seasons/season_01/episode_01/episode_script.md');
    const sc03 = section(read(script), 'SC03');
    const file = path.join(path.dirname(w), 'sc03.txt');
    fs.writeFileSync(file, sc03.replace(dialogueLine(sc03), `${dialogueLine(sc03).split(':')[0]}: The price was fair, and the gods were watching.`));
    expect((await cli(['scene', 'edit', 'SC03', '--from', file], w)).code).toBe(0);
    const text = read(script);
    const line = dialogueLine(section(text, 'SC05'));
    fs.writeFileSync(script, text.replace(line, `${line.split(':')[0]}: Not tonight. The Forum has ears.`));
    const done = await cli(['episode', 'commit', '--json'], w);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stderr).toContain('AUR6107');
    const message = git(w, 'log', '-1', '--format=%B');
    expect(message).toContain('Aureus-Edited: SC03, SC05 (author: human)');
    expect(JSON.parse(done.stdout).reviewed.edited).toEqual(['SC03', 'SC05']);
  }, 240_000);
});
