import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics/index.js';
import { runCli, tempDir } from './helpers.js';

/**
 * `aureus validate` checks each operator effect's literal value against the world schema of the
 * field its path writes (AUR2028, store/effect-values.ts), located in operators.json at line:column:
 * before, such a value passed validate and only the first run that applied it found out.
 */

const made: string[] = [];
afterAll(() => {
  for (const d of made) fs.rmSync(d, { recursive: true, force: true });
});

let pristine = '';
let world = '';
beforeAll(async () => {
  const parent = tempDir('effect-values');
  made.push(parent);
  const r = await runCli(['init', 'w'], { cwd: parent });
  expect(r.code).toBe(0);
  world = path.join(parent, 'w');
  pristine = fs.readFileSync(path.join(world, 'operators/operators.json'), 'utf8');
}, 60_000);

type Effect = { path: string; op: string; value?: unknown; amount?: unknown; from?: string; to?: string };

/** operators.json with effects appended to op_witness_flip (roles actor, target, secret) and to its first risk. */
function writeOperators(effects: Effect[], riskEffects: Effect[] = []): { text: string; base: number; riskBase: number } {
  const file = JSON.parse(pristine) as { operators: { id: string; effects: Effect[]; side_effect_risks: { effects?: Effect[] }[] }[] };
  const op = file.operators[0]!;
  expect(op.id).toBe('op_witness_flip');
  const base = op.effects.length;
  op.effects.push(...effects);
  const risk = op.side_effect_risks[0]!;
  const riskBase = risk.effects?.length ?? 0;
  (risk.effects ??= []).push(...riskEffects);
  const text = JSON.stringify(file, null, 2) + '\n';
  fs.writeFileSync(path.join(world, 'operators/operators.json'), text);
  return { text, base, riskBase };
}

/** The 1-based line and column of the `"value"`/`"amount"` key of the one effect holding `literal`. */
function locate(text: string, key: string, literal: string): { line: number; column: number } {
  const lines = text.split('\n');
  const hits = lines.map((l, i) => [l, i] as const).filter(([l]) => l.includes(`"${key}": ${literal}`));
  expect(hits.length).toBe(1);
  const [l, i] = hits[0]!;
  return { line: i + 1, column: l.indexOf(`"${key}"`) + 1 };
}

