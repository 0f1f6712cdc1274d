import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtCli, copyRepo, git } from '../pipeline/world.js';
import { useWorld } from '../support/use-world.js';
import { steps } from '../support/fake-anthropic-server.js';
import { playHandler, usePlayModel } from '../support/play-model.js';
import { playScript, startPlay, until } from './support.js';

/**
 * A kill in the middle of a session, then --resume: the same transcript, the same staged proposals
 * and the same final commit (tree and message) as a session that was never interrupted.
 */
const LINES = ['Catiline, where were you last night?', '/note Catiline lies about Faesulae', 'You must answer me! The Senate will hear of this!', 'Crassus, will you stand with him or with Rome?'];
const ARGS = ['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline,crassus', '--turns', '3', '--session', 'r1', '--json'];
const norm = (w: string) => fs.readFileSync(path.join(w, '.aureus/sessions/r1/turns.jsonl'), 'utf8').replace(/"commit":"[0-9a-f]{40}"/g, '"commit":"<sha>"');

describe.skipIf(!builtCli())('aureus play --resume after a kill', () => {
  const base = useWorld('play-resume');

  it('gives the same transcript, proposals and final commit as an uninterrupted session', async () => {
    const whole = copyRepo(base(), 'play-whole');
    const r = await playScript(ARGS, whole, LINES.join('\n') + '\n');
    expect(r.code, r.stderr).toBe(0);

    const cut = copyRepo(base(), 'play-cut');
    const p = startPlay(ARGS, cut);
    p.child.stdin.write(LINES.slice(0, 3).join('\n') + '\n');
    // Two exchanges answered (the second is the third line): then SIGKILL, no chance to clean up.
    await until(() => (p.out().match(/"type":"message_complete"/g) ?? []).length >= 2);
    p.child.kill('SIGKILL');
    await p.closed;
    expect(git(cut, 'rev-list', '--count', 'HEAD')).toBe('1'); // nothing canonized yet

    const r2 = await playScript(['play', '--resume', 'r1', '--json'], cut, LINES.slice(3).join('\n') + '\n');
    expect(r2.code, r2.stderr).toBe(0);
    expect(r2.stdout).toContain('"type":"episode_complete"');

    expect(norm(cut)).toBe(norm(whole));
    expect(git(cut, 'rev-parse', 'HEAD^{tree}')).toBe(git(whole, 'rev-parse', 'HEAD^{tree}'));
    expect(git(cut, 'log', '-1', '--format=%B')).toBe(git(whole, 'log', '-1', '--format=%B'));
    expect(git(cut, 'rev-list', '--count', 'HEAD')).toBe(git(whole, 'rev-list', '--count', 'HEAD'));
  });

  it('resuming a finished session changes nothing', async () => {
    const w = copyRepo(base(), 'play-finished');
    await playScript(ARGS, w, LINES.join('\n') + '\n');
    const before = norm(w);
    const head = git(w, 'rev-parse', 'HEAD');
    const r = await playScript(['play', '--resume', 'r1'], w, 'Another line\n');
    expect(r.code).toBe(0);
    expect(norm(w)).toBe(before);
    expect(git(w, 'rev-parse', 'HEAD')).toBe(head);
    // Said plainly: the line was not played (it used to be ignored with only "session r1 saved").
    expect(r.stderr).toContain('aureus: session r1 is complete (its scene ended after turn 3): nothing was played');
    expect(r.stderr).not.toContain('resuming r1');
    expect(r.stdout).not.toContain('CATILINE:');
    const j = await playScript(['play', '--resume', 'r1', '--json'], w, 'Another line\n');
    expect(j.code).toBe(0);
    const events = j.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; message?: string });
    expect(events.map((e) => e.type)).toEqual(['notice', 'done']);
    expect(events[0]!.message).toMatch(/^session r1 is complete .*: nothing was played/);
    expect(norm(w)).toBe(before);
  });
});

/**
 * A secret made canon by a /commit, then the same disclosure again with a second secret: the session
 * goes on from the canonized world (the first secret is Cicero's now, so only the second is
 * proposed), whether it runs on or is paused after the /commit and resumed. Both give the same log,
 * world files and proposals. Crassus' answers come from a model (the fake Messages API): a secret is
 * learned only from an answer that tells it.
 */
describe.skipIf(!builtCli())('aureus play after a canonization, uninterrupted or resumed', () => {
  const { server, base, env } = usePlayModel('play-resume-canon');
  const ASK = 'What do you know of Caesar and of Catiline, Crassus?';
  const DEBTS = 'Caesar owes me more than he could repay in three lifetimes, and I hold the largest of his notes.';
  const BACKING = "It was my money behind Catiline's earlier campaigns; I still hold his notes, and yes, I knew of the first plot two years ago.";
  const ARGS2 = ['play', '--as', 'cicero', '--at', 'forum', '--with', 'crassus', '--session', 'r1', '--json'];
  const proposals = (w: string) => fs.readFileSync(path.join(w, '.aureus/sessions/r1/turns.jsonl'), 'utf8').split('\n').filter((l) => l.includes('"type":"proposal"')).map((l) => (JSON.parse(l) as { proposal: { reason: string } }).proposal.reason);

  it('works from the canonized world and agrees with the resumed session', async () => {
    // The first time he is asked, Crassus tells of Caesar's debts; the second time, of both secrets.
    server.handler = playHandler('complication', (req) => {
      const second = (req.body?.messages.length ?? 0) > 1;
      return steps.json({ speaker: 'crassus', action: 'smiles', dialogue: second ? `${DEBTS} ${BACKING}` : DEBTS, internal: 'x', mood: 'amused', tension_shift: 0 });
    });
    const whole = copyRepo(base(), 'play-canon-whole');
    const r = await playScript(ARGS2, whole, `${ASK}\n/commit\n${ASK}\n/end\n`, env());
    expect(r.code, r.stderr).toBe(0);
    const cut = copyRepo(base(), 'play-canon-cut');
    expect((await playScript(ARGS2, cut, `${ASK}\n/commit\n`, env())).code).toBe(0);
    const r2 = await playScript(['play', '--resume', 'r1', '--json'], cut, `${ASK}\n/end\n`, env());
    expect(r2.code, r2.stderr).toBe(0);

    const learned = proposals(whole).filter((p) => p.includes(' learns '));
    expect(learned).toEqual(['cicero learns sec_caesar_debts from crassus', 'cicero learns sec_crassus_backing from crassus']);
    expect(proposals(cut)).toEqual(proposals(whole));
    expect(norm(cut)).toBe(norm(whole));
    for (const f of fs.readdirSync(path.join(whole, 'world'))) expect(fs.readFileSync(path.join(cut, 'world', f), 'utf8'), f).toBe(fs.readFileSync(path.join(whole, 'world', f), 'utf8'));
  });
});
