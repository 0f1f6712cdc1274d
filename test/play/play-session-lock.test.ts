import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtCli, copyRepo } from '../pipeline/world.js';
import { useWorld } from '../support/use-world.js';
import { playScript, records, startPlay, until } from './support.js';

/**
 * One process plays a session at a time (src/play/session-lock.ts). Two real `play --resume` of the
 * same session: the second is refused at once (exit 9, AUR6206 naming the session and the holder's
 * pid) and writes nothing; the lock goes with the holder whichever way it ends, and a holder killed
 * with SIGKILL (no handler runs) leaves a stale lock the next resume takes over.
 */
const LOCK = '.aureus/sessions/dup/lock';
const log = (w: string) => fs.readFileSync(path.join(w, '.aureus/sessions/dup/turns.jsonl'), 'utf8');

describe.skipIf(!builtCli())('aureus play: one process per session', () => {
  const base = useWorld('play-session-lock');

  async function withSession(label: string): Promise<string> {
    const w = copyRepo(base(), label);
    const r = await playScript(['play', '--as', 'cicero', '--at', 'forum', '--with', 'catiline', '--session', 'dup', '--mode', 'open'], w, 'Catiline, speak.\n');
    expect(r.code, r.stderr).toBe(0);
    return w;
  }

  /** `play --resume dup` that has played `line` and waits for more (its stdin still open). */
  async function holding(w: string, line: string) {
    const p = startPlay(['play', '--resume', 'dup', '--json'], w);
    p.child.stdin.write(line + '\n');
    await until(() => p.out().includes('"type":"message_complete"'));
    return p;
  }

  it('refuses a second resume while the first plays, and writes nothing', async () => {
    const w = await withSession('lock-two');
    const a = await holding(w, 'Line A');
    const before = log(w);
    const b = await playScript(['play', '--resume', 'dup', '--json'], w, 'Line B\n/end\n');
    expect(b.code).toBe(9);
    expect(b.stdout).toContain('"codes":["AUR6206"]');
    expect(b.stderr).toContain(`AUR6206 session dup is being played by another process (pid ${a.child.pid} on`);
    expect(log(w)).toBe(before);
    a.child.stdin.end('/end\n');
    expect(await a.closed).toBe(0);
    const rs = records(w, 'dup');
    expect(rs.filter((r) => r.type === 'complete')).toHaveLength(1);
    expect(log(w)).not.toContain('Line B');
    const ids = rs.flatMap((r) => ('id' in r ? [r.id] : []));
    expect(new Set(ids).size).toBe(ids.length);
    expect(fs.existsSync(path.join(w, LOCK))).toBe(false);
  });

  it('releases the lock when the input ends (paused) and on Ctrl-C', async () => {
    const w = await withSession('lock-release');
    expect((await playScript(['play', '--resume', 'dup'], w, 'Line A\n')).code).toBe(0);
    expect(fs.existsSync(path.join(w, LOCK))).toBe(false);
    const a = await holding(w, 'Line B');
    expect(fs.existsSync(path.join(w, LOCK))).toBe(true);
    a.child.kill('SIGINT');
    expect(await a.closed).toBe(130);
    expect(fs.existsSync(path.join(w, LOCK))).toBe(false);
    const c = await playScript(['play', '--resume', 'dup'], w, 'Line C\n/end\n');
    expect(c.code, c.stderr).toBe(0);
  });

  it('takes over the stale lock of a killed holder', async () => {
    const w = await withSession('lock-stale');
    const a = await holding(w, 'Line A');
    a.child.kill('SIGKILL');
    await a.closed;
    expect(fs.existsSync(path.join(w, LOCK))).toBe(true);
    const b = await playScript(['play', '--resume', 'dup'], w, 'Line B\n/end\n');
    expect(b.code, b.stderr).toBe(0);
    expect(b.stderr).toContain(`AUR6003 removed a stale lock left by pid ${a.child.pid} (process no longer running)`);
    expect(records(w, 'dup').filter((r) => r.type === 'complete')).toHaveLength(1);
  });
});
