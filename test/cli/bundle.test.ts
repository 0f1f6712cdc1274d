import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, packageCopy as copyPackage, tempDirsPerTest } from './helpers.js';

/**
 * bin/aureus.js runs the start-up bundle (scripts/bundle.mjs, dist/bundle/) while it is at least as
 * new as the tsc output, else dist/cli/main.js (issue 18). Both must behave the same: same output,
 * same files read from the package root (schemas, starter kit) through the rewritten import.meta.url.
 */
const bundled = fs.existsSync(path.join(REPO, 'dist/bundle/main.js'));
const { temp, keep } = tempDirsPerTest();

/** A copy of the built package, to age its files without touching the repo's. */
function packageCopy(): string {
  return keep(copyPackage('bundle-pkg'));
}

const env = { ...process.env, NO_COLOR: '1', ANTHROPIC_API_KEY: '', GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z' };
const aureus = (pkg: string, args: string[], cwd?: string) => spawnSync(process.execPath, [path.join(pkg, 'bin/aureus.js'), ...args], { encoding: 'utf8', env, cwd });

describe.skipIf(!bundled)('start-up bundle', () => {
  it('is run while fresh, and dist/cli/main.js once the tsc output is newer', () => {
    const pkg = packageCopy();
    // A marked entry, to see which path ran (the real bundle is exercised by the next test).
    fs.writeFileSync(path.join(pkg, 'dist/bundle/main.js'), "export async function main() { process.stdout.write('bundle\\n'); return 0; }\n");
    const past = new Date(Date.now() - 60_000);
    fs.utimesSync(path.join(pkg, 'dist/cli/main.js'), past, past);
    expect(aureus(pkg, ['--version']).stdout).toBe('bundle\n');

    const future = new Date(Date.now() + 60_000);
    fs.utimesSync(path.join(pkg, 'dist/cli/main.js'), future, future);
    const stale = aureus(pkg, ['--version']);
    expect(stale.status).toBe(0);
    expect(stale.stdout).toBe(`${(JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string }).version}\n`);

    fs.rmSync(path.join(pkg, 'dist/bundle'), { recursive: true });
    expect(aureus(pkg, ['--version']).stdout).toBe(stale.stdout);
  });

  it('plans, validates and reports errors exactly as the unbundled CLI does', () => {
    const pkg = packageCopy();
    const unbundled = packageCopy();
    fs.rmSync(path.join(unbundled, 'dist/bundle'), { recursive: true });
    const outputs = [pkg, unbundled].map((p) => {
      const world = path.join(temp('bundle-world'), 'w');
      const init = aureus(p, ['init', world]);
      expect(init.status, init.stderr).toBe(0);
      const runs = [['episode', 'plan', '--provider', 'offline', '--json'], ['validate'], ['status'], ['recap'], ['nosuch'], ['--version']].map((args) => aureus(p, ['-C', world, ...args]));
      return runs.map((r) => ({ status: r.status, stdout: r.stdout.replaceAll(world, '<world>'), stderr: r.stderr.replaceAll(world, '<world>') }));
    });
    expect(outputs[0]![0]!.status).toBe(0);
    expect(JSON.parse(outputs[0]![0]!.stdout)).toHaveProperty('acceptance');
    expect(outputs[0]).toEqual(outputs[1]);
  });

  it("reads aureus.config.yaml with yaml's ES module build, reporting a broken one as the unbundled CLI does", () => {
    const chunks = fs.readdirSync(path.join(REPO, 'dist/bundle')).filter((f) => f.endsWith('.js')).map((f) => fs.readFileSync(path.join(REPO, 'dist/bundle', f), 'utf8'));
    expect(chunks.some((c) => c.includes('// node_modules/yaml/browser/dist/'))).toBe(true);
    expect(chunks.some((c) => c.includes('// node_modules/yaml/dist/'))).toBe(false); // the CommonJS build: a require per module at start-up
    const pkg = packageCopy();
    const unbundled = packageCopy();
    fs.rmSync(path.join(unbundled, 'dist/bundle'), { recursive: true });
    const world = path.join(temp('bundle-yaml'), 'w');
    expect(aureus(pkg, ['init', world]).status).toBe(0);
    fs.appendFileSync(path.join(world, 'aureus.config.yaml'), 'models:\n  writer: [unclosed\nfoo: &a\n  - *b\nbudgets: {max_cost_usd: "lots"}\n');
    const [a, b] = [pkg, unbundled].map((p) => aureus(p, ['-C', world, 'validate']));
    expect(a!.status).toBe(3);
    expect(a!.stdout + a!.stderr).toMatch(/AUR4101/);
    expect({ status: a!.status, stdout: a!.stdout, stderr: a!.stderr }).toEqual({ status: b!.status, stdout: b!.stdout, stderr: b!.stderr });
  });
});
