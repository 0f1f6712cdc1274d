import fs from 'node:fs';
import os from 'node:os';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, cli, copyRepo, git, makeWorld } from '../pipeline/world.js';
import type { Llm, LlmRequest, LlmResponse } from '../../src/ports/llm.js';
import type { EpisodePlan } from '../../src/domain/plan.js';
import { episodeRef } from '../../src/domain/context.js';
import { loadConfigOrThrow } from '../../src/config/load.js';
import { loadValidatedWorld } from '../../src/store/validate.js';
import { MemoryRunLog, openLlm } from '../../src/providers/index.js';
import { runPlanning } from '../../src/pipeline/planning-adapter.js';

/** Steering (--focus/--require/--avoid/--cast), season notes and what-if branches (issue 16). */
let pristine = '';
beforeAll(async () => {
  pristine = await makeWorld('steer');
}, 120_000);
afterAll(cleanup);

async function plan(w: string, ...flags: string[]): Promise<{ code: number; stderr: string; plan: EpisodePlan | null; dir: string }> {
  const r = await cli(['episode', 'plan', '--json', ...flags], w);
  if (r.code !== 0) return { code: r.code, stderr: r.stderr, plan: null, dir: '' };
  const dir = JSON.parse(r.stdout).dir as string;
  return { code: 0, stderr: r.stderr, plan: JSON.parse(fs.readFileSync(path.join(w, dir, 'episode_plan.json'), 'utf8')), dir };
}
const apps = (p: EpisodePlan) => p.beats.flatMap((b) => b.applications);
const firstAdvance = (p: EpisodePlan, t: string) => apps(p).findIndex((a) => a.threads_advanced.includes(t));

describe('steering the Director', () => {
  it('--focus advances the named thread first', async () => {
    const w = copyRepo(pristine, 'focus');
    const base = (await plan(w)).plan!;
    const t = 'thr_pompey_return';
    expect(firstAdvance(base, t)).not.toBe(0); // later, or not at all, without the focus
    const steered = await plan(w, '--focus', t);
    expect(steered.code, steered.stderr).toBe(0);
    expect(steered.plan!.threads_advanced).toContain(t);
    expect(firstAdvance(steered.plan!, t)).toBe(0);
    // A steered plan has its own run folder: it never resumes (or overwrites) the unsteered one.
    expect(steered.dir).not.toBe((await plan(w)).dir);
  }, 60_000);

  it('--require places the move, --avoid keeps one out, --cast features a character', async () => {
    const w = copyRepo(pristine, 'require');
    const base = (await plan(w)).plan!;
    const used = apps(base).map((a) => a.operator_id);
    // A move the unsteered plan uses (not its cliffhanger, which few operators can carry), to avoid.
    const last = base.beats[base.beats.length - 1]!.applications[0]!.operator_id;
    const avoided = ['op_omen', 'op_dinner_cut', 'op_eavesdrop', 'op_oath_of_loyalty'].find((op) => used.includes(op) && op !== last)!;
    expect(avoided).toBeDefined();
    const r = await plan(w, '--require', 'op_public_snub@cato', '--avoid', avoided, '--cast', 'terentia');
    expect(r.code, r.stderr).toBe(0);
    expect(apps(r.plan!).some((a) => a.operator_id === 'op_public_snub' && a.bindings.actor === 'cato')).toBe(true);
    expect(apps(r.plan!).map((a) => a.operator_id)).not.toContain(avoided);
    expect(r.plan!.scenes.some((s) => s.cast.includes('terentia'))).toBe(true);
  }, 60_000);

  it('an impossible request is exit 6 naming the rule; an unknown id is a usage error', async () => {
    const w = copyRepo(pristine, 'impossible');
    const both = await plan(w, '--require', 'op_omen', '--avoid', 'op_omen');
    expect(both.code).toBe(6);
    expect(both.stderr).toContain('steer_require');
    const unknown = await plan(w, '--focus', 'thr_nope');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('AUR3061');
    expect(unknown.stderr).toContain('thr_murena_trial');
    const bad = await plan(w, '--require', 'op_omen@@x');
    expect(bad.code).toBe(2);
    expect((await cli(['branch', 'closed', '--set', 'threads.thr_pompey_return.status=resolved'], w)).code).toBe(0);
    const closed = await plan(w, '--focus', 'thr_pompey_return');
    expect(closed.code).toBe(6);
    expect(closed.stderr).toContain('steer_focus');
    const run = await cli(['episode', 'run', '--focus', 'thr_pompey_return'], w);
    expect(run.code).toBe(6);
    expect(git(w, 'status', '--porcelain')).toBe('');
  }, 60_000);
});

