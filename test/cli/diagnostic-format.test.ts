import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics/index.js';
import { copyBaseWorld, runCli } from './helpers.js';

const made: string[] = [];
afterAll(() => {
  for (const d of made) fs.rmSync(d, { recursive: true, force: true });
});

describe('diagnostic text output keeps the column', () => {
  it('prints pointer:column for an expression diagnostic, matching --json', async () => {
    const dir = copyBaseWorld('exprcol');
    made.push(dir);
    const file = path.join(dir, 'operators/operators.json');
    const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as { operators: { prereqs: { expr: string }[] }[] };
    doc.operators[0]!.prereqs[0]!.expr = 'actor.welth > 1';
    fs.writeFileSync(file, JSON.stringify(doc, null, 2));

    const j = await runCli(['-C', dir, 'validate', '--json']);
    expect(j.code).toBe(3);
    const d = (JSON.parse(j.stdout) as { diagnostics: Diagnostic[] }).diagnostics.find((x) => x.pointer === '/operators/0/prereqs/0/expr');
    expect(d).toBeDefined();
    expect(d!.column).toBeTypeOf('number');

    const t = await runCli(['-C', dir, 'validate']);
    expect(t.code).toBe(3);
    expect(t.stdout + t.stderr).toContain(`/operators/0/prereqs/0/expr:${d!.column}: error ${d!.code}`);
  });

  it('keeps line:col for a syntax error', async () => {
    const dir = copyBaseWorld('syntaxcol');
    made.push(dir);
    fs.writeFileSync(path.join(dir, 'world/factions.json'), '{\n  "format": 1,\n  "factions": [\n  ]]\n}\n');
    const t = await runCli(['-C', dir, 'validate']);
    expect(t.code).toBe(3);
    expect(t.stdout + t.stderr).toMatch(/^\s+\d+:\d+: error AUR1005/m);
  });
});
