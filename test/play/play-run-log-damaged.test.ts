import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtCli, cli, copyRepo, git } from '../pipeline/world.js';
import { useWorld } from '../support/use-world.js';
import { STACK_TRACE } from '../cli/helpers.js';
import { playScript } from './support.js';

/**
 * A play session's run log (`.aureus/sessions/<id>/run_log.jsonl`) with a damaged line, read back by
 * the resumed session: for the spend its budgets count and for its canonization commits' Aureus-Tokens
 * and Aureus-Cost ("the session so far"). The line was dropped without a word, so both were less than
 * the session had spent. Now it is named as an episode's commit names it (AUR4499, file:line:column),
 * in text and as a --json notice, and the trailers say "a lower bound".
 */
const ARGS = ['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--mode', 'open', '--provider', 'offline'];
const LOG = '.aureus/sessions/d1/run_log.jsonl';
const trailer = (w: string, name: string) => new RegExp(`^${name}: (.*)$`, 'm').exec(git(w, 'log', '-1', '--format=%B'))?.[1];

describe.skipIf(!builtCli())('aureus play --resume with a damaged session run log', () => {
  const base = useWorld('play-log-damaged');

  async function damagedSession(label: string): Promise<string> {
    const w = copyRepo(base(), label);
    const r = await playScript([...ARGS, '--session', 'd1'], w, 'Catiline, where were you last night?\n');
    expect(r.code, r.stderr).toBe(0);
    const file = path.join(w, LOG);
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    expect(lines.length).toBeGreaterThan(2);
    lines[0] = lines[0]!.slice(0, 50); // cut short
    fs.writeFileSync(file, lines.join('\n'));
    return w;
  }

  it('names the line and commits "a lower bound"', async () => {
    const w = await damagedSession('play-log-text');
    const r = await playScript(['play', '--resume', 'd1', '--provider', 'offline'], w, '/commit\n/end\n');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/1:\d+: warning AUR4499 line 1 of \.aureus\/sessions\/d1\/run_log\.jsonl is not a run log entry \(invalid JSON: [^)]+\): the call it records is not counted, so the tokens and cost committed for play session d1 are a lower bound/);
    expect(r.stderr).toContain('--max-cost (budgets.max_cost_usd) counts its spend without that call; `aureus cost --session d1` names the line');
    expect(r.stderr.match(/warning AUR4499/g)).toHaveLength(1);
    expect(r.stderr).not.toMatch(STACK_TRACE);
    expect(trailer(w, 'Aureus-Tokens')).toMatch(/^\d+ \(input \d+, output \d+, cache read 0, cache write 0; the session so far; a lower bound: 1 run log line could not be read\)$/);
    expect(trailer(w, 'Aureus-Cost')).toMatch(/^\$\d+\.\d{4} \(the session so far; a lower bound: 1 run log line could not be read\)$/);
    // `aureus cost` of the session refuses to total it, as before.
    expect((await cli(['cost', '--session', 'd1'], w)).stderr).toContain('AUR4402');
  }, 120_000);

  it('--json: a notice with the code', async () => {
    const w = await damagedSession('play-log-json');
    const r = await playScript(['play', '--resume', 'd1', '--provider', 'offline', '--json'], w, '/end\n');
    expect(r.code, r.stderr).toBe(0);
    const notices = r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string; code?: string; message?: string }).filter((e) => e.code === 'AUR4499');
    expect(notices).toHaveLength(1);
    expect(notices[0]!.message).toContain('line 1 of .aureus/sessions/d1/run_log.jsonl is not a run log entry');
  }, 120_000);

  // The hint says how the budget and the trailers count the damaged line: text mode prints it under
  // the warning, and a --json reader gets the same text in the notice's `hint` (it had code and message only).
  it('--json: the notice carries the hint text mode prints', async () => {
    const text = await playScript(['play', '--resume', 'd1', '--provider', 'offline'], await damagedSession('play-log-hint-text'), '/end\n');
    expect(text.code, text.stderr).toBe(0);
    const printed = /warning AUR4499 [^\n]*\n\s*hint: ([^\n]+)\n/.exec(text.stderr)?.[1];
    expect(printed).toContain('`aureus cost --session d1` names the line');
    const r = await playScript(['play', '--resume', 'd1', '--provider', 'offline', '--json'], await damagedSession('play-log-hint-json'), '/end\n');
    expect(r.code, r.stderr).toBe(0);
    const notice = r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string; code?: string; hint?: string }).find((e) => e.code === 'AUR4499');
    expect(notice).toMatchObject({ type: 'notice', code: 'AUR4499', hint: printed });
  }, 120_000);

  it('a whole run log: plain trailers, no warning', async () => {
    const w = copyRepo(base(), 'play-log-whole');
    expect((await playScript([...ARGS, '--session', 'd1'], w, 'Catiline, where were you last night?\n')).code).toBe(0);
    const r = await playScript(['play', '--resume', 'd1', '--provider', 'offline'], w, '/commit\n/end\n');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('AUR4499');
    expect(trailer(w, 'Aureus-Cost')).toBe('$0.0000 (the session so far)');
  }, 120_000);
});
