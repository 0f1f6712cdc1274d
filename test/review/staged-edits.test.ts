import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, cli, copyRepo, git, makeWorld } from '../pipeline/world.js';

/**
 * Hand edits of a staged episode that cannot be adopted (README "Review before commit": never
 * silently dropped): a staged script emptied, turned into garbage bytes, missing a scene, a staged
 * file deleted. Each refuses `episode commit` (exit 2, AUR6111) and leaves the run exactly as it
 * was; `episode review --restore` puts the staged original back, the author's version kept aside.
 * Real temp git repositories, the offline provider, one staged episode copied per case.
 */
let staged = '';
beforeAll(async () => {
  const w = await makeWorld('staged-edits');
  const r = await cli(['episode', 'run', '--review'], w);
  if (r.code !== 0) throw new Error(r.stderr);
  staged = w;
}, 120_000);
afterAll(cleanup);

const runRel = (w: string): string => JSON.parse(fs.readFileSync(path.join(w, '.aureus/review.json'), 'utf8')).run_dir;
const EP = 'seasons/season_01/episode_01';
const stagedFile = (w: string, name: string) => path.join(w, runRel(w), 'stage', EP, name);
const read = (f: string) => fs.readFileSync(f, 'utf8');

/** A copy of the staged episode for one case: the repository, a staged file and its staged original. */
function stagedCase(label: string, name: string): { w: string; f: string; original: string } {
  const w = copyRepo(staged, label);
  const f = stagedFile(w, name);
  return { w, f, original: read(f) };
}

/** The script with one dialogue line of SC04 replaced by the author's: the edit, and the new line. */
function editSc04(script: string): { text: string; mine: string } {
  const line = script.split('\n').find((l) => l.startsWith('> ') && script.indexOf(l) > script.indexOf('## SC04'))!;
  const mine = `${line.split(':')[0]}: Write it down, and write it plainly.`;
  return { text: script.replace(line, mine), mine };
}

/** Every file of a folder with a digest of its bytes: "nothing changed" is this, equal before and after. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const abs = path.join(e.parentPath, e.name);
    out[path.relative(dir, abs)] = crypto.createHash('sha256').update(fs.readFileSync(abs)).digest('hex');
  }
  return out;
}

/** `episode commit` refused with AUR6111 naming the file and what is wrong with it; git, the review and the run untouched. */
async function expectRefused(w: string, file: string, problem: string): Promise<string> {
  const head = git(w, 'rev-parse', 'HEAD');
  const run = snapshot(path.join(w, runRel(w)));
  const r = await cli(['episode', 'commit'], w);
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toContain('AUR6111');
  expect(r.stderr).toContain(`${runRel(w)}/stage/${EP}/${file} ${problem}`);
  expect(r.stderr).toContain('episode review --restore');
  expect(r.stderr).not.toContain('committed');
  expect(git(w, 'rev-parse', 'HEAD')).toBe(head);
  expect(git(w, 'tag')).toBe('');
  expect(fs.existsSync(path.join(w, EP, 'episode_script.md'))).toBe(false);
  expect(fs.existsSync(path.join(w, '.aureus/review.json'))).toBe(true);
  expect(snapshot(path.join(w, runRel(w)))).toEqual(run);
  return r.stderr;
}

/** `episode review --restore`, then `episode commit`: the staged original is what is committed. */
async function restoreAndCommit(w: string, file: string, original: string, mine: Buffer | null): Promise<void> {
  const back = await cli(['episode', 'review', '--restore'], w);
  expect(back.code, back.stderr).toBe(0);
  expect(back.stderr).toContain(`restored ${runRel(w)}/stage/${EP}/${file}`);
  expect(read(stagedFile(w, file))).toBe(original);
  const kept = path.join(w, runRel(w), 'hand-edits', EP, file);
  if (mine) expect(fs.readFileSync(kept)).toEqual(mine);
  else expect(fs.existsSync(kept)).toBe(false);
  const c = await cli(['episode', 'commit'], w);
  expect(c.code, c.stderr).toBe(0);
  expect(read(path.join(w, EP, file))).toBe(original);
  expect(git(w, 'status', '--porcelain')).toBe('');
}

