import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { firstTooDeep, MAX_CONFIG_DEPTH } from '../../src/config/yaml-depth.js';
import { builtCli, cleanup, makeWorld, spawnCli } from '../pipeline/world.js';

/**
 * An unclosed `{a: ` repeated in aureus.config.yaml: yaml's composer recursed once per level, so
 * 1,000 levels gave "YAML syntax error: Maximum call stack size exceeded" and 798 copies of one
 * error at one position (136 KB); 100 levels gave 100 copies. Now: a depth limit said as such, and
 * each distinct syntax error once.
 */
afterAll(cleanup);

interface Schema { properties?: Record<string, Schema>; additionalProperties?: Schema | boolean }

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
function configDir(yaml: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aureus-config-depth-'));
  dirs.push(dir);
  fs.writeFileSync(path.join(dir, 'aureus.config.yaml'), yaml);
  return dir;
}

describe('nesting in aureus.config.yaml', () => {
  it('the hint\'s example key is one the config has (it named models.overrides.<stage>.<key>, which it has not)', () => {
    const [d] = loadConfig(configDir('models: ' + '{a: '.repeat(MAX_CONFIG_DEPTH + 1))).diagnostics;
    const example = /\(([a-z_.<>]+)\)/.exec(d!.hint ?? '')![1]!;
    const config = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../../schemas/config.schema.json'), 'utf8')) as Schema;
    let node: Schema | undefined = config;
    for (const key of example.split('.')) node = key.startsWith('<') ? (node?.additionalProperties as Schema | undefined) : node?.properties?.[key];
    expect(node, example).toBeDefined();
  });

  it('finds the first collection deeper than the limit, flow or block, without the call stack', () => {
    expect(firstTooDeep('models:\n  overrides:\n    writer: {model: x, tags: [a, b]}\n')).toBeNull();
    const flow = 'models: ' + '{a: '.repeat(MAX_CONFIG_DEPTH);
    expect(firstTooDeep(flow)).toBe(8 + 4 * (MAX_CONFIG_DEPTH - 1));
    expect(firstTooDeep(flow.slice(0, -4))).toBeNull();
    const block = Array.from({ length: MAX_CONFIG_DEPTH + 1 }, (_, i) => ' '.repeat(i) + 'a:\n').join('');
    expect(firstTooDeep(block)).not.toBeNull();
    // Far beyond any call stack: the parser and the walk both keep their own.
    expect(firstTooDeep('models: ' + '{a: '.repeat(50_000))).toBe(8 + 4 * MAX_CONFIG_DEPTH - 4);
  });

  it.each([100, 1000])('%i unclosed levels: one diagnostic, "nested deeper than 64 levels", no stack overflow', (n) => {
    const { diagnostics } = loadConfig(configDir('models: ' + '{a: '.repeat(n)));
    expect(diagnostics).toEqual([expect.objectContaining({ code: 'AUR4101', file: 'aureus.config.yaml', line: 1, column: 8 + 4 * MAX_CONFIG_DEPTH - 3, message: `YAML syntax error: nested deeper than ${MAX_CONFIG_DEPTH} levels` })]);
  });

  it('says each distinct syntax error once (yaml repeats one per level it gives up on)', () => {
    const { diagnostics } = loadConfig(configDir('models: ' + '{a: '.repeat(10)));
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ code: 'AUR4101', line: 1 });
    expect(diagnostics[0]!.message).not.toMatch(/call stack/);
  });
});

describe.skipIf(!builtCli())('from the CLI', () => {
  it('validate: exit 3, one located line for 1,000 unclosed levels', async () => {
    const root = await makeWorld('config-depth');
    fs.writeFileSync(path.join(root, 'aureus.config.yaml'), 'models: ' + '{a: '.repeat(1000));
    const r = await spawnCli(['validate'], root);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stdout.match(/AUR4101/g)).toHaveLength(1);
    expect(r.stdout).toContain(`aureus.config.yaml\n  1:${8 + 4 * MAX_CONFIG_DEPTH - 3}: error AUR4101 YAML syntax error: nested deeper than ${MAX_CONFIG_DEPTH} levels`);
    expect(r.stdout).not.toMatch(/call stack/);
  }, 60_000);
});
