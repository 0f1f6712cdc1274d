import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createProvider } from '../../src/providers/registry.js';
import { AureusError } from '../../src/errors.js';
import { packageRoot } from '../../src/paths.js';
import { tempRoot, testConfig, FAKE_KEY } from './helpers.js';

describe('provider registry', () => {
  it('builds each provider form', async () => {
    const root = await tempRoot();
    const config = testConfig();
    expect(createProvider('offline', { root, config, env: {} })).toMatchObject({ providerId: 'offline', deterministic: true });
    expect(createProvider('auto', { root, config, env: {} })).toMatchObject({ providerId: 'offline' });
    expect(createProvider('auto', { root, config, env: { ANTHROPIC_API_KEY: FAKE_KEY } })).toMatchObject({ providerId: 'anthropic', deterministic: false });
    expect(createProvider('anthropic:claude-opus-4-5', { root, config, env: { ANTHROPIC_API_KEY: FAKE_KEY } })).toMatchObject({ providerId: 'anthropic:claude-opus-4-5', pinnedModel: 'claude-opus-4-5' });
    // replay:<dir> needs the folder a recorded run wrote; a missing one (or a file) is refused up front.
    for (const [dir, reason] of [['rec', 'does not exist'], ['rec.txt', 'is not a folder']] as const) {
      if (dir === 'rec.txt') fs.writeFileSync(path.join(root, dir), 'x');
      let err: unknown;
      try {
        createProvider(`replay:${dir}`, { root, config, env: {} });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(AureusError);
      expect((err as AureusError).exitCode).toBe(7);
      expect((err as AureusError).diagnostics[0]).toMatchObject({ code: 'AUR4303' });
      expect((err as AureusError).diagnostics[0]!.message).toBe(`replay:${dir}: ${path.join(root, dir)} ${reason}, so every call would be a replay miss`);
    }
    fs.mkdirSync(path.join(root, 'rec'));
    expect(createProvider('replay:rec', { root, config, env: {} })).toMatchObject({ providerId: 'replay:rec', deterministic: true });
    // cache.mode replay: anthropic without a key is fine, and deterministic
    const replayMode = testConfig((c) => (c.cache.mode = 'replay'));
    expect(createProvider('anthropic', { root, config: replayMode, env: {} })).toMatchObject({ deterministic: true });
  });

  it('an unknown id is a usage error (exit 2) listing the valid forms', async () => {
    const root = await tempRoot();
    let err: unknown;
    try {
      createProvider('gpt-4', { root, config: testConfig(), env: {} });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AureusError);
    expect((err as AureusError).exitCode).toBe(2);
    expect((err as AureusError).message).toContain('auto | offline | anthropic | anthropic:<model> | replay:<dir>');
  });

  it('the anthropic provider without a key is exit 7 with advice', async () => {
    const root = await tempRoot();
    let err: AureusError | undefined;
    try {
      createProvider('anthropic', { root, config: testConfig(), env: {} });
    } catch (e) {
      err = e as AureusError;
    }
    expect(err?.exitCode).toBe(7);
    expect(err?.diagnostics[0]).toMatchObject({ code: 'AUR4005', hint: expect.stringMatching(/--provider offline/) });
  });
});

/** Static imports (not `import()`) of a module, resolved to files under src/. */
function staticImports(file: string): string[] {
  const src = fs.readFileSync(file, 'utf8');
  const out: string[] = [];
  const re = /^\s*(?:import|export)\s+(?!type\b)(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;
  for (const m of src.matchAll(re)) out.push(m[1]);
  return out;
}

describe('CLI start-up does not load the Anthropic SDK', () => {
  it('no static import chain from src/cli/main.ts reaches @anthropic-ai/sdk', () => {
    const seen = new Set<string>();
    const offenders: string[] = [];
    const visit = (file: string, chain: string[]) => {
      if (seen.has(file) || !fs.existsSync(file)) return;
      seen.add(file);
      for (const spec of staticImports(file)) {
        if (spec.startsWith('@anthropic-ai/sdk')) offenders.push([...chain, file].map((f) => path.relative(packageRoot(), f)).join(' -> '));
        if (spec.startsWith('.')) visit(path.resolve(path.dirname(file), spec.replace(/\.js$/, '.ts')), [...chain, file]);
      }
    };
    visit(path.join(packageRoot(), 'src', 'cli', 'main.ts'), []);
    expect(seen.size).toBeGreaterThan(5);
    expect(offenders).toEqual([]);
  });

  const dist = path.join(packageRoot(), 'dist', 'cli', 'main.js');
  it.skipIf(!fs.existsSync(dist))('running `aureus --help` from dist never resolves the SDK', () => {
    // A resolve hook records every specifier; the CLI must finish without asking for the SDK.
    const hook = `data:text/javascript,${encodeURIComponent(
      `export async function resolve(s, c, next) { if (s.includes('@anthropic-ai/sdk')) process.stderr.write('SDK-LOADED\\n'); return next(s, c); }`,
    )}`;
    const reg = `data:text/javascript,${encodeURIComponent(`import { register } from 'node:module'; register(${JSON.stringify(hook)});`)}`;
    const r = spawnSync(process.execPath, ['--import', reg, path.join(packageRoot(), 'bin', 'aureus.js'), '--help'], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('aureus');
    expect(r.stderr).not.toContain('SDK-LOADED');
    // The hook works: importing the provider module for real does resolve it.
    const probe = spawnSync(process.execPath, ['--import', reg, '-e', `await import('@anthropic-ai/sdk')`, '--input-type=module'], { encoding: 'utf8', cwd: packageRoot() });
    expect(probe.stderr).toContain('SDK-LOADED');
  });
});
