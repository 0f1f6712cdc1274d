import path from 'node:path';
import { diag } from '../diagnostics/index.js';
import { AureusError, ExitCode } from '../errors.js';
import type { GitPort } from '../git/port.js';
import { seasonDirName } from '../paths.js';
import type { PlayState } from './state.js';

/** The tag of a session's n-th canonization. */
export const canonTag = (session: string, n: number): string => `play/${session}/${n}`;

/** The canon record a session's n-th canonization commits (its deltas with their provenance, the rejections). */
export function canonRecordRel(s: PlayState, n: number): string {
  return path.posix.join('seasons', seasonDirName(s.setup.season), 'play', s.session, `canon_${String(n).padStart(2, '0')}.json`);
}

/** What the session log's `canonized` record says of a canonization (canonize.ts's result). */
export interface Canonized {
  commit: string | null;
  /** Written to canon. */
  accepted: string[];
  /** Judged, not rejected, and nothing written (already so, or kept as the cast's word). */
  unchanged: string[];
  rejected: Record<string, string>;
  scene_findings: string[];
  /** Committed by an earlier process that was killed before it recorded it (read back from git). */
  recovered?: boolean;
}

interface CanonRecord {
  session?: string;
  scene?: string;
  checkpoint?: number;
  rejected?: { id: string; reason: string }[];
  scene_findings?: string[];
}

/**
 * The session's next canonization as git already holds it, or null when its tag does not exist.
 *
 * A process killed (SIGKILL, a crash, a power cut) after a canonization's commit and tag but before
 * its `canonized` record leaves a log whose proposals are still pending: judged again, they would be
 * applied twice or refused as AUR6009 on the existing tag. So, under the lock and after the
 * transaction's own roll-forward, the tag is read back instead: the `canonized` record is rebuilt
 * from what the commit itself says (the Aureus-Session/-Accepted/-Unchanged trailers of its message, the canon
 * record it wrote: the rejections with their reasons, the scene findings), exactly the fields the
 * uninterrupted path records. It is this canonization's only if all of that agrees with the log:
 * the commit is in the current branch's history, the message and the canon record name this session
 * (and the record this checkpoint and scene), and the proposals it judged are exactly the ones
 * pending. Anything else (a tag left from a deleted session of the same id, a rollback since) is
 * refused (AUR6205, exit 10): the log and the history disagree, and only the user can say which wins.
 */
export async function committedCanonization(git: GitPort, s: PlayState, n: number): Promise<Canonized | null> {
  const tag = canonTag(s.session, n);
  const commit = await git.resolve(`refs/tags/${tag}`);
  if (commit === null) return null;
  const refuse = (why: string) =>
    new AureusError(`tag ${tag} exists but is not session ${s.session}'s canonization ${n}`, { exitCode: ExitCode.GIT, diagnostics: [diag('AUR6205', { tag, session: s.session, n, why })] });
  const head = await git.head();
  if (!head || !(await git.isAncestor(commit, head))) throw refuse(`its commit ${commit.slice(0, 10)} is not in the current branch's history`);
  const message = await git.message(commit);
  const trailer = (key: string) => message.match(new RegExp(`^Aureus-${key}: (.*)$`, 'm'))?.[1]?.trim();
  if (trailer('Session') !== s.session) throw refuse(`its commit ${commit.slice(0, 10)} is not a canonization of this session (Aureus-Session: ${trailer('Session') ?? 'absent'})`);
  const rel = canonRecordRel(s, n);
  let record: CanonRecord | null;
  try {
    record = JSON.parse((await git.showFile(commit, rel)) ?? 'null') as CanonRecord | null;
  } catch {
    record = null;
  }
  if (!record || record.session !== s.session || record.checkpoint !== n || record.scene !== s.setup.scene) throw refuse(`its commit has no canon record ${rel} of checkpoint ${n} of this session's scene ${s.setup.scene}`);
  const ids = (v: string | undefined) => (!v || v === '(none)' ? [] : v.split(', '));
  const accepted = ids(trailer('Accepted'));
  const unchanged = ids(trailer('Unchanged'));
  const rejected = record.rejected ?? [];
  const judged = [...accepted, ...unchanged, ...rejected.map((r) => r.id)].sort().join(', ');
  const pending = s.proposals.filter((p) => p.status === 'pending').map((p) => p.id).sort().join(', ');
  if (judged !== pending) throw refuse(`it judged the proposals ${judged || '(none)'}, the session log has ${pending || '(none)'} pending`);
  return { commit, accepted, unchanged, rejected: Object.fromEntries(rejected.map((r) => [r.id, r.reason])), scene_findings: record.scene_findings ?? [], recovered: true };
}
