import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, cli, copyRepo, git, makeWorld } from '../pipeline/world.js';

/**
 * The showrunner's room (issue 16) on real temp git repositories with the offline provider:
 * stage with --review, edit / rewrite / pin scenes, commit; refusals; hand edits of the stage.
 */
let pristine = '';
beforeAll(async () => {
  pristine = await makeWorld('review');
}, 120_000);
afterAll(cleanup);

const runDirOf = (w: string) => {
  const r = JSON.parse(fs.readFileSync(path.join(w, '.aureus/review.json'), 'utf8'));
  return path.join(w, r.run_dir);
};
const stagedScript = (w: string, ep = 'episode_01') => path.join(runDirOf(w), 'stage/seasons/season_01', ep, 'episode_script.md');
/** One scene's section of a script (`## SC04 — …` up to the next scene heading). */
function section(script: string, id: string): string {
  const m = new RegExp(`^## ${id}\\b[\\s\\S]*?(?=^## SC\\d|(?![\\s\\S]))`, 'm').exec(script);
  if (!m) throw new Error(`no section ${id}`);
  return m[0].trim();
}
const read = (f: string) => fs.readFileSync(f, 'utf8');
/** A dialogue line of a section, to change. */
const dialogueLine = (sec: string) => sec.split('\n').find((l) => /^> [A-Z]+: /.test(l))!;

describe('episode run --review, scene edit / rewrite / pin, episode commit', () => {
  let w = '';
  let first = '';
  let edited = '';
  let editedLine = '';
  beforeAll(async () => {
    w = copyRepo(pristine, 'flow');
    const r = await cli(['episode', 'run', '--review', '--json'], w);
    if (r.code !== 0) throw new Error(r.stderr);
    first = read(stagedScript(w));
  }, 120_000);

  it('stages the episode without touching git, and reviews it', async () => {
    expect(git(w, 'log', '--oneline').split('\n')).toHaveLength(1);
    const r = await cli(['episode', 'review', '--json'], w);
    expect(r.code).toBe(0);
    const v = JSON.parse(r.stdout);
    expect(v.episode).toBe('s01e01');
    expect(v.scenes.length).toBeGreaterThanOrEqual(18);
    expect(v.scenes[0]).toMatchObject({ author: 'model', pinned: false, verdict: 'PASS' });
    expect(v.scenes.some((s: { claims: { accepted: unknown[] } }) => s.claims.accepted.length > 0)).toBe(true);
    expect(v.cost.calls).toBeGreaterThan(20);
    const text = await cli(['episode', 'review'], w);
    expect(text.stdout).toContain('SC03');
    expect(text.stdout).toContain('cost so far');
  });

  it('edits one scene from a file: verified, marked as human, restaged', async () => {
    const sec = section(first, 'SC03');
    const line = dialogueLine(sec);
    editedLine = `${line.split(':')[0]}: The price was fair, and the gods were watching.`;
    edited = sec.replace(line, editedLine);
    const file = path.join(path.dirname(w), 'sc03.txt');
    fs.writeFileSync(file, edited);
    const r = await cli(['scene', 'edit', 'SC03', '--from', file, '--json'], w);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ scene: 'SC03', verdict: 'PASS', author: 'human' });
    expect(read(stagedScript(w))).toContain(editedLine);
  }, 60_000);

  it('rewrites another with a note: a new call each time, never a replay', async () => {
    const calls = () => fs.readdirSync(path.join(runDirOf(w), 'calls')).length;
    const before = calls();
    const r = await cli(['scene', 'rewrite', 'SC05', '--note', 'Colder; end on a closed door.', '--json'], w);
    expect(r.code, r.stderr).toBe(0);
    const res = JSON.parse(r.stdout);
    expect(res.adopted).toBe(true);
    expect(res.attempts[0]).toMatchObject({ mode: 'rewrite', note: 'Colder; end on a closed door.' });
    expect(calls()).toBeGreaterThan(before);
    expect(section(read(stagedScript(w)), 'SC05')).not.toBe(section(first, 'SC05'));
    // The same note again: the nonce makes it another call, not the journal's old answer.
    const mid = calls();
    const again = await cli(['scene', 'rewrite', 'SC05', '--note', 'Colder; end on a closed door.', '--json'], w);
    expect(again.code, again.stderr).toBe(0);
    expect(calls()).toBeGreaterThan(mid);
    const drafts = fs.readdirSync(path.join(runDirOf(w), 'drafts')).filter((f) => f.startsWith('SC05.')).sort();
    expect(drafts.length).toBeGreaterThanOrEqual(3);
  }, 60_000);

  it('pins a third: rewrites and edits of it are refused', async () => {
    expect((await cli(['scene', 'pin', 'sc7'], w)).code).toBe(0);
    const r = await cli(['scene', 'rewrite', 'SC07'], w);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('AUR6104');
    const unknown = await cli(['scene', 'rewrite', 'SC99'], w);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('AUR6103');
  });

  it('a plain episode run does not replace the staged episode under review with another', async () => {
    const r = await cli(['episode', 'run', '--seed', 'other'], w);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('AUR6102');
    expect(r.stderr).toContain('edited SC03');
  });

  it('commits the reviewed episode: the edit, the rewrite, the pin and the provenance', async () => {
    const r = await cli(['episode', 'commit', '--json'], w);
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s.status).toBe('committed');
    const dir = path.join(w, 'seasons/season_01/episode_01');
    const script = read(path.join(dir, 'episode_script.md'));
    expect(script).toContain(editedLine);
    expect(section(script, 'SC05')).not.toBe(section(first, 'SC05'));
    expect(section(script, 'SC07')).toBe(section(first, 'SC07'));
    const deltas = JSON.parse(read(path.join(dir, 'episode_deltas.json'))).deltas;
    const sc03 = deltas.filter((d: { provenance: { scene: string } }) => d.provenance.scene === 'SC03');
    expect(sc03.length).toBeGreaterThan(0);
    expect(sc03.every((d: { provenance: { author?: string } }) => d.provenance.author === 'human')).toBe(true);
    expect(deltas.filter((d: { provenance: { author?: string } }) => d.provenance.author === 'human').every((d: { provenance: { scene: string } }) => d.provenance.scene === 'SC03')).toBe(true);
    const report = JSON.parse(read(path.join(dir, 'verifier_report.json')));
    const last = report.scenes.find((x: { scene: string }) => x.scene === 'SC03').attempts.at(-1);
    expect(last).toMatchObject({ mode: 'edit', author: 'human', model: 'human', verdict: 'PASS' });
    const msg = git(w, 'log', '-1', '--format=%B');
    expect(msg).toContain('Aureus-Reviewed: yes');
    expect(msg).toContain('Aureus-Edited: SC03 (author: human)');
    expect(msg).toContain('Aureus-Pinned: SC07');
    expect(git(w, 'status', '--porcelain')).toBe('');
    expect(fs.existsSync(path.join(w, '.aureus/review.json'))).toBe(false);
    expect((await cli(['episode', 'review'], w)).code).toBe(2);
    // Run again, the commit says the episode is committed, with its tag (exit 0: the command's work is done).
    const again = await cli(['episode', 'commit', '--json'], w);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ episode: 's01e01', tag: 's01e01', commit: git(w, 'rev-parse', 'HEAD') });
    expect(again.stderr).toContain(`AUR6117 s01e01 is already committed (${git(w, 'rev-parse', 'HEAD').slice(0, 10)}, tag s01e01)`);
    expect(again.stderr).not.toContain('rollback');
  }, 60_000);
});

