import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { VerifierReport } from '../../src/domain/scene.js';
import type { Diagnostic } from '../../src/diagnostics/index.js';
import { loadWorldOrThrow } from '../../src/store/load.js';
import { requireReview } from '../../src/pipeline/review-state.js';
import { adoptStagedEdits } from '../../src/pipeline/scene-ops.js';
import { stagedFindingPlace } from '../../src/pipeline/finding-place.js';
import { cleanup, cli } from '../pipeline/world.js';
import { stagedEpisode, type Staged } from './staged-episode.js';

afterAll(cleanup);

const staged = stagedEpisode;

/** The scene's section of the staged script. */
function section(script: string, id: string): string {
  const from = script.indexOf(`## ${id} `);
  const next = script.indexOf('\n## SC', from + 1);
  return script.slice(from, next < 0 ? undefined : next).trim();
}

/** `scene edit <id> --from` a file holding `text`. */
async function edit(s: Staged, id: string, text: string, name = id) {
  const file = path.join(path.dirname(s.root), `${name}.txt`);
  fs.writeFileSync(file, `${text}\n`);
  return { file, r: await cli(['scene', 'edit', id, '--from', file], s.root) };
}

describe('a repaired JSON slip in an author\'s edit (AUR5003)', () => {
  it('is placed at its line:column of the --from file', async () => {
    const s = await staged('beats-slip');
    const id = 'SC03';
    const draft = fs.readFileSync(path.join(s.run, 'drafts', `${id}.1.txt`), 'utf8');
    // The three sections, the events' list with a stray comma before its closing bracket.
    const slipped = draft.replace(/\}\s*\]\s*$/, '},\n]\n');
    expect(slipped).not.toBe(draft);
    const { file, r } = await edit(s, id, slipped);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const line = fs.readFileSync(file, 'utf8').split('\n').lastIndexOf(']') + 1;
    expect(r.stdout).toContain(`  ${file}:${line}:1: soft AUR5003 the SCENE_EVENTS JSON needed repair (unexpected "]", expected a value (a trailing comma?))\n    > ]\n`);
    expect(r.stdout).not.toMatch(/position \d/);
  }, 240_000);

  it('is placed at its line:column of the staged script when the author writes the three sections into it', async () => {
    const s = await staged('beats-slip-script');
    const id = 'SC03';
    const script = fs.readFileSync(s.script, 'utf8');
    const prose = section(script, id);
    const draft = fs.readFileSync(path.join(s.run, 'drafts', `${id}.1.txt`), 'utf8');
    // The scene's section of the script becomes the Writer's three sections under its heading: its prose and the
    // draft's two JSON sections, with the stray comma.
    const json = draft.slice(draft.indexOf('---CLAIMS---')).replace(/\}\s*\]\s*$/, '},\n]');
    const [heading, ...rest] = prose.split('\n');
    fs.writeFileSync(s.script, script.replace(prose, `${heading}\n---SCENE_TEXT---\n${rest.join('\n')}\n\n${json}`));
    const review = requireReview(s.root);
    const warnings: Diagnostic[] = [];
    await adoptStagedEdits(s.root, review, (await loadWorldOrThrow(s.root)).world, warnings);
    expect(warnings.map((w) => w.code)).toEqual(['AUR6107']);
    const report = JSON.parse(fs.readFileSync(path.join(s.run, 'verifier_report.json'), 'utf8')) as VerifierReport;
    const last = report.scenes.find((x) => x.scene === id)!.attempts.at(-1)!;
    const f = last.findings.find((x) => x.code === 'AUR5003')!;
    const lines = fs.readFileSync(s.script, 'utf8').split('\n');
    const top = lines.findIndex((l) => l.startsWith(`## ${id} `));
    const next = lines.findIndex((l, i) => i > top && l.startsWith('## SC'));
    // The events' closing bracket, not the claims' one before it.
    const line = lines.slice(0, next).lastIndexOf(']') + 1;
    expect(lines.slice(top, line - 1).filter((l) => l === ']')).toHaveLength(1);
    expect(stagedFindingPlace(s.root, review, id, f, last.raw_file)).toEqual({ file: path.relative(s.root, s.script), line, column: 1 });
  }, 240_000);
});
