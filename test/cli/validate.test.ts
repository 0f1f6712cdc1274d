import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics/index.js';
import { baseWorldDir, copyBaseWorld, FIXTURES, hashTree, REPO, runCli, STACK_TRACE, tempDir } from './helpers.js';
import { buildScenarioWorld, loadScenarios } from './scenarios.js';

const made: string[] = [];
afterAll(() => {
  for (const d of made) fs.rmSync(d, { recursive: true, force: true });
});

const REQUIRED_SCENARIOS = [
  'invalid-json',
  'wrong-type',
  'unknown-key',
  'missing-file',
  'duplicate-id',
  'dangling-reference',
  'proto-key',
  'constructor-key',
  'unsafe-id',
  'oversize-file',
  'not-utf8',
  'empty-file',
];

describe('aureus validate on a valid world', () => {
  it(`accepts the base world (${baseWorldDir().name}) with zero diagnostics and exit 0`, async () => {
    const dir = copyBaseWorld('valid');
    made.push(dir);
    const before = hashTree(dir);
    const r = await runCli(['-C', dir, 'validate']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/is a valid world: \d+ characters/);
    const j = await runCli(['-C', dir, 'validate', '--json']);
    expect(j.code).toBe(0);
    expect(JSON.parse(j.stdout)).toEqual({ valid: true, diagnostics: [] });
    expect(hashTree(dir)).toBe(before);
  });

  it('accepts the minimal fixture world', async () => {
    const r = await runCli(['-C', path.join(FIXTURES, 'minimal'), 'validate', '--json']);
    expect(JSON.parse(r.stdout)).toEqual({ valid: true, diagnostics: [] });
    expect(r.code).toBe(0);
  });

  it('reports a directory without world/ as not a world repository (one diagnostic, exit 3)', async () => {
    const dir = tempDir('empty');
    made.push(dir);
    const r = await runCli(['-C', dir, 'validate', '--json']);
    expect(r.code).toBe(3);
    const out = JSON.parse(r.stdout) as { valid: boolean; diagnostics: Diagnostic[] };
    expect(out.valid).toBe(false);
    expect(out.diagnostics.map((d) => d.code)).toEqual(['AUR1000']);
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe('aureus validate on bad input', () => {
  const scenarios = loadScenarios();

  it('has a fixture for every required bad-input case', () => {
    expect(scenarios.map((s) => s.name)).toEqual(expect.arrayContaining(REQUIRED_SCENARIOS));
  });

  for (const s of scenarios) {
    it(`${s.name}: ${s.description}`, async () => {
      const dir = buildScenarioWorld(s);
      made.push(dir);
      const before = hashTree(dir);
      const prototypeKeysBefore = Object.getOwnPropertyNames(Object.prototype).sort();

      // Text output: the diagnostic under its file heading, with its location; exit 3; no stack.
      const text = await runCli(['-C', dir, 'validate']);
      expect(text.code).toBe(3);
      expect(text.stdout + text.stderr).not.toMatch(STACK_TRACE);
      const e = s.expect;
      const lines = text.stdout.split('\n');
      const heading = lines.indexOf(e.file);
      expect(heading, `no heading for ${e.file} in:\n${text.stdout}`).toBeGreaterThanOrEqual(0);
      const entry = lines.slice(heading + 1).find((l) => l.includes(e.code));
      expect(entry, `no ${e.code} under ${e.file} in:\n${text.stdout}`).toBeDefined();
      // Line:column and the JSON pointer, both when both are known ("4:3 /constructor: error …").
      if (e.line !== undefined) expect(entry).toContain(`${e.line}:${e.column}${e.pointer !== undefined ? ` ${e.pointer}` : ''}: error ${e.code}`);
      else if (e.pointer !== undefined) expect(entry).toContain(`${e.pointer}: error ${e.code}`);
      if (e.pointer !== undefined) expect(entry).toMatch(/^ {2}\d+:\d+ \//);
      expect(text.stdout).toMatch(/✗ \d+ errors? in \d+ files?: the world in .* is invalid/);

      // JSON output: the same diagnostic as data.
      const json = await runCli(['-C', dir, 'validate', '--json']);
      expect(json.code).toBe(3);
      const out = JSON.parse(json.stdout) as { valid: boolean; diagnostics: Diagnostic[] };
      expect(out.valid).toBe(false);
      const d = out.diagnostics.find((x) => x.code === e.code && x.file === e.file);
      expect(d, JSON.stringify(out.diagnostics, null, 1)).toBeDefined();
      expect(d!.severity).toBe('error');
      if (e.pointer !== undefined) expect(d!.pointer).toBe(e.pointer);
      if (e.pointerMatches !== undefined) expect(d!.pointer).toMatch(new RegExp(e.pointerMatches));
      if (e.line !== undefined) expect([d!.line, d!.column]).toEqual([e.line, e.column]);
      if (e.message !== undefined) expect(d!.message).toContain(e.message);
      if (e.hint !== undefined) expect(d!.hint).toContain(e.hint);
      expect(d!.hint, 'every diagnostic carries a fix hint').toBeTruthy();

      // Nothing written, nothing polluted.
      expect(hashTree(dir)).toBe(before);
      expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeysBefore);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  }
});

describe('aureus validate output', () => {
  it('groups diagnostics by file, files in name order', async () => {
    const dir = copyBaseWorld('grouped');
    made.push(dir);
    fs.writeFileSync(path.join(dir, 'world/threads.json'), '');
    fs.writeFileSync(path.join(dir, 'world/factions.json'), '{');
    const r = await runCli(['-C', dir, 'validate']);
    expect(r.code).toBe(3);
    const headings = r.stdout.split('\n').filter((l) => /^[a-z_/]+\.json$/.test(l));
    expect(headings).toEqual(['world/factions.json', 'world/threads.json']);
    expect(r.stdout).toContain('world/factions.json\n  1:2: error AUR1005 invalid JSON: unexpected end of the file');
  });

  it('names git conflict markers and comments in a hand-edited file in the hint, not a trailing comma', async () => {
    const dir = copyBaseWorld('hand-edits');
    made.push(dir);
    const file = path.join(dir, 'world/factions.json');
    const text = fs.readFileSync(file, 'utf8');
    const lines = text.split('\n');
    // A merge left both sides of a conflict (as `git merge` writes them).
    fs.writeFileSync(file, [...lines.slice(0, 3), '<<<<<<< HEAD', lines[3], '=======', lines[3], '>>>>>>> side', ...lines.slice(4)].join('\n'));
    const merged = JSON.parse((await runCli(['-C', dir, 'validate', '--json'])).stdout) as { diagnostics: Diagnostic[] };
    expect(merged.diagnostics.find((d) => d.code === 'AUR1005')?.hint).toMatch(/git merge-conflict markers \(line 4: "<<<<<<< HEAD"\).*git add/);
    fs.writeFileSync(file, [lines[0], '  // the factions of 63 BC', ...lines.slice(1)].join('\n'));
    const commented = JSON.parse((await runCli(['-C', dir, 'validate', '--json'])).stdout) as { diagnostics: Diagnostic[] };
    expect(commented.diagnostics.find((d) => d.code === 'AUR1005')).toMatchObject({ line: 2, hint: expect.stringMatching(/^JSON has no comments/) });
  });

  it('checks the style files too (style/lexicon.md missing → AUR1807)', async () => {
    const dir = copyBaseWorld('style');
    made.push(dir);
    fs.rmSync(path.join(dir, 'style/lexicon.md'));
    const r = await runCli(['-C', dir, 'validate', '--json']);
    expect(r.code).toBe(3);
    const out = JSON.parse(r.stdout) as { diagnostics: Diagnostic[] };
    expect(out.diagnostics.map((d) => [d.code, d.file])).toEqual([['AUR1807', 'style/lexicon.md']]);
  });

  it('reports aureus.config.yaml problems with the world ones', async () => {
    const dir = copyBaseWorld('config');
    made.push(dir);
    fs.writeFileSync(path.join(dir, 'aureus.config.yaml'), 'concurrency: [unclosed\n');
    const r = await runCli(['-C', dir, 'validate', '--json']);
    expect(r.code).toBe(3);
    const out = JSON.parse(r.stdout) as { diagnostics: Diagnostic[] };
    expect(out.diagnostics.length).toBeGreaterThan(0);
    expect(out.diagnostics.every((d) => d.file === 'aureus.config.yaml' && d.line !== undefined)).toBe(true);
  });

  it('has --help with an example', async () => {
    const r = await runCli(['validate', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Examples:');
    expect(r.stdout).toContain('aureus -C my-world validate --json');
  });

  it('validates the repository itself (the starter kit) with zero diagnostics when the kit is present', async () => {
    if (!fs.existsSync(path.join(REPO, 'world/world.json'))) return;
    const r = await runCli(['-C', REPO, 'validate', '--json']);
    expect(JSON.parse(r.stdout)).toEqual({ valid: true, diagnostics: [] });
    expect(r.code).toBe(0);
  });
});
