import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { builtCli, cleanup, cli, editJson, git, makeWorld } from '../pipeline/world.js';

/**
 * `aureus query history <path>` names the episode of each episode commit that changed the value
 * (README: "date, episode, or play session, scene and turns"), read from the commit's subject
 * `S01E01: <title>`; a commit that is not an episode's (the init, a revert of one) names none.
 */
describe.skipIf(!builtCli())('aureus query history', () => {
  afterAll(() => cleanup());

  it('names the episode of an episode commit, and none for the init commit or a revert', async () => {
    const w = await makeWorld('query-history');
    const run = await cli(['episode', 'run'], w);
    expect(run.code, run.stderr).toBe(0);
    // Stage H of S01E01 moves the grain index (op_grain_dole in SC01, seed of the starter kit).
    const q = await cli(['query', 'history', 'world.global.grain_index', '--json'], w);
    expect(q.code, q.stderr).toBe(0);
    const h = JSON.parse(q.stdout) as { subject: string; episode: string | null }[];
    expect(h.map((e) => [e.subject.slice(0, 7), e.episode])).toEqual([
      ['Create ', null],
      ['S01E01:', 's01e01'],
    ]);

    expect((await cli(['rollback', 's01e01'], w)).code).toBe(0);
    const after = JSON.parse((await cli(['query', 'history', 'world.global.grain_index', '--json'], w)).stdout) as { subject: string; episode: string | null }[];
    expect(after.at(-1)!.subject).toMatch(/^Revert "S01E01: /);
    expect(after.at(-1)!.episode).toBeNull();
  });
});

/** The world files of a world as they stand, for the values a fresh world's history must start from. */
const read = (w: string, file: string) => JSON.parse(fs.readFileSync(path.join(w, 'world', file), 'utf8'));
const history = async (w: string, p: string) => {
  const q = await cli(['query', 'history', p, '--json'], w);
  return q.code === 0 ? (JSON.parse(q.stdout) as { subject: string; value: unknown }[]) : [{ subject: `exit ${q.code}`, value: q.stderr }];
};

/**
 * Every path family of docs/paths.md is read as the delta engine writes it: on a fresh world each
 * names the commit that created the world, with the value the path addresses (a metric's number, not
 * its declaration; an account of the ledger, a list of {id, denarii}, by its id).
 */
describe.skipIf(!builtCli())('aureus query history: every path family of docs/paths.md', () => {
  afterAll(() => cleanup());

  it('gives each family its value from the commit that created the world', async () => {
    const w = await makeWorld('query-history-families');
    const world = read(w, 'world.json');
    const cicero = read(w, 'characters.json').characters.find((c: { id: string }) => c.id === 'cicero');
    const edge = read(w, 'relationships.json').relationships.find((r: { from: string; to: string }) => r.from === 'varo' && r.to === 'murena');
    const secret = read(w, 'secrets.json').secrets[0];
    const thread = read(w, 'threads.json').threads[0];
    const ledger = read(w, 'assets.json').cash_ledger as { id: string; denarii: number }[];
    const expected: [string, unknown][] = [
      ['world.global.unrest', world.global.unrest.value],
      ['world.date.year_bc', world.date.year_bc],
      ['characters.cicero.stats.fama', cicero.stats.fama],
      ['characters.cicero.status', cicero.status],
      ['characters.cicero.location', cicero.location],
      ['characters.cicero.bdi.beliefs', cicero.bdi.beliefs],
      ['characters.cicero.bdi.intentions', cicero.bdi.intentions],
      ['relationships.varo.murena.loyalty', edge.weights.loyalty],
      ['relationships.varo.murena.flags', edge.flags],
      [`secrets.${secret.id}.status`, secret.status],
      [`secrets.${secret.id}.legal_value`, secret.legal_value],
      [`secrets.${secret.id}.public_damage`, secret.public_damage],
      [`secrets.${secret.id}.holders`, secret.holders],
      [`threads.${thread.id}.progress`, thread.progress],
      [`threads.${thread.id}.status`, thread.status],
      [`threads.${thread.id}.last_progress_episode`, thread.last_progress_episode],
      ['assets.cash_ledger.crassus', ledger.find((a) => a.id === 'crassus')!.denarii],
      ['assets.cash_ledger', Object.fromEntries(ledger.map((a) => [a.id, a.denarii]))],
    ];
    expect(typeof world.global.unrest.value).toBe('number');
    expect(ledger.find((a) => a.id === 'crassus')!.denarii).toBeGreaterThan(0);
    // All at once, so a failure shows every family that reads wrong.
    const got = await Promise.all(expected.map(async ([p]) => [p, (await history(w, p)).map((e) => [e.subject.slice(0, 7), e.value])]));
    expect(got).toEqual(expected.map(([p, value]) => [p, [['Create ', value]]]));
    // No secret is told in a fresh world: an optional field never set has no history, and that is no error.
    expect(await history(w, `secrets.${secret.id}.told_in`)).toEqual([]);
  });

  it('lists the episode that moved an account, as `aureus diff` reports it', async () => {
    const w = await makeWorld('query-history-ledger');
    const before = read(w, 'assets.json').cash_ledger.find((a: { id: string }) => a.id === 'crassus').denarii;
    expect((await cli(['episode', 'run'], w)).code).toBe(0);
    const after = read(w, 'assets.json').cash_ledger.find((a: { id: string }) => a.id === 'crassus').denarii;
    // S01E01 of the starter kit, offline, moves Crassus's money (the premise of the test).
    expect(after).not.toBe(before);
    const h = await history(w, 'assets.cash_ledger.crassus');
    expect(h.map((e) => [e.subject.slice(0, 7), e.value])).toEqual([['Create ', before], ['S01E01:', after]]);
  });
});

/**
 * An id the world does not have, in a path no commit ever gave a value, is a typo: refused (exit 2,
 * AUR7110, with the ids there are and the nearest one), as `query debts nobody` is, never an empty
 * answer that looks like canon. An id that is gone now still has the history of the commits it was in.
 */
describe.skipIf(!builtCli())('aureus query history: ids that name nothing', () => {
  afterAll(() => cleanup());

  it('refuses an unknown id of every kind, with "did you mean"', async () => {
    const w = await makeWorld('query-history-unknown');
    const cases: [string, string][] = [
      ['characters.ciceor.stats.fama', 'no character "ciceor" in world/characters.json'],
      ['characters.nobdy.stats.fama', 'no character "nobdy" in world/characters.json'],
      ['relationships.cicero.crasus.trust', 'no character "crasus" in world/characters.json'],
      ['relationships.nobody.cicero.flags', 'no character "nobody" in world/characters.json'],
      ['secrets.sec_nope.status', 'no secret "sec_nope" in world/secrets.json'],
      ['threads.thr_nope.progress', 'no thread "thr_nope" in world/threads.json'],
      ['world.global.unrset', 'no metric "unrset" in world/world.json'],
      ['assets.cash_ledger.crasus', 'no ledger account "crasus" in world/assets.json'],
    ];
    for (const [p, message] of cases) {
      const q = await cli(['query', 'history', p], w);
      expect([p, q.code, q.stdout], p).toEqual([p, 2, '']);
      expect(q.stderr, p).toContain(`AUR7110 query history ${p}: ${message}`);
    }
    expect((await cli(['query', 'history', 'characters.ciceor.stats.fama'], w)).stderr).toContain('did you mean "cicero"?');
    expect((await cli(['query', 'history', 'world.global.unrset'], w)).stderr).toContain('did you mean "unrest"?');
    expect((await cli(['query', 'history', 'assets.cash_ledger.crasus'], w)).stderr).toContain('did you mean "crassus"?');
  });

  it('gives the history of an id gone from the world, and nothing for an edge between known characters that never was', async () => {
    const w = await makeWorld('query-history-gone');
    const secret = read(w, 'secrets.json').secrets[0];
    editJson(w, 'world/secrets.json', (v) => void (v.secrets = v.secrets.slice(1)));
    git(w, 'commit', '-qam', 'drop a secret');
    const h = await history(w, `secrets.${secret.id}.status`);
    expect(h.map((e) => [e.subject.slice(0, 7), e.value])).toEqual([['Create ', secret.status], ['drop a ', null]]);

    const characters = (read(w, 'characters.json').characters as { id: string }[]).map((c) => c.id);
    const edges = new Set((read(w, 'relationships.json').relationships as { from: string; to: string }[]).map((r) => `${r.from}.${r.to}`));
    const missing = characters.flatMap((a) => characters.filter((b) => b !== a).map((b) => `${a}.${b}`)).find((k) => !edges.has(k))!;
    expect(missing).toBeDefined();
    expect(await history(w, `relationships.${missing}.trust`)).toEqual([]);
  });
});

describe.skipIf(!builtCli())('aureus query history over a commit whose file is not JSON', () => {
  afterAll(() => cleanup());

  it('says that commit is unreadable, where and why, and goes on (it was an internal error, exit 1)', async () => {
    const w = await makeWorld('query-history-unreadable');
    const file = path.join(w, 'world/characters.json');
    const good = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, '{ broken\n');
    git(w, 'commit', '-qam', 'a hand commit that broke the file');
    fs.writeFileSync(file, good.replace(/"fama": \d+/, '"fama": 12'));
    git(w, 'commit', '-qam', 'mended by hand');
    const q = await cli(['query', 'history', 'characters.cicero.stats.fama', '--json'], w);
    expect(q.code, q.stderr).toBe(0);
    const h = JSON.parse(q.stdout) as { subject: string; value: unknown; unreadable?: string }[];
    expect(h.map((e) => [e.subject, e.value, e.unreadable ?? null])).toEqual([
      ['Create the world from the Aureus starter kit', expect.any(Number), null],
      ['a hand commit that broke the file', null, expect.stringMatching(/^world\/characters\.json:1:\d+: invalid JSON/)],
      ['mended by hand', 12, null],
    ]);
    const text = await cli(['query', 'history', 'characters.cicero.stats.fama'], w);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/unreadable: world\/characters\.json:1:\d+: invalid JSON/);
  });

  it('reads a version saved with a UTF-8 BOM, as validate does (JSON.parse called it unreadable)', async () => {
    const w = await makeWorld('query-history-bom');
    const file = path.join(w, 'world/characters.json');
    fs.writeFileSync(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(fs.readFileSync(file, 'utf8').replace(/"fama": \d+/, '"fama": 13'))]));
    git(w, 'commit', '-qam', 'saved with a BOM');
    const q = await cli(['query', 'history', 'characters.cicero.stats.fama', '--json'], w);
    expect(q.code, q.stderr).toBe(0);
    const h = JSON.parse(q.stdout) as { subject: string; value: unknown; unreadable?: string }[];
    expect(h.map((e) => [e.subject, e.value, e.unreadable ?? null])).toEqual([
      ['Create the world from the Aureus starter kit', expect.any(Number), null],
      ['saved with a BOM', 13, null],
    ]);
  });
});
