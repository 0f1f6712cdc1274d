import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { BIN } from '../pipeline/world.js';

/** The built CLI as a child with a piped stdin (no terminal): one play turn per line. */
export function startPlay(args: string[], cwd: string, extraEnv: NodeJS.ProcessEnv = {}): { child: ChildProcessWithoutNullStreams; out: () => string; err: () => string; closed: Promise<number | null> } {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.ANTHROPIC_API_KEY;
  Object.assign(env, extraEnv);
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, out: () => out, err: () => err, closed };
}

export async function playScript(args: string[], cwd: string, input: string | Buffer, env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const p = startPlay(args, cwd, env);
  p.child.stdin.end(input);
  const code = await p.closed;
  return { code, stdout: p.out(), stderr: p.err() };
}

/**
 * `play` started with `line` as its first turn, once Catiline has answered it (his line in text, or
 * its message_complete event with --json): a session running, for a test that changes the world
 * under it before its next line.
 */
export async function playingWithCatiline(args: string[], cwd: string, line: string): Promise<ReturnType<typeof startPlay>> {
  const p = startPlay(args, cwd);
  p.child.stdin.write(line);
  await until(() => /^CATILINE: |"type":"message_complete","turn":"[^"]*","content":"CATILINE: /m.test(p.out()));
  return p;
}

/** The world file of the hand edit below. */
export const HAND_EDITED = 'world/relationships.json';

/** The hand edit of the audit: one fear weight, 0.3 -> 0.35, left uncommitted (play refuses it: exit 8, AUR6001). */
export function handEdit(w: string): void {
  const file = path.join(w, HAND_EDITED);
  const text = fs.readFileSync(file, 'utf8');
  expect(text).toContain('"fear": 0.3,');
  fs.writeFileSync(file, text.replace('"fear": 0.3,', '"fear": 0.35,'));
}

/** The world's lexicon, read strictly when a session starts and when it canonizes. */
export const LEXICON = 'style/lexicon.md';

/** The lexicon with "okay" (line 17) saved as Latin-1 "okæy": byte 0xE6 at column 5 (exit 3, AUR5082). */
export function breakLexicon(w: string): void {
  const file = path.join(w, LEXICON);
  const text = fs.readFileSync(file, 'utf8');
  expect(text.split('\n')[16]).toMatch(/^\| okay \|/);
  const bytes = Buffer.from(text.replace('| okay |', '| ok\u0000y |'));
  bytes[bytes.indexOf(0)] = 0xe6;
  fs.writeFileSync(file, bytes);
}

/**
 * A session changed under it: Catiline answers `line`, then `meanwhile` changes the world (a hand
 * edit, a broken lexicon) and the input ends with /commit and /end, which canonize against it.
 */
export async function changedMidSession(args: string[], cwd: string, line: string, meanwhile: (w: string) => void): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const p = await playingWithCatiline(args, cwd, line);
  meanwhile(cwd);
  p.child.stdin.end('/commit\n/end\n');
  const code = await p.closed;
  return { code, stdout: p.out(), stderr: p.err() };
}

export async function until(cond: () => boolean, ms = 20_000): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}

export function records(world: string, session: string): Record<string, unknown>[] {
  return fs.readFileSync(path.join(world, '.aureus/sessions', session, 'turns.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** A session's log as text, its commit hashes masked: equal for two sessions that canonized the same (their commits differ only in time). */
export function sessionLog(world: string, session: string): string {
  return fs.readFileSync(path.join(world, '.aureus/sessions', session, 'turns.jsonl'), 'utf8').replace(/"commit":"[0-9a-f]{40}"/g, '"commit":"<sha>"');
}

/** Every string the hidden briefs of a session carried (to prove none leaks). */
export function briefStrings(world: string, session: string): string[] {
  return records(world, session)
    .filter((r) => r.type === 'brief')
    .flatMap((r) => {
      const b = r.brief as { key_facts: string[]; suggested_topics: string[] };
      return [...b.key_facts, ...b.suggested_topics];
    });
}
