import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Fountain } from 'fountain-js';
import { cleanup, cli, git, makeWorld, tempDir } from '../pipeline/world.js';
import { parseScriptMarkdown } from '../../src/season/script-model.js';

/**
 * The season workflow on one real repository: `season run --count 3`, then status, recap, diff,
 * export, branch and rollback on what it committed.
 */
let root = '';
let season: { episodes: Record<string, any>[] } = { episodes: [] };
let ms = 0;
/** How many episodes were committed (always 3: the Director plans every episode of a season). */
let N = 0;

beforeAll(async () => {
  root = await makeWorld('season');
  const t0 = performance.now();
  const r = await cli(['season', 'run', '--count', '3', '--json'], root);
  ms = performance.now() - t0;
  N = git(root, 'tag', '--list', 's01e*').split('\n').filter(Boolean).length;
  // Strict: an episode the planner cannot plan fails the season (exit 6), and so this test.
  if (r.code !== 0) throw new Error(`season run failed (${r.code}): ${r.stderr}`);
  season = JSON.parse(r.stdout);
}, 600_000);
afterAll(cleanup);

const ep = (n: number) => `seasons/season_01/episode_0${n}`;

describe('aureus season run --count 3', () => {
  it('commits three tagged episodes, each seeded from the previous cliffhanger', () => {
    console.info(`season run --count 3 (offline) took ${Math.round(ms)} ms`);
    expect(N).toBe(3);
    expect(season.episodes.map((e) => [e.episode, e.status, e.tag])).toEqual([
      ['s01e01', 'committed', 's01e01'],
      ['s01e02', 'committed', 's01e02'],
      ['s01e03', 'committed', 's01e03'],
    ]);
    expect(git(root, 'rev-list', '--count', 'HEAD')).toBe('4');
    for (const n of [2, 3]) {
      const prev = git(root, 'show', `s01e0${n - 1}:${ep(n - 1)}/cliffhanger_constraints.json`) + '\n';
      const expected = createHash('sha256').update(`aureus/s01e0${n}\n${prev}`).digest('hex').slice(0, 12);
      expect(season.episodes[n - 1].seed).toBe(expected);
      expect(git(root, 'log', '-1', '--format=%s', `s01e0${n}`)).toMatch(new RegExp(`^S01E0${n}: `));
    }
  });

  it('leaves a valid world after each episode', async () => {
    for (const tag of ['s01e01', 's01e02', 's01e03'].slice(0, N)) {
      const wt = path.join(tempDir(`wt-${tag}`), 'w');
      git(root, 'worktree', 'add', '--detach', wt, tag);
      try {
        const v = await cli(['validate'], wt);
        expect(v.code, `${tag}: ${v.stdout}${v.stderr}`).toBe(0);
      } finally {
        git(root, 'worktree', 'remove', '--force', wt);
      }
    }
  });
});

