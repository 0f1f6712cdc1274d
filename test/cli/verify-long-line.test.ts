import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, cli, makeWorld } from '../pipeline/world.js';
import { finding } from '../../src/stages/f-verifier/context.js';
import { QUOTE_MAX } from '../../src/domain/scene.js';

/**
 * A finding's quote is cut to 240 characters; its `span.at` is where the offending word starts in
 * `span.text` (README). Before, the quote was the line's head and `at` an offset into the whole line:
 * on a long line `at` pointed past the quote's end and the text output's quoted line lacked the word.
 */
afterAll(cleanup);

const TAIL = ' The lamps burned low along the colonnade while the clients waited, and the bearers set the litter down. Then the telephone rang.';

describe('scene verify on a line longer than a quote', () => {
  it('--json: span.at is inside span.text, at the word; the text output quotes the word at its column', async () => {
    const w = await makeWorld('verify-long');
    const run = await cli(['episode', 'run'], w);
    expect(run.code, run.stderr).toBe(0);
    const dir = 'seasons/season_01/episode_01';
    const lines = fs.readFileSync(path.join(w, dir, 'drafts/SC01.1.txt'), 'utf8').split('\n');
    lines[5] += TAIL;
    expect(lines[5]!.length).toBeGreaterThan(QUOTE_MAX + 20);
    const scene = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'aureus-verify-long-')), 'SC01.txt');
    fs.writeFileSync(scene, lines.join('\n'));
    const args = ['scene', 'verify', '--packet', `${dir}/packets/SC01.json`, '--scene', scene];
    const json = await cli([...args, '--json'], w);
    expect(json.code).toBe(4);
    const f = (JSON.parse(json.stdout) as { findings: { code: string; span?: { line: number; text: string; at?: number } }[] }).findings.find((x) => x.code === 'AUR5050')!;
    expect(f.span!.text.length).toBeLessThanOrEqual(QUOTE_MAX);
    expect(f.span!.text.slice(f.span!.at)).toMatch(/^telephone/);
    const text = await cli(args, w);
    const column = lines[5]!.indexOf('telephone') + 1;
    expect(text.stdout).toContain(`:6:${column}: hard AUR5050`);
    expect(text.stdout).toMatch(/> \.\.\..*telephone rang\./);
    fs.rmSync(path.dirname(scene), { recursive: true, force: true });
  }, 120_000);

  it('windows the quote around the word wherever it is in a long line', () => {
    const line = 'x'.repeat(600);
    for (const at of [0, 150, 230, 300, 590]) {
      const text = line.slice(0, at) + 'WORD' + line.slice(at + 4);
      const span = finding('AUR5050', 'hard', 'SC01', 'anachronism', { word: 'WORD', replacement: 'x' }, { line: 1, text, at }).span!;
      expect(span.text.length, `at ${at}`).toBe(QUOTE_MAX);
      expect(span.text.slice(span.at!, span.at! + 4), `at ${at}`).toBe('WORD');
    }
  });
});
