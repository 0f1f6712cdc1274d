import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, cli, copyRepo } from '../pipeline/world.js';
import { stagedEpisode, type Staged } from './staged-episode.js';

/**
 * A scene changed by hand in the staged script, before `episode commit` adopts it (AUR6107): `episode review` showed it
 * as the model's, PASS, with the model draft's findings, so a showrunner who edited the script and then read the review
 * was told every scene passed, and learnt otherwise only from the commit's refusal. The review now verifies the text as
 * it stands in the script, as the commit will, and says the scene is the author's edit, not yet adopted; reading it
 * changes nothing.
 */
let staged: Staged;
beforeAll(async () => {
  staged = await stagedEpisode('review-pending-edit');
}, 120_000);
afterAll(cleanup);

/** The copied world's staged script (the same run folder as the original's). */
const script = (w: string) => path.join(w, path.relative(staged.root, staged.script));

/** SC04's first spoken line replaced by the author's. */
function editSc04(w: string, said: string): void {
  const text = fs.readFileSync(script(w), 'utf8');
  const line = text.split('\n').find((l) => l.startsWith('> ') && text.indexOf(l) > text.indexOf('## SC04'))!;
  fs.writeFileSync(script(w), text.replace(line, `${line.split(':')[0]}: ${said}`));
}

function digest(dir: string): string {
  const h = crypto.createHash('sha256');
  for (const f of (fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }) as string[]).sort()) {
    const abs = path.join(dir, f);
    if (fs.statSync(abs).isFile()) h.update(f).update(fs.readFileSync(abs));
  }
  return h.digest('hex');
}

type Scene = { id: string; author: string; edited_in_script: boolean; verdict: string; findings: { code: string; severity: string }[] };
const sceneOf = async (w: string, id: string): Promise<Scene> => {
  const r = await cli(['episode', 'review', '--json'], w);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout).scenes as Scene[]).find((s) => s.id === id)!;
};

describe('episode review shows a hand edit of the staged script before the commit adopts it', () => {
  it('an edit that breaks a check: the author\'s, failing, with its finding; nothing changed by reading it', async () => {
    const w = copyRepo(staged.root, 'pending-fail');
    editSc04(w, 'I will telephone Caesar before noon.');
    const before = digest(path.join(w, '.aureus'));
    const text = await cli(['episode', 'review'], w);
    expect(text.code, text.stderr).toBe(0);
    const block = /^SC04 .*\n(?: {4}.*\n)*/m.exec(text.stdout)![0];
    expect(block).toContain('edited by you in the staged script (adopted at `episode commit`)');
    expect(block).toContain('FAILS VERIFICATION');
    expect(block).toMatch(/AUR5050 anachronism "telephone"/);
    const sc04 = await sceneOf(w, 'SC04');
    expect(sc04).toMatchObject({ author: 'human', edited_in_script: true, verdict: 'FAIL' });
    expect(sc04.findings).toContainEqual(expect.objectContaining({ code: 'AUR5050', severity: 'hard' }));
    expect(await sceneOf(w, 'SC03')).toMatchObject({ author: 'model', edited_in_script: false, verdict: 'PASS' });
    expect(digest(path.join(w, '.aureus'))).toBe(before);
    // The commit refuses it, as the review said; from then on the edit is adopted (the author's, no longer pending).
    const commit = await cli(['episode', 'commit'], w);
    expect(commit.code, commit.stderr).toBe(4);
    expect(await sceneOf(w, 'SC04')).toMatchObject({ author: 'human', edited_in_script: false, verdict: 'FAIL' });
  }, 120_000);

  it('an edit that passes: the author\'s, passing', async () => {
    const w = copyRepo(staged.root, 'pending-pass');
    editSc04(w, 'Write it down, and write it plainly.');
    expect(await sceneOf(w, 'SC04')).toMatchObject({ author: 'human', edited_in_script: true, verdict: 'PASS', findings: [] });
  }, 120_000);
});