/** Records every request on its way to the real (offline) provider. */
class Recording implements Llm {
  readonly requests: LlmRequest[] = [];
  constructor(private readonly inner: Llm) {}
  get deterministic() { return this.inner.deterministic; }
  get providerId() { return this.inner.providerId; }
  complete(req: LlmRequest): Promise<LlmResponse> {
    this.requests.push(req);
    return this.inner.complete(req);
  }
}

describe('season notes', () => {
  it('aureus note stores a schema-valid note, committed, and it reaches the next Director\'s input', async () => {
    const w = copyRepo(pristine, 'note');
    const r = await cli(['note', 'Terentia has had enough of being ignored', '--character', 'terentia', '--thread', 'thr_cicero_household', '--json'], w);
    expect(r.code, r.stderr).toBe(0);
    const note = JSON.parse(r.stdout);
    expect(note).toMatchObject({ id: 'n001', episode: 's01e01', character: 'terentia', source: 'cli', file: 'seasons/season_01/notes.json' });
    expect(git(w, 'log', '-1', '--format=%s')).toMatch(/^Note for S01E01: Terentia/);
    expect(git(w, 'status', '--porcelain')).toBe('');
    expect((await cli(['note', 'x', '--thread', 'thr_nope'], w)).code).toBe(2);
    const { world } = await loadValidatedWorld(w);
    const { config } = loadConfigOrThrow(w);
    const llm = new Recording(openLlm({ root: w, config, seed: 'n', runLog: new MemoryRunLog() }));
    const out = await runPlanning({ root: w, world, ref: episodeRef(1, 1), seed: 'n', previousCliffhanger: null, llm, config });
    const director = llm.requests.find((q) => q.role === 'director')!;
    const input = JSON.parse(director.messages[0]!.content as string);
    expect(input.SHOWRUNNER.notes).toEqual([{ text: 'Terentia has had enough of being ignored', thread: 'thr_cicero_household', character: 'terentia' }]);
    expect(out.plan.scenes.some((s) => s.cast.includes('terentia'))).toBe(true);
    // A broken notes file is exit 3, naming it.
    fs.writeFileSync(path.join(w, 'seasons/season_01/notes.json'), '{"format":1,"season":1,"notes":[{"id":"n1","text":""}]}');
    const broken = await cli(['episode', 'plan'], w);
    expect(broken.code).toBe(3);
    expect(broken.stderr).toContain('AUR3063');
  }, 60_000);

  it('aureus note waits for no run: with the lock held by a live process it is exit 9 and writes nothing', async () => {
    const w = copyRepo(pristine, 'note-locked');
    const head = git(w, 'rev-parse', 'HEAD');
    const sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      fs.mkdirSync(path.join(w, '.aureus'), { recursive: true });
      fs.writeFileSync(path.join(w, '.aureus/lock'), JSON.stringify({ pid: sleeper.pid, host: os.hostname(), since: new Date().toISOString(), command: 'episode run' }));
      const r = await cli(['note', 'Not now'], w);
      expect(r.code).toBe(9);
      expect(r.stderr).toContain('AUR6002');
      expect(git(w, 'rev-parse', 'HEAD')).toBe(head);
      expect(git(w, 'status', '--porcelain')).toBe('');
      expect(fs.existsSync(path.join(w, 'seasons/season_01/notes.json'))).toBe(false);
    } finally {
      sleeper.kill();
    }
  });
});

