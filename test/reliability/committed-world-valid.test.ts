import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, cli, copyRepo, editJson, git, makeWorld } from '../pipeline/world.js';
import { steps, type FakeRequest } from '../support/fake-anthropic-server.js';
import { anthropicEnv, useFakeAnthropic } from '../support/use-fake-anthropic.js';
import { modelAnswer } from './fake-model.js';
import { isWriter, sceneOf, sectionsOf } from './real-style-model.js';

/**
 * What a model writes reaches the committed world only through its claims (the commit applies the
 * plan's deltas, not the answer's): an answer the verifier accepts must never commit a world that
 * `aureus validate` then refuses, which would stop every later command (exit 3) until a rollback.
 * Whole episodes through the real SDK against the local Messages API, with one claim added to
 * SC01's answer; and the gate before the commit (h-commit/valid-world.ts) for what else could break it.
 */
const server = useFakeAnthropic({ resetEachTest: true });
let pristine = '';
beforeAll(async () => {
  pristine = await makeWorld('committed-valid');
}, 120_000);
afterAll(() => cleanup());

/** The fake model's answers, with `claim` added to the first draft of SC01. */
function withClaim(claim: Record<string, unknown>): (req: FakeRequest) => ReturnType<typeof steps.ok> {
  return (req) => {
    const text = modelAnswer(req);
    if (!isWriter(req) || sceneOf(req) !== 'SC01') return steps.ok(text);
    const s = sectionsOf(text);
    return steps.ok(`---SCENE_TEXT---\n${s.text}\n\n---CLAIMS---\n${JSON.stringify([...s.claims, claim])}\n\n---SCENE_EVENTS---\n${JSON.stringify(s.events)}\n`);
  };
}

describe('a committed episode is a valid world', () => {
  it('a claim whose subject is the extra it invents ("davus") commits without the subject: validate passes (AUR5044)', async () => {
    server.handler = withClaim({ id: 'c_davus', kind: 'minor_character', text: 'Davus, a freedman porter, carries the tablets.', subject: 'davus' });
    const w = copyRepo(pristine, 'committed-valid-subject');
    const r = await cli(['episode', 'run', '--provider', 'anthropic', '--json'], w, anthropicEnv(server, 'sk-ant-test-committed'));
    expect(r.code, r.stderr.slice(-1500)).toBe(0);
    const facts = (JSON.parse(git(w, 'show', 'HEAD:world/canon.json')) as { facts: { text: string; subject?: string }[] }).facts;
    const davus = facts.find((f) => f.text.startsWith('Davus'));
    expect(davus).toEqual(expect.objectContaining({ kind: 'minor_character', scene: 'SC01', text: 'Davus, a freedman porter, carries the tablets.' }));
    expect(davus).not.toHaveProperty('subject');
    const report = git(w, 'show', 'HEAD:seasons/season_01/episode_01/verifier_report.json');
    expect(report).toMatch(/"code": "AUR5044"[\s\S]*?claim c_davus names the subject \\"davus\\"/);
    const v = await cli(['validate'], w);
    expect(v.code, v.stdout + v.stderr).toBe(0);
  }, 180_000);

  it('an operator effect whose expression gives a value its file refuses commits nothing: AUR6026, exit 6, the world still valid', async () => {
    // validate checks an operator's literal values (AUR2028) but an expression's value exists only at
    // run time: this world is valid until the effect lands.
    const w = copyRepo(pristine, 'committed-valid-flag');
    editJson(w, 'operators/operators.json', (v: { operators: { id: string; effects: unknown[] }[] }) => {
      v.operators.find((o) => o.id === 'op_reconciliation')!.effects.push({ op: 'add', path: 'relationships.actor.target.flags', value: { expr: "'Reconciled Friends'" } });
    });
    git(w, 'commit', '-qam', 'an operator with a flag out of pattern');
    expect((await cli(['validate'], w)).code).toBe(0);
    const head = git(w, 'rev-parse', 'HEAD');
    const r = await cli(['episode', 'run'], w);
    expect(r.code, r.stderr.slice(-1500)).toBe(6);
    expect(r.stderr).toMatch(/AUR6026 the changes of s01e01 would commit a world `aureus validate` refuses/);
    expect(r.stderr).toMatch(/world\/relationships\.json\n\s+\/relationships\/\d+\/flags\/\d+: error AUR1021 id "Reconciled Friends"/);
    expect(git(w, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(w, 'tag', '--list')).toBe('');
    expect(git(w, 'status', '--porcelain', '--', 'world', 'operators', 'seasons')).toBe('');
    expect((await cli(['validate'], w)).code).toBe(0);
  }, 180_000);

  it('an operator effect writing a literal value its file refuses: validate says so at the operator (AUR2028, exit 3), and a run refuses before it starts', async () => {
    const w = copyRepo(pristine, 'committed-valid-literal');
    editJson(w, 'operators/operators.json', (v: { operators: { id: string; effects: unknown[] }[] }) => {
      v.operators.find((o) => o.id === 'op_reconciliation')!.effects.push({ op: 'add', path: 'relationships.actor.target.flags', value: 'Reconciled Friends' });
    });
    git(w, 'commit', '-qam', 'an operator with a flag out of pattern');
    const v = await cli(['validate'], w);
    expect(v.code).toBe(3);
    expect(v.stdout).toMatch(/operators\/operators\.json\n\s+\d+:\d+ \/operators\/\d+\/effects\/\d+\/value: error AUR2028 effect value "Reconciled Friends" does not fit an item of flags/);
    const head = git(w, 'rev-parse', 'HEAD');
    const r = await cli(['episode', 'run'], w);
    expect(r.code, r.stderr.slice(-1500)).toBe(3);
    expect(r.stderr).toMatch(/error AUR2028 effect value "Reconciled Friends"/);
    expect(git(w, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(w, 'tag', '--list')).toBe('');
    expect(git(w, 'status', '--porcelain', '--', 'world', 'operators', 'seasons')).toBe('');
  }, 180_000);
});