describe('status, recap, diff, export', () => {
  it('status shows the date, metrics, threads with cadence, principals and a tension sparkline', async () => {
    const j = await cli(['status', '--json'], root);
    expect(j.code).toBe(0);
    const s = JSON.parse(j.stdout);
    expect(s.committed.map((e: { tag: string }) => e.tag)).toEqual(['s01e01', 's01e02', 's01e03'].slice(0, N));
    expect(s.next_episode).toBe(`s01e0${N + 1}`);
    expect([...s.tension_sparkline]).toHaveLength(N);
    const world = JSON.parse(fs.readFileSync(path.join(root, 'world/world.json'), 'utf8'));
    expect(s.date.year_bc).toBe(world.date.year_bc);
    expect(s.metrics.find((m: { id: string }) => m.id === 'unrest').value).toBe(world.global.unrest.value);
    for (const t of s.threads) expect(['ok', 'due', 'overdue', 'resolved', 'dormant']).toContain(t.cadence_status);
    const standing = s.principals.map((p: { standing: number }) => p.standing);
    expect(standing).toEqual([...standing].sort((a, b) => b - a));
    const text = await cli(['status'], root);
    expect(text.stdout).toContain('Tension');
    expect(text.stdout).toContain(s.tension_sparkline);
    expect(text.stdout).toContain('Principals');
  });

  it('status on a world file with a syntax error is exit 3 with line:col, as validate reports it, not the parser\'s raw text', async () => {
    const file = path.join(root, 'world/threads.json');
    const original = fs.readFileSync(file, 'utf8');
    const broken = original.replace(/\n  \]\n\}\n$/, ',\n  ]\n}\n');
    expect(broken).not.toBe(original);
    fs.writeFileSync(file, broken);
    try {
      const r = await cli(['status'], root);
      expect(r.code).toBe(3);
      const line = broken.split('\n').length - 2; // the "]" after the trailing comma
      expect(r.stderr).toContain(`world/threads.json\n  ${line}:3: error AUR1005 invalid JSON`);
      expect(r.stderr).not.toMatch(/Unexpected token/);
    } finally {
      fs.writeFileSync(file, original);
    }
  });

  it('recap prints the latest or the named episode\'s recap; a bad id is a usage error', async () => {
    const latest = await cli(['recap'], root);
    expect(latest.code).toBe(0);
    expect(latest.stdout).toBe(fs.readFileSync(path.join(root, ep(N), 'recap.md'), 'utf8'));
    const two = await cli(['recap', 's01e02'], root);
    expect(two.stdout).toContain('Previously on');
    expect(two.stdout).toBe(git(root, 'show', `s01e02:${ep(2)}/recap.md`) + '\n');
    for (const bad of ['../etc/passwd', 's01e03/../../x', 'nonsense']) {
      const r = await cli(['recap', bad], root);
      expect(r.code, bad).toBe(2);
      expect(r.stderr).toContain('AUR6005');
    }
    expect((await cli(['recap', 's01e09'], root)).code).toBe(2);
  });

  it('diff tells who gained and lost what between two episodes, read with git show', async () => {
    const last = `s01e0${N}`;
    const r = await cli(['diff', 's01e01', last, '--json'], root);
    expect(r.code).toBe(0);
    const d = JSON.parse(r.stdout);
    const ledgerAt = (tag: string) => new Map(JSON.parse(git(root, 'show', `${tag}:world/assets.json`)).cash_ledger.map((a: { id: string; denarii: number }) => [a.id, a.denarii]));
    const a = ledgerAt('s01e01');
    const b = ledgerAt(last);
    const moved = [...b.entries()].filter(([id, v]) => a.get(id) !== v).map(([id]) => id).sort();
    expect(d.money.map((m: { account: string }) => m.account).sort()).toEqual(moved);
    const threadsA = JSON.parse(git(root, 'show', 's01e01:world/threads.json')).threads;
    const threadsB = JSON.parse(git(root, 'show', `${last}:world/threads.json`)).threads;
    const advanced = threadsB.filter((t: any) => threadsA.find((x: any) => x.id === t.id).progress !== t.progress || threadsA.find((x: any) => x.id === t.id).status !== t.status).map((t: any) => t.id).sort();
    expect(d.threads.map((t: { id: string }) => t.id).sort()).toEqual(advanced);
    const text = await cli(['diff', 's01e01', last], root);
    expect(text.stdout).toContain(`World changes from s01e01 to ${last}`);
    expect(text.stdout).toMatch(/Gained and lost\n\s+\S.* (gained|lost) [\d,]+ denarii/);
    // Words, not JSON: no JSON object syntax (secret texts may themselves quote speech).
    expect(text.stdout).not.toMatch(/[{[]\s*"|"\s*:\s*[\d"{[]/);
    const none = await cli(['diff', 's01e02', 's01e02'], root);
    expect(none.stdout).toContain('No change to the world.');
    expect((await cli(['diff', 's01e01', '--upload-pack=x'], root)).code).toBe(2);
    expect((await cli(['diff', 's01e01', 'no-such-ref'], root)).code).toBe(2);
  });

  it('exports Fountain that fountain-js parses into the script\'s headings, cues and dialogue', async () => {
    const r = await cli(['export', 's01e02', '--format', 'fountain'], root);
    expect(r.code).toBe(0);
    const doc = parseScriptMarkdown(fs.readFileSync(path.join(root, ep(2), 'episode_script.md'), 'utf8'));
    const toks = new Fountain().parse(r.stdout, true).tokens;
    expect(toks.filter((t) => t.type === 'scene_heading').map((t) => t.text)).toEqual(doc.scenes.map((s) => s.heading));
    const dialogue = doc.scenes.flatMap((s) => s.elements.filter((e) => e.kind === 'dialogue'));
    expect(dialogue.length).toBeGreaterThan(10);
    expect(toks.filter((t) => t.type === 'character').map((t) => t.text)).toEqual(dialogue.map((d) => (d as { cue: string }).cue));
    expect(toks.filter((t) => t.type === 'dialogue').map((t) => t.text)).toEqual(dialogue.map((d) => d.text));
  });

  it('exports the script as markdown and a self-contained HTML report', async () => {
    const md = await cli(['export', 's01e01', '--format', 'md'], root);
    expect(md.stdout).toBe(fs.readFileSync(path.join(root, ep(1), 'episode_script.md'), 'utf8'));
    const out = path.join(tempDir('html'), 'r.html');
    const h = await cli(['export', `s01e0${N}`, '--format', 'html', '-o', out], root);
    expect(h.code).toBe(0);
    const html = fs.readFileSync(out, 'utf8');
    const metrics = JSON.parse(fs.readFileSync(path.join(root, ep(N), 'episode_metrics.json'), 'utf8'));
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<svg');
    const points = /<polyline class="tension" points="([^"]+)"/.exec(html)![1].trim().split(' ');
    expect(points).toHaveLength(metrics.tension_curve.length);
    expect(html.match(/class="pacing"/g)?.length).toBe(metrics.acts.length);
    expect(html).toContain('Threads advanced');
    expect(html).toMatch(/Verdict <strong>PASS<\/strong>: \d+\/\d+ scenes passed/);
    expect(html.match(/<section class="scene"/g)?.length).toBe(metrics.tension_curve.length);
    expect(html).not.toMatch(/(src|href)="https?:/); // self-contained
    expect((await cli(['export', 's01e01', '--format', 'pdf'], root)).code).toBe(2);
    expect((await cli(['export', '../s01e01'], root)).code).toBe(2);
  });
});

describe('branch and rollback', () => {
  it('branch starts a what-if season whose episodes get branch-qualified tags', async () => {
    const from = `s01e0${N - 1}`;
    const b = await cli(['branch', 'whatif', '--from', from, '--json'], root);
    expect(b.code, b.stderr).toBe(0);
    expect(git(root, 'branch', '--show-current')).toBe('whatif');
    expect(git(root, 'rev-parse', 'HEAD')).toBe(git(root, 'rev-parse', `${from}^{commit}`));
    expect(fs.existsSync(path.join(root, ep(N)))).toBe(false);
    expect((await cli(['branch', 'whatif', '--from', 's01e01'], root)).code).toBe(2);
    expect((await cli(['branch', 'bad..name', '--from', 's01e01'], root)).code).toBe(2);
    const mainLast = git(root, 'rev-parse', `s01e0${N}^{commit}`);
    const r = await cli(['episode', 'run', '--json', '--seed', 'whatif'], root);
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s.tag).toBe(`whatif/s01e0${N}`);
    expect(git(root, 'rev-parse', `s01e0${N}^{commit}`)).toBe(mainLast);
    const tags = ['s01e01', 's01e02', 's01e03'].slice(0, N - 1).concat(`whatif/s01e0${N}`);
    expect(JSON.parse((await cli(['status', '--json'], root)).stdout).committed.map((e: { tag: string }) => e.tag)).toEqual(tags);
    git(root, 'switch', '--quiet', 'main');
  }, 300_000);

  it('rollback reverts the episode and the later ones, restoring the world with history kept', async () => {
    if (git(root, 'branch', '--show-current') !== 'main') git(root, 'switch', '--quiet', 'main');
    const before = Number(git(root, 'rev-list', '--count', 'HEAD'));
    fs.appendFileSync(path.join(root, 'world/threads.json'), ' ');
    expect((await cli(['rollback', 's01e02'], root)).code).toBe(8);
    git(root, 'checkout', '--', 'world/threads.json');
    const r = await cli(['rollback', 's01e02', '--json'], root);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    const subjects = ['S01E03:', 'S01E02:'].slice(3 - N);
    expect(j.reverted.map((x: { subject: string }) => x.subject.slice(0, 7))).toEqual(subjects);
    expect(Number(git(root, 'rev-list', '--count', 'HEAD'))).toBe(before + N - 1);
    expect(git(root, 'diff', '--stat', 's01e01', 'HEAD')).toBe('');
    expect(fs.existsSync(path.join(root, ep(2)))).toBe(false);
    // An episode only on main has its tag renamed; one still on the what-if branch keeps it.
    expect(git(root, 'tag', '--list', `s01e0${N}`)).toBe('');
    expect(git(root, 'tag', '--list', 'rolledback/*').split('\n').filter(Boolean)).toHaveLength(1);
    if (N === 3) expect(git(root, 'tag', '--list', 's01e02')).toBe('s01e02');
    const st = JSON.parse((await cli(['status', '--json'], root)).stdout);
    expect(st.committed.map((e: { tag: string }) => e.tag)).toEqual(['s01e01']);
    expect(st.next_episode).toBe('s01e02');
    expect((await cli(['validate'], root)).code).toBe(0);
    expect((await cli(['rollback', 's01e02'], root)).code).toBe(2);
  });
});