describe('staged edits that cannot be adopted refuse the commit, changing nothing', () => {
  it('an emptied staged script', async () => {
    const { w, f, original } = stagedCase('emptied', 'episode_script.md');
    fs.writeFileSync(f, '');
    await expectRefused(w, 'episode_script.md', 'is empty');
    // The review still shows the episode, and says what the commit would refuse.
    const v = await cli(['episode', 'review'], w);
    expect(v.code, v.stderr).toBe(0);
    expect(v.stdout).toContain('SC01');
    expect(v.stderr).toContain(`AUR6111 the staged file ${runRel(w)}/stage/${EP}/episode_script.md is empty`);
    await restoreAndCommit(w, 'episode_script.md', original, Buffer.alloc(0));
  }, 120_000);

  it('a whole scene deleted from the staged script, with another scene edited: neither is adopted', async () => {
    const { w, f, original } = stagedCase('scene-deleted', 'episode_script.md');
    const sc02 = /^## SC02\b[\s\S]*?(?=^## SC03\b)/m.exec(original)![0];
    const mine = editSc04(original).text.replace(sc02, '');
    fs.writeFileSync(f, mine);
    const stderr = await expectRefused(w, 'episode_script.md', 'lacks scene SC02');
    expect(stderr).not.toContain('AUR6107');
    expect(stderr).toContain('scene edit|rewrite');
    await restoreAndCommit(w, 'episode_script.md', original, Buffer.from(mine));
  }, 120_000);

  it('garbage bytes in the staged script', async () => {
    const { w, f, original } = stagedCase('garbage', 'episode_script.md');
    // Not UTF-8 (0xff never is), with a NUL and a scene heading's bytes inside.
    const junk = Buffer.concat([Buffer.from([0xff, 0xfe, 0x00, 0xc3]), crypto.randomBytes(2000), Buffer.from('\n## SC01 — x\n')]);
    fs.writeFileSync(f, junk);
    await expectRefused(w, 'episode_script.md', 'is no longer UTF-8 text');
    await restoreAndCommit(w, 'episode_script.md', original, junk);
  }, 120_000);

  it('a deleted staged file (the recap); scene edit refuses it too', async () => {
    const { w, f, original } = stagedCase('deleted', 'recap.md');
    fs.rmSync(f);
    await expectRefused(w, 'recap.md', 'was deleted');
    const text = path.join(path.dirname(w), 'sc03.txt');
    fs.writeFileSync(text, 'Cicero reads the letter twice and burns it.');
    const ed = await cli(['scene', 'edit', 'SC03', '--from', text], w);
    expect(ed.code).toBe(2);
    expect(ed.stderr).toContain('AUR6111');
    expect(fs.existsSync(f)).toBe(false);
    await restoreAndCommit(w, 'recap.md', original, null);
  }, 120_000);

  it('changed title lines are refused; the same script saved with a BOM and CRLF line ends, one scene edited, is adopted', async () => {
    const { w, f, original } = stagedCase('title', 'episode_script.md');
    const title = original.split('\n')[0]!;
    fs.writeFileSync(f, original.replace(title, '# S01E01: A better title'));
    await expectRefused(w, 'episode_script.md', 'has changed title lines');
    const { text, mine } = editSc04(original);
    fs.writeFileSync(f, '\uFEFF' + text.replace(/\n/g, '\r\n'));
    const c = await cli(['episode', 'commit'], w);
    expect(c.code, c.stderr).toBe(0);
    expect(c.stderr).toContain('AUR6107');
    expect(read(path.join(w, EP, 'episode_script.md'))).toContain(mine);
  }, 120_000);
});

/**
 * A refused commit adopts the author's edit and drops stage H without staging again: the author's
 * next edit of the same staged script must still be seen (adopted and verified again), never
 * ignored by the commit nor overwritten by the next `episode run --review`.
 */
describe('edits of the staged script after a refused commit', () => {
  /** The script with SC03's first dialogue line spoken by CATULUS (not in its cast): the edit, the line, the original line. */
  function castBreak(script: string): { text: string; line: string; was: string } {
    const was = script.split('\n').find((l) => /^> [A-Z]+: /.test(l) && script.indexOf(l) > script.indexOf('## SC03'))!;
    const line = was.replace(/^> [A-Z]+:/, '> CATULUS:');
    return { text: script.replace(was, line), line, was };
  }

  async function refusedOnce(label: string): Promise<{ w: string; f: string; line: string; was: string }> {
    const { w, f, original } = stagedCase(label, 'episode_script.md');
    const { text, line, was } = castBreak(original);
    fs.writeFileSync(f, text);
    const r = await cli(['episode', 'commit'], w);
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toContain('AUR6107');
    expect(r.stderr).toMatch(/AUR6105[^\n]*CATULUS/);
    return { w, f, line, was };
  }

  it('the finding fixed in place is adopted, verified again and committed', async () => {
    const { w, f, line, was } = await refusedOnce('fixed-after-refusal');
    fs.writeFileSync(f, read(f).replace(line, was));
    const c = await cli(['episode', 'commit'], w);
    expect(c.code, c.stderr).toBe(0);
    expect(c.stderr).toContain('AUR6107 adopted the hand edit of SC03');
    expect(c.stderr).not.toContain('CATULUS');
    const committed = read(path.join(w, EP, 'episode_script.md'));
    expect(committed).toContain(was);
    expect(committed).not.toContain(line);
  }, 120_000);

  it('a later edit survives `episode run --review`: adopted, not overwritten by the earlier one', async () => {
    const { w, f, line, was } = await refusedOnce('rerun-after-refusal');
    const mine = `${was.split(':')[0]}: So be it, and write it plainly.`;
    fs.writeFileSync(f, read(f).replace(line, mine));
    const r = await cli(['episode', 'run', '--review'], w);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('AUR6107 adopted the hand edit of SC03');
    expect(read(f)).toContain(mine);
    expect(read(f)).not.toContain(line);
    const c = await cli(['episode', 'commit'], w);
    expect(c.code, c.stderr).toBe(0);
    expect(read(path.join(w, EP, 'episode_script.md'))).toContain(mine);
  }, 120_000);
});