describe('what-if branches that diverge', () => {
  it('branch --set commits the change as a delta with provenance; the next episode differs', async () => {
    const w = copyRepo(pristine, 'whatif');
    const before = (await plan(w)).plan!;
    const r = await cli(['branch', 'no-varo', '--set', 'characters.varo.status=exiled', '--set', 'world.global.unrest=9', '--json'], w);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.branch).toBe('no-varo');
    expect(git(w, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('no-varo');
    expect(git(w, 'status', '--porcelain')).toBe('');
    const files = git(w, 'show', '--pretty=format:', '--name-only', 'HEAD').split('\n').filter(Boolean).sort();
    expect(files).toEqual(['seasons/season_01/what_if/no-varo.json', 'world/characters.json', 'world/world.json']);
    const rec = JSON.parse(fs.readFileSync(path.join(w, out.record), 'utf8'));
    expect(rec.deltas.map((d: { path: string; after: unknown }) => [d.path, d.after])).toEqual([['characters.varo.status', 'exiled'], ['world.global.unrest', 9]]);
    const after = (await plan(w)).plan!;
    expect(JSON.stringify(after.beats)).not.toBe(JSON.stringify(before.beats));
    expect(apps(after).some((a) => a.bindings.actor === 'varo')).toBe(false);
    // A bad path is refused before anything is created.
    const bad = await cli(['branch', 'oops', '--set', 'global.unrest=1'], w);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('AUR6109');
    // Said once, with the engine's hint naming valid paths (the engine's own AUR2020 is not listed again).
    expect(bad.stderr.match(/unknown delta path 'global\.unrest'/g)).toHaveLength(1);
    expect(bad.stderr).toContain('hint: Valid paths are listed in docs/paths.md');
    expect(git(w, 'branch', '--list', 'oops')).toBe('');
    // A change that breaks a hard constraint (the consul survives the season) is refused too.
    const hard = await cli(['branch', 'oops', '--set', 'characters.cicero.status=dead'], w);
    expect(hard.code).toBe(2);
    expect(hard.stderr).toContain('AUR2056');
    expect(git(w, 'branch', '--list', 'oops')).toBe('');
  }, 60_000);

  it('branch --set anchors.<id>.waived=true: history changed, the anchor is waived on the branch only', async () => {
    const w = copyRepo(pristine, 'waive');
    const anchorsOn = (): { id: string; waived?: boolean }[] => JSON.parse(fs.readFileSync(path.join(w, 'world/anchors.json'), 'utf8')).anchors;
    expect(anchorsOn().find((a) => a.id === 'first_catilinarian')!.waived).toBeUndefined();
    // Refused before anything is created: an unknown anchor, another field, a value that is not a boolean.
    for (const set of ['anchors.first_catilinarain.waived=true', 'anchors.first_catilinarian.date=1', 'anchors.first_catilinarian.waived=soon']) {
      const bad = await cli(['branch', 'oops', '--set', set], w);
      expect(bad.code, set).toBe(2);
      expect(bad.stderr, set).toContain('AUR6109');
      expect(git(w, 'branch', '--list', 'oops')).toBe('');
    }
    const typo = await cli(['branch', 'oops', '--set', 'anchors.first_catilinarain.waived=true'], w);
    expect(typo.stderr).toContain('first_catilinarian');
    const r = await cli(['branch', 'catiline-stays', '--set', 'anchors.first_catilinarian.waived=true', '--set', 'world.global.unrest=8', '--json'], w);
    expect(r.code, r.stderr).toBe(0);
    const files = git(w, 'show', '--pretty=format:', '--name-only', 'HEAD').split('\n').filter(Boolean).sort();
    expect(files).toEqual(['seasons/season_01/what_if/catiline-stays.json', 'world/anchors.json', 'world/world.json']);
    expect(anchorsOn().find((a) => a.id === 'first_catilinarian')!.waived).toBe(true);
    const rec = JSON.parse(fs.readFileSync(path.join(w, JSON.parse(r.stdout).record), 'utf8'));
    expect(rec.deltas.map((d: { path: string; before: unknown; after: unknown }) => [d.path, d.before, d.after])).toEqual([['world.global.unrest', 4, 8], ['anchors.first_catilinarian.waived', false, true]]);
    expect((await cli(['validate'], w)).code).toBe(0);
    git(w, 'checkout', '-q', 'main');
    expect(anchorsOn().find((a) => a.id === 'first_catilinarian')!.waived).toBeUndefined();
  }, 60_000);
});
