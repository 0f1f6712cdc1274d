import fs from 'node:fs';
import path from 'node:path';
import { copyBaseWorld, FIXTURES } from './helpers.js';

/**
 * Bad-input scenarios: each is a folder under test/fixtures/worlds/<scenario>/ holding
 * `_scenario.json` (what to change in the base world and the diagnostic to expect) and,
 * optionally, whole files that replace the base world's (same relative paths). Changes are
 * written as JSON-pointer patches so the scenarios keep working as the starter kit evolves.
 */

export interface ScenarioPatch {
  file: string;
  op: 'replace' | 'add' | 'remove' | 'delete-file';
  path?: string;
  value?: unknown;
  /** For add/replace: copy the value found at this pointer of the same file. */
  copyFrom?: string;
}

export interface ScenarioExpect {
  code: string;
  file: string;
  pointer?: string;
  pointerMatches?: string;
  line?: number;
  column?: number;
  /** A substring of the diagnostic's message. */
  message?: string;
  /** A substring of the diagnostic's hint. */
  hint?: string;
}

export interface Scenario {
  name: string;
  description: string;
  patch?: ScenarioPatch[];
  generate?: { file: string; kind: 'oversize' | 'latin1' };
  expect: ScenarioExpect;
}

export function loadScenarios(): Scenario[] {
  return fs
    .readdirSync(FIXTURES)
    .filter((d) => fs.existsSync(path.join(FIXTURES, d, '_scenario.json')))
    .sort()
    .map((name) => ({ name, ...(JSON.parse(fs.readFileSync(path.join(FIXTURES, name, '_scenario.json'), 'utf8')) as Omit<Scenario, 'name'>) }));
}

function segments(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function get(doc: unknown, pointer: string): unknown {
  let cur = doc as Record<string, unknown>;
  for (const s of segments(pointer)) cur = cur[s] as Record<string, unknown>;
  return cur;
}

function applyPatch(dir: string, p: ScenarioPatch): void {
  const abs = path.join(dir, p.file);
  if (p.op === 'delete-file') {
    fs.rmSync(abs);
    return;
  }
  const doc = JSON.parse(fs.readFileSync(abs, 'utf8')) as unknown;
  const segs = segments(p.path!);
  const last = segs.pop()!;
  const parent = get(doc, segs.map((s) => '/' + s).join('')) as Record<string, unknown> | unknown[];
  if (parent === undefined) throw new Error(`scenario patch: ${p.path} has no parent in ${p.file}`);
  const value = p.copyFrom !== undefined ? structuredClone(get(doc, p.copyFrom)) : p.value;
  if (Array.isArray(parent)) {
    if (p.op === 'remove') parent.splice(Number(last), 1);
    else if (last === '-') parent.push(value);
    else if (p.op === 'add') parent.splice(Number(last), 0, value);
    else parent[Number(last)] = value;
  } else if (p.op === 'remove') delete parent[last];
  else parent[last] = value;
  fs.writeFileSync(abs, JSON.stringify(doc, null, 2) + '\n');
}

function generate(dir: string, g: NonNullable<Scenario['generate']>): void {
  const abs = path.join(dir, g.file);
  if (g.kind === 'oversize') {
    // Valid JSON followed by whitespace: only the size is wrong, so only the size can be reported.
    const text = fs.readFileSync(abs);
    const pad = Buffer.alloc(10 * 1024 * 1024 + 1 - text.length, 0x20);
    fs.writeFileSync(abs, Buffer.concat([text, pad]));
  } else {
    const text = fs.readFileSync(abs, 'utf8');
    if (!text.includes('"description": "')) throw new Error(`scenario: no description field to alter in ${g.file}`);
    // Latin-1 encodes é as the single byte 0xE9, which is not UTF-8.
    fs.writeFileSync(abs, Buffer.from(text.replace('"description": "', '"description": "Caf\u00e9 '), 'latin1'));
  }
}

/** Build the scenario's world in a fresh temp directory. */
export function buildScenarioWorld(s: Scenario): string {
  const dir = copyBaseWorld(s.name);
  const src = path.join(FIXTURES, s.name);
  const overlay = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const abs = path.join(d, e.name);
      if (e.name === '_scenario.json') continue;
      if (e.isDirectory()) overlay(abs);
      else {
        const to = path.join(dir, path.relative(src, abs));
        fs.mkdirSync(path.dirname(to), { recursive: true });
        fs.copyFileSync(abs, to);
      }
    }
  };
  overlay(src);
  for (const p of s.patch ?? []) applyPatch(dir, p);
  if (s.generate) generate(dir, s.generate);
  return dir;
}