/**
 * A refused commit tells every failing scene at once, each finding at its line of the staged script
 * the author edits (not a line of an internal draft), with the quoted line and the fix.
 */
describe('the findings of a refused commit', () => {
  it('names every failing scene, each at its line:column of the staged script, with its fix', async () => {
    const { w, f, original } = stagedCase('all-findings', 'episode_script.md');
    const cue = (id: string) => original.split('\n').find((l) => /^> [A-Z]+: /.test(l) && original.indexOf(l) > original.indexOf(`## ${id}`))!;
    const [a, b] = [cue('SC01'), cue('SC02')];
    const [a2, b2] = [a.replace(/^> [A-Z]+:/, '> CATULUS:'), b.replace(/^(> [A-Z]+:) /, '$1 Okay. ')];
    const mine = original.replace(a, a2).replace(b, b2);
    fs.writeFileSync(f, mine);
    const lineOf = (l: string) => mine.split('\n').indexOf(l) + 1;
    const r = await cli(['episode', 'commit'], w);
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toContain(`${runRel(w)}/stage/${EP}/episode_script.md\n`);
    // At the offending word, not the line's start: the cue of who is not in the cast, the anachronism.
    expect(r.stderr).toContain(`${lineOf(a2)}:3: error AUR6105 scene SC01 breaks a check: AUR5012 CATULUS speaks but is not in the scene cast: ${a2.slice(0, 40)}`);
    expect(r.stderr).toMatch(new RegExp(`\\n  ${lineOf(b2)}:${b2.indexOf('Okay') + 1}: error AUR6105 scene SC02 breaks a check: AUR5050 anachronism "Okay"`));
    expect(r.stderr).toMatch(/hint: Only the cast may speak[^\n]*scene edit SC01/);
    expect(r.stderr).toMatch(/hint: Replace "Okay" with [^\n]*scene edit SC02/);
    expect(r.stderr).not.toMatch(/drafts\/|line \d+:/);
    expect(r.stderr).toContain('scenes SC01, SC02 break checks');
  }, 120_000);

  it('points at the sum overspent and at the name of who is not in the cast, in a long line and after other words', async () => {
    const { w, f, original } = stagedCase('word-columns', 'episode_script.md');
    const section = original.slice(original.indexOf('## SC03'));
    const cast = /\*\*Cast:\*\* ([^\n]+)/.exec(section)![1]!;
    const payer = cast.split(',')[0]!.trim();
    const absent = ['Gaius Julius Caesar', 'Marcus Licinius Crassus', 'Publius Clodius Pulcher', 'Marcus Tullius Cicero'].find((n) => !cast.includes(n))!;
    const heading = section.split('\n')[0]!;
    // A paragraph longer than a finding quotes (240 characters): the quote is cut, the place still found.
    const pays = `The lamps gutter along the colonnade and the clerks bend to their tablets, counting, recounting, writing the same figures again and again while the crowd presses at the doors and the guards lean on their staves; at last ${payer} pays ninety million denarii to the crowd.`;
    const walks = `The doors open, and ${absent} strides across the floor to the tribunal.`;
    const mine = original.replace(heading, `${heading}\n\n${pays}\n\n${walks}`);
    fs.writeFileSync(f, mine);
    const lineOf = (l: string) => mine.split('\n').indexOf(l) + 1;
    const r = await cli(['episode', 'commit'], w);
    expect(r.code, r.stderr).toBe(4);
    expect(pays.length).toBeGreaterThan(240);
    expect(r.stderr).toMatch(new RegExp(`\\n  ${lineOf(pays)}:${pays.indexOf('ninety million denarii') + 1}: error AUR6105 scene SC03 breaks a check: AUR5022 `));
    expect(r.stderr).toMatch(new RegExp(`\\n  ${lineOf(walks)}:${walks.indexOf(absent) + 1}: error AUR6105 scene SC03 breaks a check: AUR5016 `));
  }, 120_000);
});
