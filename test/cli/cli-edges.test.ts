import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, cli, git, makeWorld, spawnCli } from '../pipeline/world.js';

/**
 * The CLI's rough edges (issue 12, "CLI and output" 3–4), each on a real world repository:
 * --version, errors said once, rollback's dirty-world hint, season run --json after a failure,
 * --count with --no-commit, status after an interrupted commit, and uncommitted style/config edits.
 */
let root: string;
beforeAll(async () => {
  root = await makeWorld('edges');
  const r = await cli(['episode', 'run'], root);
  if (r.code !== 0) throw new Error(r.stderr);
});
afterAll(cleanup);

const count = (hay: string, needle: string) => hay.split(needle).length - 1;

describe('CLI edges', () => {
  it('--version and -V print the version and exit 0', async () => {
    const pkg = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const r = await cli([flag], root);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.trim()).toBe(pkg.version);
    }
  });

  it('an error is said once, and rollback on a dirty world does not suggest the --allow-dirty it rejects', async () => {
    fs.appendFileSync(path.join(root, 'world/factions.json'), ' ');
    try {
      const run = await cli(['episode', 'run'], root);
      expect(run.code).toBe(8);
      expect(count(run.stderr, 'uncommitted')).toBe(1);
      expect(run.stderr).toContain('--allow-dirty');
      const rb = await cli(['rollback', 's01e01'], root);
      expect(rb.code).toBe(8);
      expect(rb.stderr).toContain('AUR6001');
      expect(count(rb.stderr, 'uncommitted')).toBe(1);
      expect(rb.stderr).not.toContain('--allow-dirty');
    } finally {
      git(root, 'checkout', '--', 'world');
    }
  });

  it('--allow-dirty says which uncommitted edits its episode commit carries (AUR6061, text and --json)', async () => {
    // Before, the author's edits went into the episode's commit without a word.
    const w = await makeWorld('edges-allow-dirty');
    const file = path.join(w, 'world/factions.json');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('"The Optimates"', '"The Best Men"'));
    const r = await cli(['episode', 'run', '--allow-dirty', '--json'], w);
    expect(r.code, r.stderr).toBe(0);
    const warned = (JSON.parse(r.stdout) as { warnings: { code: string; message: string }[] }).warnings.find((d) => d.code === 'AUR6061');
    expect(warned?.message).toBe("--allow-dirty: the uncommitted edits to world/factions.json go into the episode's commit");
    expect(git(w, 'show', 'HEAD:world/factions.json')).toContain('The Best Men');
    // A clean world run with the flag says nothing of the kind.
    const again = await cli(['episode', 'run', '--allow-dirty'], w);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toContain('AUR6061');
  });

  it('uncommitted edits to style/ or aureus.config.yaml are refused like a dirty world', async () => {
    for (const rel of ['style/style_guide.md', 'aureus.config.yaml']) {
      const file = path.join(root, rel);
      if (!fs.existsSync(file)) throw new Error(`the starter kit has no ${rel}`);
      fs.appendFileSync(file, '\n# an edit\n');
      try {
        const head = git(root, 'rev-parse', 'HEAD');
        const r = await cli(['episode', 'run'], root);
        expect(r.code, rel).toBe(8);
        expect(r.stderr).toContain(rel);
        expect(git(root, 'rev-parse', 'HEAD')).toBe(head);
      } finally {
        git(root, 'checkout', '--', rel);
      }
    }
  });

  it('season run --count 3 --no-commit is a usage error, not one silent episode', async () => {
    const r = await cli(['season', 'run', '--count', '3', '--no-commit'], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--no-commit.*--count/);
    expect(fs.existsSync(path.join(root, '.aureus/lock'))).toBe(false);
  });

  it('season run --json keeps the summaries of committed episodes when a later one fails', async () => {
    // The tag of the second episode of this run cannot be created: a directory is in its way.
    const tags = git(root, 'tag', '--list', 's01e*').split('\n').filter(Boolean).length;
    const blocked = `s01e${String(tags + 2).padStart(2, '0')}`;
    fs.mkdirSync(path.join(root, '.git/refs/tags', blocked), { recursive: true });
    fs.writeFileSync(path.join(root, '.git/refs/tags', blocked, 'in-the-way'), 'not a ref\n');
    try {
      const r = await cli(['season', 'run', '--count', '3', '--json'], root);
      expect(r.code).not.toBe(0);
      const out = JSON.parse(r.stdout) as { episodes: { episode: string; status: string }[]; error: { exit_code: number } };
      expect(out.episodes.map((e) => [e.episode, e.status])).toEqual([[`s01e${String(tags + 1).padStart(2, '0')}`, 'committed']]);
      expect(out.error.exit_code).toBe(r.code);
    } finally {
      fs.rmSync(path.join(root, '.git/refs/tags', blocked), { recursive: true, force: true });
    }
  });

  it('status after an interrupted commit names the episode after the one it will finish', async () => {
    const before = await cli(['status', '--json'], root);
    const next = JSON.parse(before.stdout).next_episode as string;
    const r = await spawnCli(['episode', 'run'], root, { AUREUS_TEST_KILL_AT: 'commit-staged' });
    expect(r.signal).toBe('SIGKILL');
    const s = await cli(['status', '--json'], root);
    const status = JSON.parse(s.stdout) as { next_episode: string; pending_commit: string | null };
    expect(status.pending_commit).toBe(next);
    expect(status.next_episode).toBe(`s01e${String(Number(next.slice(4)) + 1).padStart(2, '0')}`);
    expect((await cli(['status'], root)).stdout).toContain(`the commit of ${next} was interrupted`);
    // episode plan plans the episode after it, and warns that the world may still change under it.
    const plan = await cli(['episode', 'plan', '--json'], root);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stderr).toContain(`warning AUR6023 the commit of ${next} was interrupted and is not finished`);
    // And the next run finishes that commit.
    const again = await cli(['episode', 'run', '--json'], root);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).episode).toBe(next);
  });
});