describe('hand edits of the staged files are never silently dropped', () => {
  it('a scene changed in the staged script is adopted as a human edit; a changed plan is refused', async () => {
    const w = copyRepo(pristine, 'hand');
    expect((await cli(['episode', 'run', '--no-commit'], w)).code).toBe(0);
    const f = stagedScript(w);
    const script = read(f);
    const line = dialogueLine(section(script, 'SC04'));
    const mine = `${line.split(':')[0]}: Write it down, and write it plainly.`;
    fs.writeFileSync(f, script.replace(line, mine));
    const plan = path.join(runDirOf(w), 'stage/seasons/season_01/episode_01/episode_plan.json');
    const planText = read(plan);
    fs.writeFileSync(plan, planText.replace('"format": 1', '"format": 1 '));
    const refused = await cli(['episode', 'run'], w);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('AUR6106');
    expect(refused.stderr).toContain('episode_plan.json');
    fs.writeFileSync(plan, planText);
    // scene edit without --from opens $EDITOR on the scene in the Writer's format.
    const six = dialogueLine(section(read(f), 'SC06'));
    const sixCue = six.slice(2, six.indexOf(':'));
    const ed = await cli(['scene', 'edit', 'SC06'], w, { EDITOR: `sed -i 's/${sixCue}: .*/${sixCue}: Not one word of this leaves the house./'` });
    expect(ed.code, ed.stderr).toBe(0);
    // Restaging after the edit adopted the hand edit of SC04 first, and said so.
    expect(ed.stderr).toContain('AUR6107');
    expect(read(f)).toContain(`> ${sixCue}: Not one word of this leaves the house.`);
    // The plain re-run of --no-commit resumes and commits — with the hand edit.
    const r = await cli(['episode', 'run', '--json'], w);
    expect(r.code, r.stderr).toBe(0);
    expect(read(path.join(w, 'seasons/season_01/episode_01/episode_script.md'))).toContain(mine);
    expect(read(path.join(w, 'seasons/season_01/episode_01/episode_script.md'))).toContain('Not one word of this leaves the house.');
  }, 120_000);
});

