import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig, loadConfigOrThrow } from '../../src/config/load.js';
import { defaultConfig } from '../../src/config/defaults.js';
import { applyOverrides, parseMaxCost, parseCacheTtl, parseCacheMode, parseChaos, parseConcurrency, parseModelFlags, parseProviderFlag } from '../../src/config/overrides.js';
import { parseProviderId, resolveProviderSpec } from '../../src/config/provider-id.js';
import { packageRoot } from '../../src/paths.js';
import { AureusError } from '../../src/errors.js';

async function world(yaml?: string | Buffer): Promise<string> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'aureus-config-'));
  if (yaml !== undefined) fs.writeFileSync(path.join(dir, 'aureus.config.yaml'), yaml);
  return dir;
}

function catchAureus(fn: () => unknown): AureusError {
  try {
    fn();
  } catch (e) {
    if (e instanceof AureusError) return e;
    throw e;
  }
  throw new Error('expected an AureusError');
}

describe('loadConfig', () => {
  it('uses the defaults when the world has no config file', async () => {
    const { config, diagnostics, fromFile } = loadConfig(await world());
    expect(fromFile).toBe(false);
    expect(config).toEqual(defaultConfig());
    expect(diagnostics).toEqual([]);
  });

  it('ships an aureus.config.yaml that is valid and equal to the defaults', async () => {
    const shipped = fs.readFileSync(path.join(packageRoot(), 'aureus.config.yaml'), 'utf8');
    const dir = await world(shipped);
    const { config, diagnostics, fromFile } = loadConfig(dir);
    expect(fromFile).toBe(true);
    expect(diagnostics).toEqual([]);
    expect(config).toEqual(defaultConfig());
    // every key is written out, so the file documents every setting
    expect(Object.keys(parse(shipped) as object).sort()).toEqual(Object.keys(defaultConfig()).sort());
  });

  it('merges a partial file over the defaults', async () => {
    const { config, diagnostics } = loadConfig(await world('provider: offline\nmodels:\n  writer: claude-opus-5-5\nbudgets:\n  per_scene: 3\nconcurrency: 8\n'));
    expect(diagnostics).toEqual([]);
    expect(config.provider).toBe('offline');
    expect(config.models.writer).toBe('claude-opus-5-5');
    expect(config.models.director).toBe('claude-sonnet-5-5');
    expect(config.budgets).toEqual({ ...defaultConfig().budgets, per_scene: 3 });
    expect(config.concurrency).toBe(8);
  });

  it('reports YAML syntax errors at line:col', async () => {
    const { diagnostics } = loadConfig(await world('provider: offline\nmodels:\n  writer: [claude\n  critic: x\n'));
    expect(diagnostics.length).toBeGreaterThan(0);
    expect(diagnostics[0]).toMatchObject({ code: 'AUR4101', severity: 'error', file: 'aureus.config.yaml' });
    expect(diagnostics[0].line).toBeGreaterThanOrEqual(3);
    expect(diagnostics[0].column).toBeGreaterThan(0);
  });

  it('reports duplicate keys as syntax errors', async () => {
    const { diagnostics } = loadConfig(await world('concurrency: 2\nconcurrency: 3\n'));
    expect(diagnostics[0]).toMatchObject({ code: 'AUR4101', line: 2, column: 1 });
  });

  it('reports schema errors with a pointer and a position', async () => {
    const { diagnostics } = loadConfig(await world('provider: offline\nbudgets:\n  per_scene: many\nconcurrency: 0\n'));
    expect(diagnostics).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'AUR4102', pointer: '/budgets/per_scene', line: 3, column: 14 }),
        expect.objectContaining({ code: 'AUR4102', pointer: '/concurrency', line: 4, column: 14 }),
      ]),
    );
  });

  it('names an unknown key and suggests the near one', async () => {
    const { diagnostics } = loadConfig(await world('budgets:\n  per_scen: 2\nbogus: 1\n'));
    expect(diagnostics).toEqual([
      expect.objectContaining({ code: 'AUR4103', pointer: '/budgets/per_scen', line: 2, column: 3, message: 'unknown key "per_scen"', hint: 'did you mean "per_scene"?' }),
      expect.objectContaining({ code: 'AUR4103', pointer: '/bogus', line: 3, column: 1 }),
    ]);
    expect(diagnostics[1].hint).toMatch(/known keys here: provider, models/);
  });

  it('refuses prototype keys anywhere', async () => {
    const { config, diagnostics } = loadConfig(await world('models:\n  __proto__:\n    polluted: yes\nconstructor: 1\n'));
    expect(diagnostics.map((d) => [d.code, d.pointer, d.line])).toEqual([
      ['AUR4104', '/models/__proto__', 2],
      ['AUR4104', '/constructor', 4],
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(config).toEqual(defaultConfig());
  });

  it('rejects a bad provider id and an unknown cache mode', async () => {
    const { diagnostics } = loadConfig(await world('provider: openai\ncache:\n  mode: sometimes\n'));
    expect(diagnostics.map((d) => d.pointer)).toEqual(['/provider', '/cache/mode']);
    expect(diagnostics[0].message).toMatch(/auto \| offline \| anthropic \| anthropic:<model> \| replay:<dir>/);
    expect(diagnostics[1].message).toMatch(/"read-write", "replay", "off"/);
  });

  it('refuses a binary, non-UTF-8, huge or non-mapping file', async () => {
    expect(loadConfig(await world(Buffer.from([0xff, 0xfe, 0x00, 0x41]))).diagnostics[0]).toMatchObject({ code: 'AUR4105' });
    expect(loadConfig(await world('a: "' + 'x'.repeat(1024 * 1024) + '"\n')).diagnostics[0]).toMatchObject({ code: 'AUR4105' });
    expect(loadConfig(await world('- a\n- b\n')).diagnostics[0]).toMatchObject({ code: 'AUR4106', message: expect.stringMatching(/a list/) });
    expect(loadConfig(await world('')).diagnostics).toEqual([]);
  });

  it('reads the file as strict UTF-8: a bad byte, a NUL, and a byte-order mark (dropped)', async () => {
    // "é" saved as Latin-1 (one byte 0xE9) in an otherwise good file.
    const latin1 = Buffer.concat([Buffer.from('provider: offline\n# caf'), Buffer.from([0xe9]), Buffer.from('\nconcurrency: 2\n')]);
    const bad = loadConfig(await world(latin1));
    // At the first bad byte's line:col, as a world file's AUR1003 is (README: config errors come with their place).
    const offset = latin1.indexOf(0xe9);
    expect(bad.diagnostics).toEqual([expect.objectContaining({ code: 'AUR4105', severity: 'error', file: 'aureus.config.yaml', line: 2, column: 6, message: `cannot read the config file: not valid UTF-8 (first bad byte at offset ${offset})` })]);
    const utf16 = loadConfig(await world(Buffer.from('\ufeffprovider: offline\n', 'utf16le'))).diagnostics[0]!;
    expect(utf16).toMatchObject({ code: 'AUR4105', line: 1, column: 1, hint: expect.stringMatching(/UTF-16/) });
    expect(bad.config).toEqual(defaultConfig());
    expect(loadConfig(await world('provider: offline\n\0')).diagnostics).toEqual([expect.objectContaining({ code: 'AUR4105', message: 'cannot read the config file: it contains NUL bytes (a binary file?)' })]);
    const bom = loadConfig(await world('\ufeffconcurrency: 2\n'));
    expect(bom.diagnostics).toEqual([]);
    expect(bom.config.concurrency).toBe(2);
  });

  it('refuses an alias bomb', async () => {
    const lines = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 9; i++) lines.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10).fill('*' + String.fromCharCode(96 + i)).join(', ')}]`);
    const { diagnostics } = loadConfig(await world(lines.join('\n') + '\n'));
    expect(diagnostics[0]).toMatchObject({ code: 'AUR4101', message: expect.stringMatching(/alias/i) });
  });

  it('refuses an unknown model id and a model without a price, naming the key', async () => {
    const { diagnostics } = loadConfig(await world('provider: anthropic\nmodels:\n  critic: claude-haiku-9\n'));
    expect(diagnostics).toEqual([
      expect.objectContaining({ code: 'AUR4007', severity: 'error', pointer: '/models/critic', message: expect.stringMatching(/unknown model id "claude-haiku-9" at models\.critic/) }),
      expect.objectContaining({ code: 'AUR4004', severity: 'error', message: expect.stringMatching(/"claude-haiku-9" \(used for critic\)/) }),
    ]);
    expect(diagnostics[0].hint).toMatch(/claude-haiku-5-5/);
    // A known model whose price was left out of a custom table.
    const unpriced = loadConfig(await world('provider: anthropic\nmodels:\n  recap: claude-fable-5-1\nprices:\n  claude-fable-5-1: { input: 10, output: 50, cache_write: 12.5, cache_read: 1 }\n'));
    expect(unpriced.diagnostics).toEqual([]);
    // Offline and replay never call a model: nothing to check.
    expect(loadConfig(await world('provider: offline\nmodels:\n  critic: claude-haiku-9\n')).diagnostics).toEqual([]);
    expect(() => loadConfigOrThrow(await0('provider: anthropic\nmodels:\n  critic: claude-haiku-9\n'))).toThrow(/invalid/);
  });

  it('refuses settings the chosen model would answer with HTTP 400', async () => {
    const big = loadConfig(await world('provider: anthropic\nmax_tokens:\n  writer: 100000\n')).diagnostics;
    expect(big).toEqual([expect.objectContaining({ code: 'AUR4008', severity: 'error', pointer: '/max_tokens/writer', message: expect.stringMatching(/max_tokens\.writer is 100000, more than claude-sonnet-5-5 accepts \(64000\)/) })]);
    // Sonnet 4.5 takes no effort parameter, and it is retired on 2026-11-30.
    const old = loadConfig(await world('provider: anthropic\nmodels:\n  writer: claude-sonnet-4-5\nprices:\n  claude-sonnet-4-5: { input: 3, output: 15, cache_write: 3.75, cache_read: 0.3 }\n')).diagnostics;
    expect(old.map((d) => [d.code, d.severity])).toEqual([['AUR4010', 'warning'], ['AUR4009', 'error']]);
    expect(old[0]!.hint).toBe('move to the current lineup (claude-sonnet-5-5, claude-haiku-5-5, claude-opus-5-5)');
    expect(old[1]).toMatchObject({ pointer: '/effort/writer', message: expect.stringMatching(/effort\.writer is "medium" but claude-sonnet-4-5/) });
    expect(loadConfig(await world('provider: anthropic\nmodels:\n  writer: claude-sonnet-4-5\neffort:\n  writer: null\nprices:\n  claude-sonnet-4-5: { input: 3, output: 15, cache_write: 3.75, cache_read: 0.3 }\n')).diagnostics.map((d) => d.code)).toEqual(['AUR4010']);
    // Schema-level: an effort the API does not know.
    expect(loadConfig(await world('effort:\n  critic: extreme\n')).diagnostics[0]).toMatchObject({ code: 'AUR4102', pointer: '/effort/critic' });
  });

  it('parses --max-cost and --cache-ttl', () => {
    expect(parseMaxCost('0.50')).toBe(0.5);
    expect(parseMaxCost('$2')).toBe(2);
    for (const v of ['0', '-1', 'abc', '']) expect(catchAureus(() => parseMaxCost(v)).diagnostics[0].code).toBe('AUR4003');
    expect(parseCacheTtl('1h')).toBe('1h');
    expect(catchAureus(() => parseCacheTtl('2h')).exitCode).toBe(2);
    const out = applyOverrides(defaultConfig(), { maxCostUsd: 0.5, cacheTtl: '1h' });
    expect(out.budgets.max_cost_usd).toBe(0.5);
    expect(out.cache.ttl).toBe('1h');
  });

  it('loadConfigOrThrow exits 3 with the diagnostics', async () => {
    const err = catchAureus(() => loadConfigOrThrow(await0('concurrency: -1\n')));
    expect(err.exitCode).toBe(3);
    expect(err.diagnostics[0].code).toBe('AUR4102');
  });

  it('applies CLI overrides over the file', async () => {
    const dir = await world('provider: offline\nconcurrency: 2\n');
    const { config } = loadConfig(dir, { provider: 'anthropic:claude-opus-4-5', models: { writer: 'w-model' }, concurrency: 6, chaos: 0.25, cacheMode: 'replay' });
    expect(config.provider).toBe('anthropic:claude-opus-4-5');
    expect(config.models.writer).toBe('w-model');
    expect(config.concurrency).toBe(6);
    expect(config.chaos).toBe(0.25);
    expect(config.cache.mode).toBe('replay');
  });
});

// A synchronous temp world for the throw test.
function await0(yaml: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aureus-config-'));
  fs.writeFileSync(path.join(dir, 'aureus.config.yaml'), yaml);
  return dir;
}

describe('CLI flag parsing', () => {
  it('parses --model role=id and rejects bad forms with the valid ones (exit 2)', () => {
    expect(parseModelFlags(['writer=claude-opus-4-5', 'escalation=claude-opus-4-5'])).toEqual({ writer: 'claude-opus-4-5', escalation: 'claude-opus-4-5' });
    for (const bad of ['writer', 'poet=x', 'writer=', '=x', 'writer=bad model']) {
      const err = catchAureus(() => parseModelFlags([bad]));
      expect(err.exitCode).toBe(2);
      expect(err.diagnostics[0]).toMatchObject({ code: 'AUR4002' });
      expect(err.diagnostics[0].hint).toMatch(/<role>=<model-id> with role one of director, proposals, writer, critic, recap, format_fix, escalation/);
    }
  });

  it('parses provider ids and rejects unknown ones listing the valid forms (exit 2)', () => {
    expect(parseProviderId('offline')).toEqual({ kind: 'offline' });
    expect(parseProviderId('anthropic')).toEqual({ kind: 'anthropic' });
    expect(parseProviderId('anthropic:claude-sonnet-4-5')).toEqual({ kind: 'anthropic', model: 'claude-sonnet-4-5' });
    expect(parseProviderId('replay:fixtures/cache')).toEqual({ kind: 'replay', dir: 'fixtures/cache' });
    for (const bad of ['openai', 'anthropic:', 'replay:', 'anthropic:bad model', '']) {
      const err = catchAureus(() => parseProviderFlag(bad));
      expect(err.exitCode).toBe(2);
      expect(err.diagnostics[0]).toMatchObject({ code: 'AUR4001', hint: 'valid forms: auto | offline | anthropic | anthropic:<model> | replay:<dir>' });
    }
  });

  it('resolves auto by ANTHROPIC_API_KEY', () => {
    expect(resolveProviderSpec('auto', {})).toEqual({ kind: 'offline' });
    expect(resolveProviderSpec('auto', { ANTHROPIC_API_KEY: 'k' })).toEqual({ kind: 'anthropic' });
    expect(resolveProviderSpec('offline', { ANTHROPIC_API_KEY: 'k' })).toEqual({ kind: 'offline' });
  });

  it('parses concurrency, chaos and cache mode', () => {
    expect(parseConcurrency('8')).toBe(8);
    expect(parseChaos('0.3')).toBe(0.3);
    expect(parseCacheMode('off')).toBe('off');
    for (const [fn, v] of [[parseConcurrency, '0'], [parseConcurrency, '1.5'], [parseConcurrency, '65'], [parseChaos, '2'], [parseChaos, 'x'], [parseCacheMode, 'always']] as const) {
      const err = catchAureus(() => (fn as (s: string) => unknown)(v));
      expect(err.exitCode).toBe(2);
      expect(err.diagnostics[0].code).toBe('AUR4003');
      expect(err.diagnostics[0].hint).toMatch(/valid form/);
    }
  });

  it('--model escalation=<id> replaces every escalation target', () => {
    const out = applyOverrides(defaultConfig(), { models: parseModelFlags(['escalation=claude-opus-9']) });
    expect(out.models.escalation).toBe('claude-opus-9');
    expect(out.escalations).toEqual({});
  });

  it('applyOverrides leaves its input alone', () => {
    const base = defaultConfig();
    const out = applyOverrides(base, { models: { critic: 'x' } });
    expect(out.models.critic).toBe('x');
    expect(base.models.critic).toBe('claude-haiku-5-5');
  });
});