describe('aureus validate checks operators\' literal effect values (AUR2028)', () => {
  it('accepts values every target field allows, and skips {"expr": …} values (exit 0)', async () => {
    writeOperators(
      [
        { path: 'relationships.actor.target.flags', op: 'add', value: 'reconciled_friends' },
        { path: 'relationships.actor.target.flags', op: 'subtract', value: 'patron' },
        { path: 'target.bdi.intentions', op: 'add', value: 'TESTIFY_NOW' },
        { path: 'target.bdi.beliefs', op: 'add', value: 'The quaestor lied' },
        { path: 'target.status', op: 'set', value: 'exiled' },
        { path: 'actor.wealth', op: 'set', value: 100 },
        // A change, not a value: the engine clamps the result, so only the type is the schema's.
        { path: 'actor.wealth', op: 'add', value: 150 },
        { path: 'relationships.actor.target.trust', op: 'set', value: 0 },
        { path: 'relationships.actor.target.trust', op: 'multiply', value: 1.5 },
        { path: 'secret.status', op: 'set', value: 'rumored' },
        { path: 'secret.holders', op: 'add', value: 'cicero' },
        { path: 'world.date.month', op: 'set', value: 12 },
        { path: 'actor.fama', op: 'set', value: { expr: 'actor.fama + 1' } },
        { path: 'assets.cash_ledger', op: 'transfer', from: 'actor', to: 'target', amount: 500 },
      ],
      [{ path: 'secret.legal_value', op: 'set', value: 1 }],
    );
    const r = await runCli(['-C', world, 'validate', '--json']);
    expect(JSON.parse(r.stdout)).toEqual({ valid: true, diagnostics: [] });
    expect(r.code).toBe(0);
  });

  it('reports each bad value at its line:column with the rule it breaks (exit 3)', async () => {
    const { text, base, riskBase } = writeOperators(
      [
        { path: 'relationships.actor.target.flags', op: 'add', value: 'Reconciled Friends' },
        { path: 'target.status', op: 'set', value: 'banished' },
        { path: 'actor.wealth', op: 'set', value: 150 },
        { path: 'relationships.actor.target.trust', op: 'add', value: 'lots' },
        { path: 'target.bdi.intentions', op: 'add', value: 'testify now' },
        { path: 'world.date.month', op: 'set', value: 13.5 },
        { path: 'actor.fama', op: 'set', value: 40 }, // good: not reported
        { path: 'assets.cash_ledger', op: 'transfer', from: 'actor', to: 'target', amount: 2.5 },
      ],
      [{ path: 'secret.public_damage', op: 'set', value: 1.25 }],
    );
    const r = await runCli(['-C', world, 'validate', '--json']);
    expect(r.code).toBe(3);
    const out = JSON.parse(r.stdout) as { valid: boolean; diagnostics: Diagnostic[] };
    expect(out.valid).toBe(false);
    const at = (k: number) => `/operators/0/effects/${base + k}`;
    const expected: [string, string, string, RegExp][] = [
      [`${at(0)}/value`, 'value', '"Reconciled Friends"', /flags in world\/relationships\.json .*a-z, 0-9 and _/],
      [`${at(1)}/value`, 'value', '"banished"', /status in world\/characters\.json .*not allowed/],
      [`${at(2)}/value`, 'value', '150', /wealth in world\/characters\.json .*must be <= 100/],
      [`${at(3)}/value`, 'value', '"lots"', /a change to trust .*expected a number, got string "lots"/],
      [`${at(4)}/value`, 'value', '"testify now"', /intentions .*\^\[A-Z\]\[A-Z0-9_\]\*\$/],
      [`${at(5)}/value`, 'value', '13.5', /month in world\/world\.json .*expected an integer/],
      [`${at(7)}/amount`, 'amount', '2.5', /denarii in world\/assets\.json .*expected an integer/],
      [`/operators/0/side_effect_risks/0/effects/${riskBase}/value`, 'value', '1.25', /public_damage .*must be <= 1/],
    ];
    expect(out.diagnostics.map((d) => [d.code, d.severity, d.file, d.pointer])).toEqual(expected.map(([p]) => ['AUR2028', 'error', 'operators/operators.json', p]));
    out.diagnostics.forEach((d, i) => {
      const [, key, literal, rule] = expected[i]!;
      expect({ line: d.line, column: d.column }).toEqual(locate(text, key, literal));
      expect(d.message).toContain(`effect value ${literal} does not fit`);
      expect(d.message).toMatch(rule);
      expect(d.hint).toBeTruthy();
    });
    expect(out.diagnostics[1]!.hint).toContain('"alive", "dead", "exiled", "imprisoned"');

    const t = await runCli(['-C', world, 'validate']);
    expect(t.code).toBe(3);
    const first = locate(text, 'value', '"Reconciled Friends"');
    expect(t.stdout).toContain(`operators/operators.json\n  ${first.line}:${first.column} ${at(0)}/value: error AUR2028 effect value "Reconciled Friends"`);
    expect(t.stdout).toContain('✗ 8 errors in 1 file');
  });

  // Found by a fuzzer: a transfer from an account to itself passed validate; every application of the operator then
  // failed (AUR2022) and `episode plan` said only that no operator's prerequisites held (AUR3001, exit 6).
  it('reports a transfer from an account to itself at its "to" (AUR2022, exit 3)', async () => {
    const { text, base } = writeOperators([
      { path: 'assets.cash_ledger', op: 'transfer', from: 'actor', to: 'actor', amount: 1 },
      { path: 'assets.cash_ledger', op: 'transfer', from: 'actor', to: 'target', amount: 1 }, // good: not reported
    ]);
    const r = await runCli(['-C', world, 'validate', '--json']);
    expect(r.code).toBe(3);
    const out = JSON.parse(r.stdout) as { valid: boolean; diagnostics: Diagnostic[] };
    expect(out.diagnostics.map((d) => [d.code, d.file, d.pointer])).toEqual([['AUR2022', 'operators/operators.json', `/operators/0/effects/${base}/to`]]);
    expect(out.diagnostics[0]!.message).toContain('a transfer needs two different accounts, and from and to are both "actor"');
    // The "to" right after a "from": "actor" (other operators send to the actor from elsewhere).
    const hits = [...text.matchAll(/"from": "actor",\n( *)"to": "actor"/g)];
    expect(hits).toHaveLength(1);
    const offset = hits[0]!.index! + hits[0]![0].indexOf('"to"');
    const before = text.slice(0, offset).split('\n');
    expect({ line: out.diagnostics[0]!.line, column: out.diagnostics[0]!.column }).toEqual({ line: before.length, column: before.at(-1)!.length + 1 });
  });
});