describe('the verifier still guards canon', () => {
  it('an edit that makes a dead man speak is refused at commit with the finding (world changed by branch --set)', async () => {
    const w = copyRepo(pristine, 'dead');
    const b = await cli(['branch', 'grief', '--set', 'characters.tertulla.status=dead'], w);
    expect(b.code, b.stderr).toBe(0);
    expect(git(w, 'log', '-1', '--format=%(trailers:key=Aureus-Set,valueonly)')).toContain('characters.tertulla.status=dead');
    const record = JSON.parse(read(path.join(w, 'seasons/season_01/what_if/grief.json')));
    expect(record.deltas[0]).toMatchObject({ path: 'characters.tertulla.status', before: 'alive', after: 'dead', provenance: { episode: 'what-if:grief', event: 'set' } });
    expect((await cli(['episode', 'run', '--review'], w)).code).toBe(0);
    const head = git(w, 'rev-parse', 'HEAD');
    const file = path.join(path.dirname(w), 'dead.txt');
    fs.writeFileSync(file, `${section(read(stagedScript(w)), 'SC02')}\n\n> TERTULLA: I am not gone yet, whatever they tell you.\n`);
    const e = await cli(['scene', 'edit', 'SC02', '--from', file], w);
    expect(e.code).toBe(4);
    expect(e.stdout).toContain('AUR5010');
    const c = await cli(['episode', 'commit'], w);
    expect(c.code).toBe(4);
    expect(c.stderr).toContain('AUR6105');
    expect(c.stderr).toMatch(/SC02 breaks a check: AUR5010 Tertulla is dead but speaks/);
    expect(git(w, 'rev-parse', 'HEAD')).toBe(head);
    // Fixed by a rewrite, the episode commits.
    const fix = await cli(['scene', 'rewrite', 'SC02'], w);
    expect(fix.code, fix.stdout + fix.stderr).toBe(0);
    expect((await cli(['episode', 'commit'], w)).code).toBe(0);
    expect(read(path.join(w, 'seasons/season_01/episode_01/episode_script.md'))).not.toContain('TERTULLA: I am not gone');
  }, 180_000);

  it('a world change underneath that kills a speaker refuses the commit', async () => {
    const w = copyRepo(pristine, 'under');
    expect((await cli(['episode', 'run', '--review'], w)).code).toBe(0);
    const script = read(stagedScript(w));
    const chars = JSON.parse(read(path.join(w, 'world/characters.json')));
    // Any speaker but the consul, whom a hard constraint keeps alive (cst_cicero_lives).
    const speaker = [...script.matchAll(/^> ([A-Z]+): /gm)].map((m) => m[1]!).find((cue) => cue !== 'CICERO' && chars.characters.some((x: { cue: string }) => x.cue === cue))!;
    const c = chars.characters.find((x: { cue: string }) => x.cue === speaker);
    c.status = 'dead';
    c.bdi.intentions = [];
    fs.writeFileSync(path.join(w, 'world/characters.json'), JSON.stringify(chars, null, 2) + '\n');
    git(w, 'commit', '-qam', `${c.id} dies offstage`);
    const r = await cli(['episode', 'commit'], w);
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toContain('AUR6108');
    expect(r.stderr).toMatch(/AUR6105 scene SC\d+ breaks a check: AUR501[01]/);
  }, 120_000);
});

describe('episode commit over uncommitted world edits', () => {
  it('refuses (exit 8, AUR6001) with a hint that offers no option episode commit lacks', async () => {
    const w = copyRepo(pristine, 'commit-dirty');
    expect((await cli(['episode', 'run', '--review'], w)).code).toBe(0);
    const f = path.join(w, 'world/factions.json');
    fs.writeFileSync(f, read(f).replace('"The Optimates"', '"X"'));
    const r = await cli(['episode', 'commit'], w);
    expect(r.code, r.stderr).toBe(8);
    expect(r.stderr).toContain('AUR6001');
    expect(r.stderr).toContain('commit or discard them first');
    expect(r.stderr).not.toContain('--allow-dirty');
    // The option it used to suggest is indeed not one of episode commit's.
    expect((await cli(['episode', 'commit', '--allow-dirty'], w)).code).toBe(2);
  }, 180_000);
});
