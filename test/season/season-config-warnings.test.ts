import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli, cleanup, cli, copyRepo, git, makeWorld } from '../pipeline/world.js';
import { anthropicEnv, useFakeAnthropic } from '../support/use-fake-anthropic.js';
import { faultyHandler } from '../reliability/fake-model.js';

/**
 * The config's warnings (a model at its end-of-life, AUR4010) concern the whole season's calls: a
 * `season run` says them once, before its first episode's calls, not once per episode; and its
 * --json lists them once.
 */
const server = useFakeAnthropic();
let pristine = '';
beforeAll(async () => {
  pristine = await makeWorld('season-eol');
  // Sonnet 4.5 takes no effort and has no default price: the config makes it usable, as a user would.
  fs.writeFileSync(path.join(pristine, 'aureus.config.yaml'), 'provider: anthropic\nmodels:\n  recap: claude-sonnet-4-5\neffort:\n  recap: null\nprices:\n  claude-sonnet-4-5: { input: 3, output: 15, cache_write: 3.75, cache_read: 0.3 }\n');
  git(pristine, 'commit', '-qam', 'sonnet 4.5 for the recap');
}, 120_000);
afterAll(cleanup);

const EOL = /warning AUR4010 model "claude-sonnet-4-5" \(used for recap\) is retired on 2026-11-30/g;

describe.skipIf(!builtCli())('season run and the config warnings', () => {
  it('says AUR4010 once on stderr for two episodes', async () => {
    server.reset();
    server.handler = faultyHandler('season-eol', 0).handler;
    const root = copyRepo(pristine, 'season-eol-text');
    const r = await cli(['season', 'run', '--count', '2'], root, anthropicEnv(server, 'sk-ant-test-season-eol'));
    expect(r.code, r.stderr.slice(-1500)).toBe(0);
    expect(git(root, 'tag', '--list', 's01e*').split('\n')).toEqual(['s01e01', 's01e02']);
    expect(r.stderr.match(EOL)).toHaveLength(1);
    // Before the first episode's calls.
    expect(r.stderr.search(EOL)).toBeLessThan(r.stderr.indexOf('A  snapshot'));
  }, 180_000);

  it('--json lists it once among the warnings', async () => {
    server.reset();
    server.handler = faultyHandler('season-eol', 0).handler;
    const root = copyRepo(pristine, 'season-eol-json');
    const r = await cli(['season', 'run', '--count', '2', '--json'], root, anthropicEnv(server, 'sk-ant-test-season-eol'));
    expect(r.code, r.stderr.slice(-1500)).toBe(0);
    const doc = JSON.parse(r.stdout) as { episodes: unknown[]; warnings: { code: string; message: string }[] };
    expect(doc.episodes).toHaveLength(2);
    expect(doc.warnings.filter((w) => w.code === 'AUR4010').map((w) => w.message)).toEqual([expect.stringMatching(/claude-sonnet-4-5.*recap.*is retired on 2026-11-30/)]);
    expect(r.stderr).not.toContain('AUR4010');
  }, 180_000);
});
