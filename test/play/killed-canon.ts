import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { git } from '../pipeline/world.js';
import { records, sessionLog } from './support.js';

/**
 * A play session killed during a canonization and resumed, against the same session never
 * interrupted (test/play/play-kill-*.test.ts): what the two must share, and how to read it.
 */

/** Piped input, one turn per line; none at all for a resume that only finishes what the kill left. */
export const input = (lines: string[]): string => (lines.length ? lines.join('\n') + '\n' : '');

/** The world files by name, as text. */
export const worldFiles = (w: string): Record<string, string> => Object.fromEntries(fs.readdirSync(path.join(w, 'world')).sort().map((f) => [f, fs.readFileSync(path.join(w, 'world', f), 'utf8')]));

/** The branch's commits, each by its tree and message (a commit's hash also carries its time). */
export const history = (w: string): string => git(w, 'log', '--format=%T %B');

/** The session's canonization tags (play/<id>/<n>) in order, each as the commit it names. */
export function tagCommits(w: string, session: string): string[] {
  const tags = git(w, 'tag', '--list', `play/${session}/*`).split('\n').filter(Boolean);
  return tags.sort((a, b) => Number(a.split('/').at(-1)) - Number(b.split('/').at(-1))).map((t) => git(w, 'rev-parse', `${t}^{commit}`));
}

/** The commits the session log's `canonized` records name, in order (a canonization with nothing to commit names none). */
export function canonizedCommits(w: string, session: string): unknown[] {
  return records(w, session).filter((x) => x.type === 'canonized' && x.commit !== null).map((x) => x.commit);
}

/**
 * The resumed session `w` ends as the uninterrupted `ref`: the same commits (trees and messages),
 * tags, HEAD tree, world files and log (hashes masked), a clean work tree, and exactly one
 * `canonized` record per tag, naming the tagged commit (none twice: no canonization judged again).
 */
export function expectSameCanon(w: string, ref: string, session: string): void {
  expect(history(w)).toBe(history(ref));
  expect(git(w, 'tag', '--list', `play/${session}/*`)).toBe(git(ref, 'tag', '--list', `play/${session}/*`));
  expect(git(w, 'rev-parse', 'HEAD^{tree}')).toBe(git(ref, 'rev-parse', 'HEAD^{tree}'));
  expect(worldFiles(w)).toEqual(worldFiles(ref));
  expect(git(w, 'status', '--porcelain')).toBe('');
  expect(canonizedCommits(w, session)).toEqual(tagCommits(w, session));
  expect(sessionLog(w, session)).toBe(sessionLog(ref, session));
  expect(fs.existsSync(path.join(w, '.aureus/runs'))).toBe(fs.existsSync(path.join(ref, '.aureus/runs')));
}
